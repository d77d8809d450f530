// Bundles src/main.ts with esbuild: dist/kubectl-ptah.mjs (ESM, split so that only network
// commands load the connection code) and dist/kubectl-ptah.cjs (one CommonJS file, the SEA entry).
import { build } from "esbuild";
import { readFileSync } from "node:fs";

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

await build({
  ...common,
  format: "esm",
  splitting: true,
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  // yargs and friends use require() for built-ins in places; give ESM a require.
  banner: { js: "import { createRequire as __ptahCreateRequire } from 'node:module'; const require = __ptahCreateRequire(import.meta.url);" },
});

await build({
  ...common,
  format: "cjs",
  outfile: "dist/kubectl-ptah.cjs",
  // yargs 18 calls createRequire(import.meta.url); a CJS bundle has no import.meta.
  define: { ...common.define, "import.meta.url": "__ptahImportMetaUrl" },
  banner: { js: "const __ptahImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
