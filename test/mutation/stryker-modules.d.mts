// Types of stryker-modules.mjs for test/docs/mutation-figures.test.ts.
export const MODULES: readonly { readonly module: string; readonly tests: readonly string[] }[];
