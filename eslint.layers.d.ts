// Types of eslint.layers.js for test/support/import-allowlist.ts.
import type { Linter } from "eslint";

declare const config: Linter.Config[];
export default config;
export const LAYERS: string[];
export const VALUES: Record<string, string[]>;
export const TYPES: Record<string, string[]>;
export const FILES: Record<string, string[]>;
