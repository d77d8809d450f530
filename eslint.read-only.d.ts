// Types of eslint.read-only.js for test/guarantees/read-only-static.test.ts.
import type { Linter } from "eslint";

declare const config: Linter.Config[];
export default config;
export const TRANSPORT: string[];
export const DOCTOR: string;
export const EXEC_AUTH: string;
