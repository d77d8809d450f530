// Bundles src/main.ts with esbuild: the npm bin's tree, dist/npm/ (CommonJS, one file per chunk of
// esbuild's split, so that only network commands load the connection code) with its loader
// dist/start.cjs (src/cli/code-cache.ts: V8's code cache for every file), and
// dist/sea-start.cjs (the single binary's main script: the same loader over the tree as SEA assets),
// and dist/kubectl-ptah.cjs (one CommonJS file: the binary's --snapshot and --bundle forms) with
// dist/mcp-server.cjs.gz (a SEA asset).
import { build, transform } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePacks } from "./packs.mjs";
import { copyWasmBesideGlue, embedWasm, writeWasmAsset } from "./wasm-asset.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// No zod at run time: the models' validators are generated from the zod models here
// (src/model/codegen.ts) and take the place of src/model/validators.ts in both bundles.
const generator = await build({
  stdin: {
    contents: 'import { generateValidators } from "./src/model/codegen.ts";\nimport { MODELS } from "./src/model/kinds.ts";\nexport default generateValidators(MODELS);\n',
    resolveDir: ".",
    loader: "ts",
    sourcefile: "generate-validators.ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "warning",
});
const validators = (await import(`data:text/javascript;base64,${Buffer.from(generator.outputFiles[0].text).toString("base64")}`)).default;
const generatedValidators = {
  name: "generated-validators",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]model[\\/]validators\.ts$/ }, () => ({ contents: validators, loader: "js" }));
  },
};

const version = process.env.PTAH_VERSION ?? `v${pkg.version}`;
const common = {
  entryPoints: { "kubectl-ptah": "src/main.ts" },
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  define: { PTAH_VERSION: JSON.stringify(version) },
  plugins: [generatedValidators],
  logLevel: "warning",
};

// Earlier layouts (the ES-module tree before the CommonJS one) must not linger beside the new one.
for (const old of ["dist/kubectl-ptah.mjs", "dist/chunks", "dist/meta.esm.json"]) rmSync(old, { recursive: true, force: true });

// esbuild splits only ES modules: split as ESM (in memory), then turn each file into CommonJS,
// dynamic import() into require() (vm.Script, which the loader compiles with a code cache, runs
// scripts, not modules). The chunk graph, and so what each command loads, stays esbuild's.
// main.ts asks node:v8 whether a startup snapshot is being built: only the single binary's build
// (dist/kubectl-ptah.cjs) ever is, and loading node:v8 costs the npm bin ~3.5 ms of every start.
const noSnapshot = {
  name: "no-snapshot",
  setup(b) {
    b.onResolve({ filter: /^node:v8$/ }, (args) => (/[\\/]src[\\/]main\.ts$/.test(args.importer) ? { path: "node:v8", namespace: "no-snapshot" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "no-snapshot" }, () => ({ contents: "export const startupSnapshot = undefined;", loader: "js" }));
  },
};
// The process guard (src/cli/process-guard.ts) is an entry of its own: the loader (dist/start.cjs)
// loads and installs it before the bundle's entry, and main.ts's import of it is the same module.
const EMBEDDED = fileURLToPath(new URL("../src/cli/embedded.ts", import.meta.url));
const split = await build({
  ...common,
  entryPoints: { ...common.entryPoints, "process-guard": "src/cli/process-guard.ts" },
  // The single binary runs this tree too (dist/sea-start.cjs): there the parser's bytes come
  // from its gzipped asset, not from the file beside the chunk (krew/wasm-asset.mjs).
  plugins: [...common.plugins, noSnapshot, embedWasm(EMBEDDED, { onlyInSea: true })],
  format: "esm",
  metafile: true,
  splitting: true,
  write: false,
  outdir: "dist/npm",
  outExtension: { ".js": ".cjs" },
  chunkNames: "chunks/[name]-[hash]",
});
rmSync("dist/npm", { recursive: true, force: true });
for (const file of split.outputFiles) {
  const cjs = await transform(file.text, { format: "cjs", loader: "js", minify: true, legalComments: "none", supported: { "dynamic-import": false }, logLevel: "error" });
  if (cjs.code.includes("import.meta")) throw new Error(`${path.relative(".", file.path)}: import.meta has no meaning in the CommonJS tree`);
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, cjs.code);
}
// What each output holds (test/distribution/fast-start.test.ts finds the chunks that only network
// commands may load); not shipped.
writeFileSync("dist/meta.npm.json", JSON.stringify(split.metafile));
// PostgreSQL's parser beside the chunk that loads it (krew/wasm-asset.mjs).
copyWasmBesideGlue(split.metafile);
// The files each start loads together, as one script each (krew/packs.mjs).
writePacks("dist/npm", split.metafile);

await build({
  ...common,
  entryPoints: undefined,
  stdin: {
    contents:
      'import { startFromCodeCache } from "./src/cli/code-cache.ts";\nconst { join } = require("node:path");\nstartFromCodeCache(join(__dirname, "npm", "kubectl-ptah.cjs"), join(__dirname, "npm", "process-guard.cjs"));\n',
    resolveDir: ".",
    loader: "ts",
    sourcefile: "start.ts",
  },
  format: "cjs",
  outfile: "dist/start.cjs",
});
// The single binary's main script: the same loader, reading the npm tree from the binary's SEA
// assets (krew/sea.mjs lists every file of dist/npm/ as one).
await build({
  ...common,
  entryPoints: undefined,
  stdin: { contents: 'import { startFromSeaAssets } from "./src/cli/code-cache.ts";\nstartFromSeaAssets();\n', resolveDir: ".", loader: "ts", sourcefile: "sea-start.ts" },
  format: "cjs",
  outfile: "dist/sea-start.cjs",
});

// Optional packages required inside try/catch: absent in the npm install too, so behaviour is
// the same; in a SEA a real require() of them would warn on stderr (krew/optional-absent.cjs).
const absent = fileURLToPath(new URL("./optional-absent.cjs", import.meta.url));
const OPTIONAL = ["supports-color", "bufferutil", "utf-8-validate", "encoding"];

// `kubectl ptah mcp`'s server (the MCP SDK, zod) is not in the single binary's script: the startup
// snapshot holds that script's whole source, and its ~750 KB there cost every start of the binary
// 4-5 ms of CPU (30 alternating runs, medians: --version 33 -> 37 ms CPU, 36.4 -> 41.3 ms wall;
// explain stale 35 -> 40 ms CPU; as an asset: 33 and 36 ms, the base's within a millisecond).
// It is bundled on its own (dist/mcp-server.cjs.gz, a SEA asset: krew/sea.mjs) and loaded by
// src/cli/embedded.ts's requireEmbedded when `mcp` runs; the npm tree loads it as a lazy chunk.
const MCP_SERVER = "mcp-server.cjs";
const mcpServer = await build({
  ...common,
  entryPoints: { "mcp-server": "src/commands/mcp/mcp-server.ts" },
  format: "cjs",
  write: false,
  outfile: `dist/${MCP_SERVER}`,
});
// Gzipped (750 KB -> 180 KB of the binary and of every download); gunzipped when `mcp` starts.
writeFileSync(`dist/${MCP_SERVER}.gz`, gzipSync(mcpServer.outputFiles[0].contents, { level: 9 }));
const embedMcp = {
  name: "embed-mcp-server",
  setup(b) {
    b.onResolve({ filter: /^\.\/mcp-server\.ts$/ }, (args) =>
      /[\\/]src[\\/]commands[\\/]mcp[\\/]mcp-command\.ts$/.test(args.importer) ? { path: "mcp-server", namespace: "embed-mcp-server" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "embed-mcp-server" }, () => ({
      contents: `import { requireEmbedded } from "./embedded.ts";\nexport const serveMcp = (ctx, extra) => requireEmbedded(${JSON.stringify(`${MCP_SERVER}.gz`)}, __filename).serveMcp(ctx, extra);\n`,
      loader: "js",
      resolveDir: path.dirname(EMBEDDED),
    }));
  },
};

// The lock analyser's WebAssembly: a gzipped SEA asset, and the same file beside the script.
writeWasmAsset("dist");
await build({
  ...common,
  plugins: [...common.plugins, embedMcp, embedWasm(EMBEDDED)],
  format: "cjs",
  alias: Object.fromEntries(OPTIONAL.map((name) => [name, absent])),
  outfile: "dist/kubectl-ptah.cjs",
  // yargs 18 calls createRequire(import.meta.url); a CJS bundle has no import.meta.
  define: { ...common.define, "import.meta.url": "__ptahImportMetaUrl" },
  // Every built-in the bundle requires is handed out by process.getBuiltinModule, which the process
  // guard (src/cli/process-guard.ts) watches: the single binary's own require is Node's internal
  // one, which no hook sees, so a child_process first loaded through it would arrive unpatched.
  banner: {
    js: "require = ((r) => (id) => process.getBuiltinModule(id) ?? r(id))(require);\nconst __ptahImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  },
});
