// Packs: the files of dist/npm/ that a start loads together, as one script beside the first of them.
// Each file the loader (src/cli/code-cache.ts) reads and compiles on its own costs a fixed part of a
// start (two reads, a byte comparison, a vm.Script): `explain stale` loads 20 files, and compiling
// them from their code caches one by one took ~5.5 ms against ~3 ms as one script (15 alternating
// runs). A pack changes nothing in what runs: it holds the same bytes as its files, each under its
// file's name, and the loader runs a member exactly once, as it would run the file. Files stay
// beside the packs: a file no pack holds, or one the analysis below did not foresee, is read alone.
//
// The chunk graph is esbuild's (its metafile). A pack's root is an entry of the bin or the target
// of a dynamic import; its members are the root and what it reaches through static requires, less
// what is certainly loaded before it (the guard, then the entry, then every root on each way a
// dynamic import reaches it) and less files over PACK_MEMBER_LIMIT, which load alone.
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const PACK_SUFFIX = ".pack";
// A file over this is left to load alone: the fixed part of loading a file is small beside its own
// cost, and packing it would copy it into every pack that reaches it (with 256 KB the packs held
// 4.2 MB, more than the files themselves; with 16 KB, 1.2 MB, and explain stale started as fast:
// docs/performance.md).
const PACK_MEMBER_LIMIT = 16 * 1024;
// The CommonJS wrapper the loader puts round a file, on one line (src/cli/code-cache.ts).
const HEAD = "(function (exports, require, module, __filename, __dirname) {";
const TAIL = "\n})";

/**
 * Which files each pack holds: a map from each root (its path under the tree, `outdir` in the
 * metafile) to its members, the root first unless it is over the limit (it then loads alone,
 * beside its pack). `metafile` is esbuild's for the split build; `guard` and `entry` are the two
 * files the loader starts with, in that order.
 */
export function planPacks(metafile, outdir = "dist/npm", guard = "process-guard.cjs", entry = "kubectl-ptah.cjs") {
  const prefix = `${outdir.replace(/\/+$/u, "")}/`;
  const name = (p) => (p.startsWith(prefix) ? p.slice(prefix.length) : undefined);
  const statics = new Map();
  const dynamics = new Map();
  for (const [output, info] of Object.entries(metafile.outputs)) {
    const file = name(output);
    if (file === undefined || !file.endsWith(".cjs")) continue;
    const imports = info.imports.filter((i) => !i.external && name(i.path)?.endsWith(".cjs"));
    statics.set(
      file,
      imports.filter((i) => i.kind !== "dynamic-import").map((i) => name(i.path)),
    );
    dynamics.set(
      file,
      imports.filter((i) => i.kind === "dynamic-import").map((i) => name(i.path)),
    );
  }
  for (const start of [guard, entry]) if (!statics.has(start)) throw new Error(`packs: ${start} is not an output of the build`);
  const closure = (root) => {
    const seen = new Set([root]);
    for (const file of seen) for (const next of statics.get(file) ?? []) seen.add(next);
    return seen;
  };
  const roots = [...new Set([guard, entry, ...[...dynamics.values()].flat()])];
  const closures = new Map(roots.map((r) => [r, closure(r)]));
  // What is certainly loaded before each root: a greatest fixpoint, every dynamic root starting at
  // "everything" and narrowed to what each of its importers' roots has loaded.
  const all = new Set(statics.keys());
  const before = new Map(roots.map((r) => [r, r === guard ? new Set() : r === entry ? closures.get(guard) : all]));
  for (let changed = true; changed;) {
    changed = false;
    for (const root of roots) {
      if (root === guard || root === entry) continue;
      let known;
      for (const [importer, targets] of dynamics) {
        if (!targets.includes(root)) continue;
        for (const holder of roots) {
          if (!closures.get(holder).has(importer)) continue;
          const loaded = new Set([...closures.get(holder), ...before.get(holder)]);
          known = known === undefined ? loaded : new Set([...known].filter((f) => loaded.has(f)));
        }
      }
      known ??= new Set();
      if (known.size !== before.get(root).size) {
        before.set(root, known);
        changed = true;
      }
    }
  }
  const size = (file) => metafile.outputs[prefix + file]?.bytes ?? Infinity;
  const packs = new Map();
  for (const root of roots) {
    // A root over the limit loads alone too; its pack then holds only the small files it reaches.
    const members = [...closures.get(root)].filter((f) => !before.get(root).has(f) && size(f) <= PACK_MEMBER_LIMIT);
    if (members.length > 1) packs.set(root, members);
  }
  return packs;
}

/** The pack's source: an array of [name relative to the pack's folder, the file wrapped as the loader wraps it], flat. */
export function packSource(npmDir, root, members) {
  const folder = path.dirname(path.join(npmDir, root));
  const parts = members.map((m) => {
    const source = readFileSync(path.join(npmDir, m), "utf8");
    return `${JSON.stringify(path.relative(folder, path.join(npmDir, m)).split(path.sep).join("/"))},${HEAD}${source}${TAIL}`;
  });
  return `[\n${parts.join(",\n")}\n]`;
}

/** Writes every pack of `npmDir` (old ones removed), from the files as they are now. */
export function writePacks(npmDir, metafile, outdir = "dist/npm") {
  removePacks(npmDir);
  const packs = planPacks(metafile, outdir);
  for (const [root, members] of packs) writeFileSync(path.join(npmDir, root + PACK_SUFFIX), packSource(npmDir, root, members));
  return packs;
}

/** Removes the packs of `npmDir`: the loader then reads every file alone. */
export function removePacks(npmDir) {
  for (const entry of readdirSync(npmDir, { recursive: true })) if (String(entry).endsWith(PACK_SUFFIX)) rmSync(path.join(npmDir, String(entry)));
}
