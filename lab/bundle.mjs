// The one esbuild step of the lab's tools: TypeScript to a single ESM file for Node 20. Used by
// lab/lab.mjs (the lab itself, lab/*.ts), by the lab's simulator start (test/sim/main.ts) and by
// lab/demo.mjs (the scenario runner). Plain JS: it runs before anything is bundled.
//
// cachedBundle() keys the bundle by a digest of its inputs' contents (esbuild's own list of them,
// kept beside the bundle): when nothing changed, it hashes those files and returns the bundle
// without loading esbuild.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/** Bundles `entry` into `outfile`; `options` are passed to esbuild (e.g. packages, metafile, absWorkingDir). */
export async function bundleForNode(entry, outfile, options = {}) {
  const esbuild = await import("esbuild");
  return esbuild.build({ entryPoints: [entry], outfile, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "error", ...options });
}

/** sha256 over this file and each input (path relative to `root`, then content); undefined when one is missing. */
function digestOf(root, inputs) {
  const h = createHash("sha256").update(fs.readFileSync(SELF)).update("\0");
  for (const rel of inputs) {
    try {
      h.update(`${rel}\0`)
        .update(fs.readFileSync(path.join(root, rel)))
        .update("\0");
    } catch {
      return undefined;
    }
  }
  return h.digest("hex");
}

/**
 * The path of a bundle of `entry` (npm packages left external) in `dir`, named `<name>-<digest>.mjs`,
 * built only when an input changed since the last build. `root` is the folder input paths are
 * relative to (the repository). Bundles of other digests older than a minute are removed.
 */
export async function cachedBundle({ entry, dir, name, root }) {
  const manifestFile = path.join(dir, `${name}.inputs.json`);
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    const bundle = path.join(dir, manifest.bundle);
    if (digestOf(root, manifest.inputs) === manifest.digest && fs.existsSync(bundle)) return bundle;
  } catch {
    /* no usable manifest: build */
  }
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `${name}.${process.pid}.tmp.mjs`);
  const result = await bundleForNode(entry, tmp, { absWorkingDir: root, packages: "external", metafile: true });
  const inputs = Object.keys(result.metafile.inputs).sort();
  const digest = digestOf(root, inputs);
  const file = `${name}-${digest.slice(0, 16)}.mjs`;
  fs.renameSync(tmp, path.join(dir, file));
  const manifestTmp = `${manifestFile}.${process.pid}.tmp`;
  fs.writeFileSync(manifestTmp, `${JSON.stringify({ digest, bundle: file, inputs }, null, 2)}\n`);
  fs.renameSync(manifestTmp, manifestFile);
  for (const old of fs.readdirSync(dir)) {
    const f = path.join(dir, old);
    if (old !== file && old.startsWith(`${name}-`) && old.endsWith(".mjs") && Date.now() - fs.statSync(f).mtimeMs > 60_000) fs.rmSync(f, { force: true });
  }
  return path.join(dir, file);
}
