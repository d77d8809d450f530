// The read-only proof by meaning: which modules of src/ may reach the network or start
// a process, stated as lint rules over what the code refers to, not over names it happens to use.
// The rules are ESLint's own no-restricted-imports/-globals/-properties/-syntax, registered again
// under the plugin name `read-only` so that they apply next to the architecture's rules of the
// same kind (a flat config replaces a rule's options per file; two names never collide).
//
// - No module of src/ imports a network or process module (node: prefixed or not), nor any
//   package but the named dependencies, nor a builtin module through a dynamic import(); no
//   dynamic import() takes anything but a string literal.
// - No module uses a network global (fetch, WebSocket, XMLHttpRequest, EventSource) or a way to
//   reach one by another name: globalThis/global/self/window, eval, Function, require,
//   `.constructor`, process.binding/_linkedBinding/dlopen/getBuiltinModule/mainModule.
// - node:fs is imported by name, only its reads (FS_READS; openSync only with "r"): no module
//   but the process guard imports its default, its namespace, a write or node:fs/promises.
// - The exceptions, each named and limited:
//   TRANSPORT  src/kube/http.ts and src/kube/proxy-tunnel.ts, the transport (http, https, tls,
//              net: the API server and the proxy in front of it);
//   GUARD      src/cli/process-guard.ts, the process guard: it replaces node:fs's writes,
//              child_process, Worker, process.dlopen/binding/kill/getBuiltinModule and Node's
//              CommonJS loader (process.mainModule.constructor), so it may name them all. It is the
//              one module that starts a process or writes a file, through its capabilities, each
//              imported by the modules GUARD_CAPABILITIES names: doctor's
//              execFile("kubectl", ["version", "--client", "-o", "json"], …) only inside
//              runKubectlVersion, the exec credential plugin's spawn only inside
//              startCredentialPlugin (handed to src/kube/ by cli/context.ts), stdout and stderr,
//              the export's new file and the code cache's folder;
//   LOADER     src/cli/code-cache.ts, the npm bin's loader, may import node:vm's Script and
//              call process.getBuiltinModule (node:module's createRequire through it): it
//              compiles and runs the bundle's own files (dist/npm/) as node's require would, from
//              V8's code cache, and hands them the built-ins their checked imports name;
//   EMBEDDED   src/cli/embedded.ts, the single binary's loader of its one embedded module (the MCP
//              server, a SEA asset), may call process.getBuiltinModule (node:sea, node:zlib,
//              node:vm's Script, and the built-ins that module requires): it runs the plugin's
//              own bundled code, as LOADER does;
//   ENTRY      src/main.ts may call process.getBuiltinModule only as
//              process.getBuiltinModule("node:tty"): isatty, loaded only for a character device;
//   and src/kube/connect.ts and src/kube/request-log.ts use node:net's and node:http's pure
//   helpers (isIP, BlockList, STATUS_CODES) and types, which open nothing.
// test/guarantees/read-only-static.test.ts applies each known bypass to a copy of a module and shows these
// rules failing it.
import { builtinRules } from "eslint/use-at-your-own-risk";
import tseslint from "typescript-eslint";

/** Where a refusal of these rules sends a contributor. */
const RULE = "see docs/architecture.md, 'Read-only by construction'";

export const TRANSPORT = ["src/kube/http.ts", "src/kube/proxy-tunnel.ts"];
export const GUARD = "src/cli/process-guard.ts";
/** The egress guard (the network's one door): reached only through the process guard's exports. */
export const EGRESS = ["src/cli/egress-guard.ts", "src/cli/egress-diagnostics.ts"];
/** Which module may import which capability of the guard (the loader takes its own at run time). */
export const GUARD_CAPABILITIES = {
  "src/main.ts": ["installProcessGuard", "installEgressGuard", "takeEgressRefusal"],
  "src/cli/fd-output.ts": ["writeStdio"],
  "src/cli/local.ts": ["runKubectlVersion", "processGuardInstalled"],
  "src/cli/context.ts": ["createNewFile", "startCredentialPlugin", "openDoor"],
  "src/cli/run.ts": ["takeEgressRefusal"],
};
const CAPABILITIES = [...new Set([...Object.values(GUARD_CAPABILITIES).flat(), "codeCacheFolder", "codeCacheLog"])];
/** What node:fs's importers may take from it: reads (openSync's flag is held to "r" below). */
export const FS_READS = [
  "readFileSync",
  "readSync",
  "openSync",
  "closeSync",
  "fstatSync",
  "statSync",
  "lstatSync",
  "existsSync",
  "readdirSync",
  "realpathSync",
  "accessSync",
  "constants",
];
export const LOADER = "src/cli/code-cache.ts";
export const EMBEDDED = "src/cli/embedded.ts";
export const ENTRY = "src/main.ts";

/** Modules that reach the network or run code outside this process. */
const NETWORK = ["http", "https", "http2", "net", "tls", "dgram", "dns", "dns/promises"];
const PROCESS = ["child_process", "worker_threads", "cluster", "module", "vm", "inspector", "inspector/promises", "repl", "wasi"];
const BANNED = [...NETWORK, ...PROCESS];
/** The packages src/ may import (package.json's dependencies); anything else is refused. */
// libpg-query: PostgreSQL's parser compiled to WebAssembly, for the lock analyser (src/locks/); it
// reads its own .wasm file beside it (or the single binary's asset) and opens nothing else.
// @marcbachmann/cel-js: a CEL evaluator with no dependencies of its own, for the approval policies
// (src/approval/policy-cel-env.ts); it evaluates expressions and imports nothing.
const DEPENDENCIES = ["@kubernetes/client-node", "@marcbachmann/cel-js", "cli-table3", "js-yaml", "jsonpath-plus", "libpg-query", "zod"];
/** Loaded by import() (src/locks/parser.ts): libpg-query's Emscripten module itself, by its path in the package. */
const DYNAMIC_DEPENDENCIES = [...DEPENDENCIES.filter((d) => d !== "libpg-query"), "libpg-query/wasm/libpg-query.js"];
/**
 * The MCP SDK, by these modules only (`kubectl ptah mcp`, src/commands/mcp/): its server, its
 * stdio line framing, the transport's type and the protocol's types; never its HTTP transports,
 * its client or its process-spawning stdio client.
 */
export const MCP_SDK_MODULES = ["server/index.js", "shared/stdio.js", "shared/transport.js", "types.js"].map((m) => `@modelcontextprotocol/sdk/${m}`);

const FS_WHY = `node:fs is imported by name, only its reads: writes go through the process guard's capabilities (${RULE})`;
const why = (name) => `${name} reaches the network or runs a process: only the transport (${TRANSPORT.join(", ")}) and the named exceptions may (${RULE})`;

/** The banned modules, minus `allow` (module → the import names allowed, or true for all), and the guard's `capabilities`. */
function imports(allow = {}, capabilities = [], egress = false) {
  const fsPaths = allow.fs === true ? [] : ["fs", "node:fs"].map((name) => ({ name, allowImportNames: FS_READS, allowTypeImports: true, message: FS_WHY }));
  const fsPromises = allow.fs === true ? [] : ["fs/promises", "node:fs/promises"].map((name) => ({ name, allowTypeImports: true, message: FS_WHY }));
  const banned = CAPABILITIES.filter((c) => !capabilities.includes(c));
  const guard = {
    regex: "(^|/)process-guard(\\.ts)?$",
    allowTypeImports: true,
    ...(capabilities.length > 0 ? { importNames: banned } : {}),
    message: "the process guard's capabilities are imported only by the modules eslint.read-only.js's GUARD_CAPABILITIES names",
  };
  const paths = [
    ...fsPaths,
    ...fsPromises,
    ...BANNED.flatMap((m) => [m, `node:${m}`]).flatMap((name) => {
      const bare = name.replace(/^node:/u, "");
      const allowed = allow[bare];
      if (allowed === true) return [];
      return [{ name, message: why(name), allowTypeImports: true, ...(allowed ? { allowImportNames: allowed } : {}) }];
    }),
  ];
  const escape = (d) => d.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
  const escaped = DEPENDENCIES.map(escape).join("|");
  const sdk = MCP_SDK_MODULES.map(escape).join("|");
  return [
    "error",
    {
      paths,
      patterns: [
        {
          regex: `^(?!\\.{1,2}/|node:)(?!(?:${escaped})(?:/|$))(?!(?:${sdk})$)`,
          message: `src/ imports only its named dependencies and node:-prefixed builtins (${RULE})`,
        },
        guard,
        ...(egress
          ? []
          : [
              {
                regex: "(^|/)egress-(guard|diagnostics)(\\.ts)?$",
                allowTypeImports: true,
                message: `the egress guard is reached through the process guard's exports, each by the modules GUARD_CAPABILITIES names (${RULE})`,
              },
            ]),
      ],
    },
  ];
}

const dynamicImports = [
  { selector: "ImportExpression:not([source.type='Literal'])", message: `a dynamic import() names its module as a string literal (${RULE})` },
  {
    selector: `ImportExpression[source.value=/^(node:)?(${BANNED.map((m) => m.replace("/", "\\/")).join("|")})$/]`,
    message: `no dynamic import() of a network or process module (${RULE})`,
  },
  {
    selector: `ImportExpression[source.type='Literal']:not([source.value=/^(\\.{1,2}\\/|node:(crypto|os|path|stream|tty|v8)$|(${DYNAMIC_DEPENDENCIES.join("|").replaceAll("/", "\\/").replaceAll(".", "\\.")})$)/])`,
    message: `a dynamic import() loads a module of src/, a named dependency or a harmless builtin (${RULE})`,
  },
  { selector: "ImportExpression[source.value=/process-guard/]", message: `the process guard is imported statically, by name (${RULE})` },
  // Reflect.get(Object.getPrototypeOf(() => 0), "constructor") is Function typed `any`: the key
  // itself is the reach, whatever reads it (`in` only asks whether it is there).
  {
    selector: "Literal[value='constructor']:not(BinaryExpression[operator='in'] > Literal.left), TemplateElement[value.cooked='constructor']",
    message: `a "constructor" key reaches Function through a prototype, and through it any global (${RULE})`,
  },
  {
    selector: "CallExpression[callee.name='openSync']:not([arguments.length=2][arguments.1.value='r'])",
    message: `openSync only to read: openSync(file, "r") (${RULE})`,
  },
];

const GLOBALS = ["fetch", "WebSocket", "XMLHttpRequest", "EventSource", "globalThis", "global", "self", "window", "eval", "Function", "require", "module"].map((name) => ({
  name,
  message: `${name}: a network global, or a way to reach one by another name (${RULE})`,
}));

const PROPERTIES = properties(["binding", "_linkedBinding", "dlopen", "getBuiltinModule", "mainModule"]);

function properties(names) {
  return [
    ...names.map((property) => ({
      object: "process",
      property,
      message: `process.${property} loads native or builtin modules around the imports (${RULE})`,
    })),
    { property: "constructor", message: `\`.constructor\` reaches Function, and through it any global (${RULE})` },
  ];
}
/** LOADER and ENTRY: the same, but process.getBuiltinModule (ENTRY's calls are limited by its syntax rule). */
const PROPERTIES_BUT_BUILTIN = properties(["binding", "_linkedBinding", "dlopen", "mainModule"]);
const GET_BUILTIN = "MemberExpression[object.name='process'][property.name='getBuiltinModule']";
const ONLY_TTY = [
  {
    selector: `CallExpression[callee.object.name='process'][callee.property.name='getBuiltinModule']:not([arguments.length=1][arguments.0.value='node:tty'])`,
    message: `main.ts loads one built-in by name: process.getBuiltinModule("node:tty") (${RULE})`,
  },
  {
    selector: `${GET_BUILTIN}:not(CallExpression > ${GET_BUILTIN}.callee), MemberExpression[object.name='process'][computed=true]`,
    message: `process.getBuiltinModule is only called, never passed on or computed (${RULE})`,
  },
];

const plugin = {
  rules: {
    imports: tseslint.plugin.rules["no-restricted-imports"],
    globals: builtinRules.get("no-restricted-globals"),
    properties: builtinRules.get("no-restricted-properties"),
    syntax: builtinRules.get("no-restricted-syntax"),
  },
};

/** The one call of a process-starting function a file may make, and nothing else with it. */
function onlyCall(fn, where, message) {
  return [
    { selector: `CallExpression[callee.name='${fn}']${where}`, message },
    {
      selector: `Identifier[name='${fn}']:not(ImportSpecifier > Identifier, CallExpression > Identifier.callee, VariableDeclarator > Identifier.id)`,
      message: `${fn} is only called, never passed on (${RULE})`,
    },
    { selector: `ImportSpecifier[imported.name='${fn}'][local.name!='${fn}']`, message: `${fn} is imported under its own name (${RULE})` },
  ];
}

const KUBECTL_VERSION = [
  "[arguments.0.value='kubectl']",
  "[arguments.1.type='ArrayExpression'][arguments.1.elements.length=4]",
  "[arguments.1.elements.0.value='version'][arguments.1.elements.1.value='--client']",
  "[arguments.1.elements.2.value='-o'][arguments.1.elements.3.value='json']",
].join("");

export default [
  {
    files: ["src/**/*.ts"],
    plugins: { "read-only": plugin },
    rules: {
      "read-only/imports": imports(),
      "read-only/globals": ["error", ...GLOBALS],
      "read-only/properties": ["error", ...PROPERTIES],
      "read-only/syntax": ["error", ...dynamicImports],
    },
  },
  { files: TRANSPORT, rules: { "read-only/imports": imports({ http: true, https: true, tls: true, net: true }) } },
  { files: ["src/kube/connect.ts"], rules: { "read-only/imports": imports({ net: ["isIP", "isIPv4", "isIPv6", "BlockList"] }) } },
  { files: [LOADER], rules: { "read-only/imports": imports({ vm: ["Script"] }), "read-only/properties": ["error", ...PROPERTIES_BUT_BUILTIN] } },
  { files: [EMBEDDED], rules: { "read-only/properties": ["error", ...PROPERTIES_BUT_BUILTIN] } },
  { files: [ENTRY], rules: { "read-only/properties": ["error", ...PROPERTIES_BUT_BUILTIN], "read-only/syntax": ["error", ...dynamicImports, ...ONLY_TTY] } },
  { files: ["src/kube/request-log.ts"], rules: { "read-only/imports": imports({ http: ["STATUS_CODES"] }) } },
  ...Object.entries(GUARD_CAPABILITIES).map(([file, capabilities]) => ({ files: [file], rules: { "read-only/imports": imports({}, capabilities) } })),
  {
    // The egress guard names process.binding and getBuiltinModule: it replaces what they hand out.
    files: [GUARD, ...EGRESS],
    rules: {
      "read-only/imports": imports({ fs: true }, [], true),
      // It replaces process.dlopen, binding, kill and getBuiltinModule: it names them all (its `.constructor` is held below).
      "read-only/properties": "off",
      "read-only/syntax": [
        "error",
        ...dynamicImports,
        {
          selector: "MemberExpression[property.name='constructor']:not([object.object.name='process'][object.property.name='mainModule'])",
          message: `the guard reaches Node's CommonJS loader only as process.mainModule.constructor (${RULE})`,
        },
        ...onlyCall(
          "execFile",
          `:not(${KUBECTL_VERSION})`,
          `doctor runs only \`kubectl version --client -o json\`: execFile("kubectl", ["version", "--client", "-o", "json"], …) (${RULE})`,
        ),
        ...onlyCall(
          "spawn",
          ":not(FunctionDeclaration[id.name='startCredentialPlugin'] CallExpression)",
          `spawn runs only the kubeconfig's exec credential plugin, in startCredentialPlugin (${RULE})`,
        ),
        {
          selector:
            "CallExpression[callee.name='original'][arguments.0.value='child_process']:not(FunctionDeclaration[id.name='runKubectlVersion'] CallExpression[arguments.1.value='execFile'], FunctionDeclaration[id.name='startCredentialPlugin'] CallExpression[arguments.1.value='spawn'])",
          message: `the guard takes child_process's execFile only in runKubectlVersion and spawn only in startCredentialPlugin (${RULE})`,
        },
      ],
    },
  },
];
