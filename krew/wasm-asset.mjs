// PostgreSQL's parser for the lock analyser (src/locks/parser.ts): libpg-query's Emscripten glue
// reads libpg-query.wasm from its own folder (`__dirname`) when it is first imported.
//   The npm tree (dist/npm/): the .wasm is copied beside the chunk that holds the glue, so the
//     glue finds it as in node_modules; only a command that analyses locks loads that chunk. The
//     single binary runs this tree from its SEA assets: there the glue takes the asset's bytes, as below.
//   The one-file script (dist/kubectl-ptah.cjs, the binary's --snapshot and --bundle forms): a SEA has no folder of its own files, so
//     the glue is handed the module built from the bytes (Emscripten's `instantiateWasm`) from a gzipped SEA asset
//     (src/cli/embedded.ts embeddedAsset; krew/sea.mjs lists it), or from the file beside the
//     script when node runs it outside a SEA. Not in the startup snapshot: read on first use.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gzipSync } from "node:zlib";

const require = createRequire(import.meta.url);
export const WASM_FILE = "libpg-query.wasm";
export const WASM_ASSET = `${WASM_FILE}.gz`;
const GLUE = /[\\/]node_modules[\\/]libpg-query[\\/]wasm[\\/]libpg-query\.js$/;

/** The .wasm libpg-query ships. */
export const wasmSource = () => path.join(path.dirname(require.resolve("libpg-query")), WASM_FILE);

/** Copies the .wasm beside each output of an esbuild metafile that holds the glue; returns those folders. */
export function copyWasmBesideGlue(metafile, root = ".") {
  const folders = new Set();
  const input = /(^|[\\/])node_modules[\\/]libpg-query[\\/]wasm[\\/]libpg-query\.js$/u;
  for (const [out, o] of Object.entries(metafile.outputs)) if (Object.keys(o.inputs).some((i) => input.test(i))) folders.add(path.dirname(path.resolve(root, out)));
  for (const dir of folders) copyFileSync(wasmSource(), path.join(dir, WASM_FILE));
  return [...folders];
}

/** Writes the gzipped .wasm (the SEA asset) into `dir`. */
export function writeWasmAsset(dir) {
  writeFileSync(path.join(dir, WASM_ASSET), gzipSync(readFileSync(wasmSource()), { level: 9 }));
}

/**
 * An esbuild plugin for a single-file bundle: the glue's factory instantiates the asset's bytes,
 * so it never looks for a file. `embedded` is src/cli/embedded.ts (absolute).
 */
export function embedWasm(embedded, { onlyInSea = false } = {}) {
  // onlyInSea: the npm tree's glue, which the single binary also runs from its assets (src/cli/
  // code-cache.ts startFromSeaAssets): the hook only in a SEA, the file beside the chunk otherwise.
  const when = onlyInSea ? 'if (process.getBuiltinModule("node:sea").isSea())' : "";
  return {
    name: "embed-libpg-query-wasm",
    setup(b) {
      b.onLoad({ filter: GLUE }, (args) => ({
        // This Emscripten build reads no `wasmBinary` option; `instantiateWasm` is its hook for
        // instantiating the module from bytes the caller has.
        contents: `${readFileSync(args.path, "utf8")}
;${when} { const glue = module.exports; const { embeddedAsset } = require(${JSON.stringify(embedded)});
  const instantiateWasm = (imports, receive) => { WebAssembly.instantiate(embeddedAsset(${JSON.stringify(WASM_ASSET)}, __filename), imports).then((r) => receive(r.instance)); return {}; };
  module.exports = (arg = {}) => glue({ ...arg, instantiateWasm }); module.exports.default = module.exports; }\n`,
        loader: "js",
      }));
    },
  };
}
