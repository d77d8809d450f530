// What each layer of src/ may import from outside src/, as an allowlist (docs/architecture.md,
// 'Layers'): the exact node: built-ins and package specifiers, nothing else — no subpath of a
// package that is not named here, no built-in without `node:`, no relative path that leaves src/.
// Listed here once: ESLint applies the static imports below (the cheap part), and
// test/support/import-allowlist.ts applies the whole table with the TypeScript compiler, dynamic
// import(), require and process.getBuiltinModule("…") included, on every module of src/.
// VALUES may be imported for their values; TYPES only with `import type` (or in a type position).
// The lists are today's imports: a new one is a line here, seen in review.
import tseslint from "typescript-eslint";

/** The layer of each path of src/ (a top folder, or the file for errors.ts and main.ts). */
export const LAYERS = ["errors", "model", "render", "plan", "locks", "explain", "kube", "approval", "commands", "cli", "main"];

/** The MCP SDK's modules `kubectl ptah mcp` uses (eslint.read-only.js names why). */
const MCP_SDK = ["server/index.js", "shared/stdio.js", "shared/transport.js", "types.js"].map((m) => `@modelcontextprotocol/sdk/${m}`);

/** @type {Record<string, string[]>} Specifiers a layer may import for their values. */
export const VALUES = {
  errors: [],
  model: ["zod"],
  // cli-table3's string-width helper (render/cli-table3-utils.d.ts types it), by its exact path.
  render: ["cli-table3", "cli-table3/src/utils.js", "js-yaml", "jsonpath-plus"],
  plan: ["node:crypto"],
  // The parser's Emscripten module itself, not the package's wrapper, and node:v8 to have it compiled
  // by V8's baseline compiler only (src/locks/parser.ts says why of both).
  locks: ["libpg-query/wasm/libpg-query.js", "node:v8"],
  explain: [],
  // The transport and the connection (http, https, tls, net, os, fs: eslint.read-only.js limits
  // which file takes what), the exec credential (client-node's KubeConfig, js-yaml), page
  // buffers, and V8's young generation for large reads.
  kube: ["@kubernetes/client-node", "js-yaml", "node:buffer", "node:fs", "node:http", "node:https", "node:net", "node:os", "node:path", "node:tls", "node:v8"],
  // The CEL evaluator of the approval policies the cluster holds, loaded only where one is read.
  approval: ["@marcbachmann/cel-js"],
  // node:crypto: the realm Lease holder's identity is a sha256 of the claimant (shared/realm-holders.ts).
  commands: [...MCP_SDK.filter((m) => !m.endsWith("/transport.js")), "node:crypto", "zod"],
  // The shell: node:fs's reads, and the loaders' built-ins (the code cache's node:vm, node:module
  // and node:os; the single binary's node:sea, node:zlib and node:vm).
  cli: ["node:fs", "node:module", "node:os", "node:path", "node:sea", "node:vm", "node:zlib"],
  main: ["node:fs", "node:tty", "node:v8"],
};

/** @type {Record<string, string[]>} Specifiers a layer may import for their types only. */
export const TYPES = {
  kube: ["node:child_process", "node:stream"],
  cli: ["node:child_process", "node:net", "node:stream"],
  // The SDK's Transport interface, which the mcp command's stdio transport implements.
  commands: ["@modelcontextprotocol/sdk/shared/transport.js"],
};

const RULE = "see docs/architecture.md, 'Layers'";
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");

/** no-restricted-imports' options for one layer: anything not relative and not listed. */
function allowlist(layer) {
  const values = VALUES[layer];
  const types = TYPES[layer] ?? [];
  const any = (names) => (names.length === 0 ? "(?!)" : `(?:${names.map(escape).join("|")})$`);
  return [
    "error",
    {
      patterns: [
        {
          regex: `^(?!\\.{1,2}/)(?!${any(values)})(?!${any(types)})`,
          message: `${layer} imports only the built-ins and packages eslint.layers.js lists for it (${RULE})`,
        },
        ...(types.length > 0 ? [{ regex: `^${any(types)}`, allowTypeImports: true, message: `${layer} imports this module for its types only (${RULE})` }] : []),
      ],
    },
  ];
}

/**
 * A module of src/ that is not TypeScript is linted with none of these rules and read by none of
 * the proofs (test/architecture.test.ts names it too): ESLint says so when it meets one.
 */
const onlyTypeScript = {
  meta: { type: "problem", schema: [], messages: { notTs: "src/ holds only .ts modules: this file is read by no rule and no proof (see docs/architecture.md, 'Layers')" } },
  create: (context) => ({ Program: (node) => context.report({ node, messageId: "notTs" }) }),
};

const plugin = { rules: { imports: tseslint.plugin.rules["no-restricted-imports"], "only-typescript": onlyTypeScript } };

/** Which files of src/ each layer is. */
export const FILES = Object.fromEntries(LAYERS.map((l) => [l, l === "errors" || l === "main" ? [`src/${l}.ts`] : [`src/${l}/**/*.ts`]]));

export default [
  ...LAYERS.map((layer) => ({ files: FILES[layer], plugins: { layers: plugin }, rules: { "layers/imports": allowlist(layer) } })),
  { files: ["src/**/*.{js,mjs,cjs,jsx,mts,cts,tsx}"], plugins: { layers: plugin }, rules: { "layers/only-typescript": "error" } },
];
