// Every file under test/ is a test, a golden, a fixture or a support module, and nothing else: a
// profiling script or a scratch file left behind fails here. The kinds, by folder and suffix:
// - a test: `*.test.ts` (e2e and property tests included), each run by a project of vitest.config.ts;
// - a golden: under test/golden/ (test/goldens.test.ts proves each is read);
// - an index: a README.md;
// - a fixture whose folder is read whole: a scenario, test/scenarios/*.yaml; a recorded plan,
//   test/plan/vectors/*.json; a Go oracle, test/oracle/<name>/{main.go,go.mod};
// - a support module or a data file (.ts, .mts, .mjs, .cjs, .d.mts, .sh, .json, .yaml) that another
//   file of the repository names: an import, a script of package.json, a config, .ci/, or a page of
//   docs that gives the command running it (`node test/bench/diff-sizes.mjs 3`, a measurement run
//   by hand) — a page merely mentioning a file does not count. A name with `.tmp.` is scratch
//   whoever names it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { namedPatterns, patternRegex } from "./support/doc-paths.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", ".git", "dist", ".cache", ".lab", "coverage", "bench-results", ".stryker-tmp", "reports", "site"]);

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : walk(rel);
    return [rel];
  });
}

const SUPPORT = /\.(?:ts|mts|mjs|cjs|sh|json|yaml)$/u;

/** The files a name in `texts` (path → content) reaches: `stem.ext` for a module or data file. */
function namedBy(file: string, texts: ReadonlyMap<string, string>): boolean {
  const base = file.split("/").pop()!;
  // A declaration file types the module of its stem: it is named when that module is.
  if (base.endsWith(".d.mts")) return fs.existsSync(path.join(ROOT, file.replace(/\.d\.mts$/u, ".mjs")));
  const stem = base.replace(/\.[^.]+$/u, "").replace(/[.]/gu, "\\.");
  const name = new RegExp(`(?:^|[^\\w.-])${stem}\\.(?:ts|js|mjs|cjs|mts|json|sh|yaml)\\b`, "u");
  const command = new RegExp(`\\bnode ${file.replace(/[.]/gu, "\\.")}\\b`, "u");
  for (const [other, text] of texts) if (other !== file && (other.endsWith(".md") ? command : name).test(text)) return true;
  return false;
}

/** What a file under test/ is, or why it is none of the kinds. */
export function classify(file: string, texts: ReadonlyMap<string, string>): { kind: string } | { problem: string } {
  if (file.startsWith("test/golden/")) return { kind: "golden" };
  if (/\.tmp\./u.test(file)) return { problem: `${file}: a scratch file (.tmp.)` };
  if (file.endsWith(".test.ts")) return { kind: "test" };
  if (file.endsWith("/README.md")) return { kind: "index" };
  if (/^test\/scenarios\/[^/]+\.yaml$/u.test(file) || /^test\/plan\/vectors\/[^/]+\.json$/u.test(file)) return { kind: "fixture" };
  if (/^test\/oracle\/[^/]+\/(?:main\.go|go\.mod)$/u.test(file)) return { kind: "fixture" };
  if (SUPPORT.test(file))
    return namedBy(file, texts) ? { kind: "support" } : { problem: `${file}: no other file of the repository names it (not a test, a fixture or a support module)` };
  return { problem: `${file}: not a test, a golden, a fixture or a support module` };
}

/** The repository's files that can name a support module: code, configs and pages (goldens are output). */
function namingTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const f of walk("")) {
    if (f.startsWith("test/golden/") || !/\.(?:ts|mts|mjs|cjs|js|json|yaml|yml|sh|md)$|(?:^|\/)run$/u.test(f)) continue;
    const full = path.join(ROOT, f);
    if (fs.statSync(full).size > 4_000_000) continue;
    texts.set(f, fs.readFileSync(full, "utf8"));
  }
  return texts;
}

describe("files under test/", () => {
  const texts = namingTexts();

  it("are each a test, a golden, a fixture or a support module", () => {
    const files = walk("test");
    expect(files.length).toBeGreaterThan(300);
    const problems = files.flatMap((f) => {
      const c = classify(f, texts);
      return "problem" in c ? [c.problem] : [];
    });
    expect(problems).toEqual([]);
  });

  // test/README.md is where a reader looks for the proof of a promise: each test of test/guarantees/
  // is named there, by its path or a pattern (test/docs/links.test.ts checks each leads to a file).
  it("has each test of test/guarantees/ named in test/README.md", () => {
    const readme = fs.readFileSync(path.join(ROOT, "test", "README.md"), "utf8");
    // The tiers' table's `test/**/*.test.ts` names every test and so none: a folder's pattern counts.
    const patterns = namedPatterns(readme)
      .filter((p) => !p.includes("**"))
      .map(patternRegex);
    const unnamed = walk("test/guarantees").filter((f) => f.endsWith(".test.ts") && !readme.includes(`\`${f}\``) && !patterns.some((p) => p.test(f)));
    expect(unnamed).toEqual([]);
  });

  it("names each kind of stray file, on made-up files", () => {
    const texts = new Map([["test/a.test.ts", 'import { x } from "./support/used.ts";']]);
    expect(classify("test/support/used.ts", texts)).toEqual({ kind: "support" });
    expect(classify("test/lockprof.tmp.ts", texts)).toEqual({ problem: "test/lockprof.tmp.ts: a scratch file (.tmp.)" });
    expect(classify("test/support/unused.ts", texts)).toMatchObject({ problem: expect.stringContaining("no other file of the repository names it") as unknown });
    expect(classify("test/notes.txt", texts)).toMatchObject({ problem: expect.stringContaining("not a test, a golden") as unknown });
    expect(classify("test/golden/x/anything.txt", texts)).toEqual({ kind: "golden" });
    expect(classify("test/scenarios/new.yaml", texts)).toEqual({ kind: "fixture" });
    // A page of docs names a module by the command that runs it, not by mentioning it.
    const pages = new Map([["docs/x.md", "Measured with `node test/bench/run-me.mjs 3`; see also `test/bench/mentioned.mjs`."]]);
    expect(classify("test/bench/run-me.mjs", pages)).toEqual({ kind: "support" });
    expect(classify("test/bench/mentioned.mjs", pages)).toMatchObject({ problem: expect.stringContaining("no other file") as unknown });
  });
});
