// Types of stryker-report.mjs for test/docs/mutation-figures.test.ts.
export const RESULTS: string;
export const EQUIVALENTS: string;
export const BEGIN: string;
export const END: string;
export function keyOf(module: string, survivor: { mutator: string; original: string; replacement: string }): string;
export function renderBlock(results: unknown, equivalents: unknown): string;
export function readJson(rel: string, fallback: unknown): unknown;
export function within(module: string, names: readonly string[]): string[];
