// Bundles src/main.ts with esbuild: dist/kubectl-ptah.mjs (ESM, split so that only network
// commands load the connection code) and dist/kubectl-ptah.cjs (one CommonJS file, the SEA entry).
import { build } from "esbuild";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const version = process.env.PTAH_VERSION ?? `v${pkg.version}`;
const common = {
  entryPoints: { "kubectl-ptah": "src/main.ts" },
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  define: { PTAH_VERSION: JSON.stringify(version) },
  logLevel: "warning",
};

const esm = await build({
  ...common,
  format: "esm",
  metafile: true,
  splitting: true,
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  // yargs and friends use require() for built-ins in places; give ESM a require.
  banner: { js: "import { createRequire as __ptahCreateRequire } from 'node:module'; const require = __ptahCreateRequire(import.meta.url);" },
});

// What each ESM output holds (test/distribution/fast-start.test.ts finds the chunks that only network
// commands may load); not shipped.
writeFileSync("dist/meta.esm.json", JSON.stringify(esm.metafile));
// Chunks of earlier builds would otherwise pile up in dist/chunks and ship in the npm package.
const outputs = new Set(Object.keys(esm.metafile.outputs).map((p) => path.resolve(p)));
for (const f of readdirSync("dist/chunks")) {
  const file = path.resolve("dist/chunks", f);
  if (!outputs.has(file)) rmSync(file, { force: true });
}

// Optional packages required inside try/catch: absent in the npm install too, so behaviour is
// the same; in a SEA a real require() of them would warn on stderr (krew/optional-absent.cjs).
const absent = fileURLToPath(new URL("./optional-absent.cjs", import.meta.url));
const OPTIONAL = ["supports-color", "bufferutil", "utf-8-validate", "encoding"];

await build({
  ...common,
  format: "cjs",
  alias: Object.fromEntries(OPTIONAL.map((name) => [name, absent])),
  outfile: "dist/kubectl-ptah.cjs",
  // yargs 18 calls createRequire(import.meta.url); a CJS bundle has no import.meta.
  define: { ...common.define, "import.meta.url": "__ptahImportMetaUrl" },
  banner: { js: "const __ptahImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
