// Packs (krew/packs.mjs): which files each start loads together, from esbuild's chunk graph. A
// pack never holds a file its root would not load (only what the root reaches by static requires),
// leaves out what is certainly loaded before it, and the build's packs hold the files' bytes as
// they are. That a pack runs the same files in the same order as the files alone is
// test/distribution/code-cache.test.ts's.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle, REPO } from "../support/npm-bundle.ts";
import { PACK_SUFFIX, packSource, planPacks } from "../../krew/packs.mjs";

type Import = { path: string; kind: string; external?: boolean };
/** A metafile of `graph`: file → its imports, "x" static, "~x" dynamic, "node:x" external. */
function metafile(graph: Record<string, string[]>, sizes: Record<string, number> = {}) {
  const outputs: Record<string, { bytes: number; imports: Import[] }> = {};
  for (const [file, imports] of Object.entries(graph)) {
    outputs[`dist/npm/${file}`] = {
      bytes: sizes[file] ?? 100,
      imports: imports.map((i) =>
        i.startsWith("node:")
          ? { path: i, kind: "import-statement", external: true }
          : i.startsWith("~")
            ? { path: `dist/npm/${i.slice(1)}`, kind: "dynamic-import" }
            : { path: `dist/npm/${i}`, kind: "import-statement" },
      ),
    };
  }
  return { outputs };
}
const plan = (graph: Record<string, string[]>, sizes?: Record<string, number>) => Object.fromEntries(planPacks(metafile(graph, sizes)));

describe("which files a pack holds", () => {
  it("the guard, then the entry less the guard's, then each dynamic root less what every way to it has loaded", () => {
    expect(
      plan({
        "process-guard.cjs": ["g.cjs", "node:fs"],
        "g.cjs": [],
        "kubectl-ptah.cjs": ["g.cjs", "e.cjs", "~run.cjs", "~other.cjs"],
        "e.cjs": [],
        "run.cjs": ["e.cjs", "r.cjs", "~cmd.cjs", "~other.cjs"],
        "r.cjs": [],
        "cmd.cjs": ["r.cjs", "c.cjs", "s.cjs"],
        "c.cjs": [],
        "s.cjs": [],
        // Reached from run and from the entry itself: only what both ways have loaded is left out.
        "other.cjs": ["r.cjs", "e.cjs", "o.cjs"],
        "o.cjs": [],
      }),
    ).toEqual({
      "process-guard.cjs": ["process-guard.cjs", "g.cjs"],
      "kubectl-ptah.cjs": ["kubectl-ptah.cjs", "e.cjs"],
      "run.cjs": ["run.cjs", "r.cjs"],
      "cmd.cjs": ["cmd.cjs", "c.cjs", "s.cjs"],
      "other.cjs": ["other.cjs", "r.cjs", "o.cjs"],
    });
  });

  it("a dynamic root reached two ways keeps what only one of them loads", () => {
    const packs = plan({
      "process-guard.cjs": [],
      "kubectl-ptah.cjs": ["~a.cjs", "~b.cjs"],
      "a.cjs": ["x.cjs", "~t.cjs"],
      "b.cjs": ["y.cjs", "~t.cjs"],
      "x.cjs": [],
      "y.cjs": [],
      "t.cjs": ["x.cjs", "y.cjs", "z.cjs"],
      "z.cjs": [],
    });
    expect(packs["t.cjs"]).toEqual(["t.cjs", "x.cjs", "y.cjs", "z.cjs"]);
  });

  it("no pack of one file and none holding a file over 16 KB: such a root loads alone, its small files from its pack", () => {
    const packs = plan(
      {
        "process-guard.cjs": [],
        "kubectl-ptah.cjs": ["~lone.cjs", "~big.cjs", "~withbig.cjs", "~bigone.cjs"],
        "lone.cjs": [],
        "big.cjs": ["small.cjs", "other.cjs"],
        "small.cjs": [],
        "other.cjs": [],
        "withbig.cjs": ["big.cjs", "small.cjs"],
        "bigone.cjs": ["small.cjs"],
      },
      { "big.cjs": 16 * 1024 + 1, "bigone.cjs": 16 * 1024 + 1, "small.cjs": 16 * 1024 },
    );
    expect(packs).toEqual({ "big.cjs": ["small.cjs", "other.cjs"], "withbig.cjs": ["withbig.cjs", "small.cjs", "other.cjs"] });
  });

  it("refuses a graph without the guard or the entry", () => {
    expect(() => plan({ "kubectl-ptah.cjs": [] })).toThrow(/process-guard\.cjs is not an output/u);
  });
});

describe("the build's packs", () => {
  beforeAll(() => ensureNpmBundle());
  const npm = path.join(REPO, "dist", "npm");

  it("are the plan's, each holding its files' bytes as built", () => {
    const meta = JSON.parse(fs.readFileSync(path.join(REPO, "dist", "meta.npm.json"), "utf8"));
    const packs = planPacks(meta);
    const onDisk = fs
      .readdirSync(npm, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(PACK_SUFFIX))
      .sort();
    expect(onDisk).toEqual([...packs.keys()].map((root) => root + PACK_SUFFIX).sort());
    expect(packs.size).toBeGreaterThan(10);
    for (const [root, members] of packs) expect(fs.readFileSync(path.join(npm, root + PACK_SUFFIX), "utf8") === packSource(npm, root, members), root).toBe(true);
  });

  it("the entry's pack is the entry and what it requires, less the guard's", () => {
    const meta = JSON.parse(fs.readFileSync(path.join(REPO, "dist", "meta.npm.json"), "utf8"));
    const guard = planPacks(meta).get("process-guard.cjs")!;
    const entry = planPacks(meta).get("kubectl-ptah.cjs")!;
    expect(guard[0]).toBe("process-guard.cjs");
    expect(entry[0]).toBe("kubectl-ptah.cjs");
    expect(entry.filter((f) => guard.includes(f))).toEqual([]);
  });
});
