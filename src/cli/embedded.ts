// The one-file binary's embedded module (krew/build-binary.mjs --snapshot or --bundle; the default
// binary runs the npm tree, whose own chunk holds it): `kubectl ptah mcp`'s server (the MCP SDK and zod, ~750 KB),
// carried beside the startup snapshot as a gzipped SEA asset (krew/bundle.mjs, krew/sea.mjs), since
// in the snapshot's one script its source would make every other command's start pay for it; and
// its embedded bytes: the lock analyser's WebAssembly parser, another gzipped asset.
// Nothing is loaded at module load: the snapshot holds this file, and node:vm, node:sea and
// node:zlib come through process.getBuiltinModule only when `mcp` runs.
import { readFileSync } from "node:fs";
import path from "node:path";

interface LoadedModule {
  exports: unknown;
}

const embedded = new Map<string, unknown>();

/**
 * The bytes of the asset `asset` (gunzipped when its name ends in .gz): in a SEA the binary's
 * own asset, else the file of that name beside `bundleFile`. The lock analyser's WebAssembly
 * (PostgreSQL's parser, krew/wasm-asset.mjs) is read through here in the single binary.
 */
export function embeddedAsset(asset: string, bundleFile: string): Uint8Array {
  const sea = process.getBuiltinModule("node:sea");
  const stored = sea.isSea() ? new Uint8Array(sea.getAsset(asset)) : readFileSync(path.join(path.dirname(bundleFile), asset));
  return asset.endsWith(".gz") ? new Uint8Array(process.getBuiltinModule("node:zlib").gunzipSync(stored)) : stored;
}

/**
 * Runs the asset `asset` (gzipped CommonJS, bundled whole: Node's built-ins are its only requires)
 * and returns its exports, once. Outside a SEA (node running dist/kubectl-ptah.cjs), the file of
 * that name beside `bundleFile`.
 */
export function requireEmbedded(asset: string, bundleFile: string): unknown {
  if (embedded.has(asset)) return embedded.get(asset);
  const sea = process.getBuiltinModule("node:sea");
  const gzipped = sea.isSea() ? new Uint8Array(sea.getAsset(asset)) : readFileSync(path.join(path.dirname(bundleFile), asset));
  const source = process.getBuiltinModule("node:zlib").gunzipSync(gzipped).toString("utf8");
  const module: LoadedModule = { exports: {} };
  const require = (id: string): unknown => {
    const builtin = process.getBuiltinModule(id);
    if (builtin === undefined) throw new Error(`${asset} requires ${id}, which is not a Node built-in`);
    return builtin;
  };
  const { Script } = process.getBuiltinModule("node:vm");
  const wrapper = new Script(`(function (exports, require, module) {${source}\n})`, { filename: asset }).runInThisContext() as (e: unknown, r: unknown, m: LoadedModule) => void;
  wrapper.call(module.exports, module.exports, require, module);
  embedded.set(asset, module.exports);
  return module.exports;
}
