// The README and the pages of docs/ point at tests and files as their proof: every path they name
// in a code span (`test/…`, `src/…`, `lab/…`, …) must exist, every relative link must lead to a
// file, and a link's #anchor to a heading of that file (as GitHub makes anchors of headings). A
// page that cites a test which was moved or deleted fails here, not in a reader's hands. A pattern
// (`test/e2e/*.e2e.test.ts`, `test/commands/<verb>/`) must match at least one file: a folder a page
// sends the reader to for its tests is checked like a file.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PATH, namedPatterns, patternRegex } from "../support/doc-paths.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");

function pages(): string[] {
  const out = ["README.md"];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith(".md")) out.push(rel);
    }
  };
  walk("docs");
  out.push("test/README.md");
  return out.filter((p) => fs.existsSync(path.join(REPO, p)));
}

/** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces to -. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/gu, "-");
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/```[\s\S]*?```/gu, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gmu)].map((m) => slug(m[1]!)));
}

const ROOTS = ["test/", "src/", "lab/", "krew/", "docs/", "rbac/", "plugin-manifest/", ".ci/", "bin/"];

/** The paths a code span names, with `{a,b}` expanded; patterns and generated folders are not among them. */
function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH)) {
    const p = m[1]!.replace(/[.,]$/u, "");
    if (/[*]|<|\bdist\/|\.cache\//u.test(p)) continue;
    const brace = /\{([^}]*)\}/u.exec(p);
    if (brace) for (const alt of brace[1]!.split(",")) out.push(p.replace(brace[0], alt));
    else out.push(p);
  }
  return out.filter((p) => ROOTS.some((r) => p.startsWith(r)));
}

function repoFiles(dir = ""): string[] {
  return fs.readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) return ["node_modules", ".git", "dist", ".cache", ".lab"].includes(e.name) ? [] : repoFiles(rel);
    return [rel];
  });
}

describe("the README's and docs' references", () => {
  const files = pages();

  it.each(files)("%s: every path it names in a code span exists", (page) => {
    const text = fs.readFileSync(path.join(REPO, page), "utf8");
    const missing = namedPaths(text).filter((p) => !fs.existsSync(path.join(REPO, p)));
    expect(missing, `${page} names paths that do not exist`).toEqual([]);
  });

  it.each(files)("%s: every pattern it names matches a file", (page) => {
    const all = repoFiles();
    const text = fs.readFileSync(path.join(REPO, page), "utf8");
    const empty = namedPatterns(text).filter((p) => !all.some((f) => patternRegex(p).test(f)));
    expect(empty, `${page} names patterns that match no file`).toEqual([]);
  });

  // A page says what is true now; an issue's number sends the reader to a tracker they may not have.
  it.each(files)("%s: names no issue number", (page) => {
    const text = fs.readFileSync(path.join(REPO, page), "utf8");
    expect([...text.matchAll(/(?:#[0-9]{2,}\b|\b[Ii]ssues? [0-9]+\b)[^\n]{0,40}/gu)].map((m) => m[0])).toEqual([]);
  });

  it("reads a pattern as a page means it", () => {
    expect(patternRegex("test/e2e/*.e2e.test.ts").test("test/e2e/faults.e2e.test.ts")).toBe(true);
    expect(patternRegex("test/e2e/*.e2e.test.ts").test("test/e2e/sub/faults.e2e.test.ts")).toBe(false);
    expect(patternRegex("test/**/*.test.ts").test("test/a/b/c.test.ts")).toBe(true);
    expect(patternRegex("test/**/*.test.ts").test("test/c.test.ts")).toBe(true);
    expect(patternRegex("test/commands/<verb>/").test("test/commands/status/status.test.ts")).toBe(true);
    expect(patternRegex("test/properties/hostile-input-*.test.ts").test("test/guarantees/hostile/hostile-input-plans.test.ts")).toBe(false);
  });

  it.each(files)("%s: every relative link leads to a file and a heading", (page) => {
    const text = fs.readFileSync(path.join(REPO, page), "utf8").replace(/```[\s\S]*?```/gu, "");
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/gu)) {
      const link = m[1]!;
      if (/^[a-z]+:/u.test(link)) continue;
      const [target, anchor] = link.split("#") as [string, string | undefined];
      const file = target === "" ? path.join(REPO, page) : path.resolve(path.dirname(path.join(REPO, page)), target);
      if (!fs.existsSync(file)) broken.push(`${link}: no such file`);
      else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken, `${page} has broken links`).toEqual([]);
  });

  it("slugs headings as GitHub does", () => {
    expect(slug("What `plan` and `approve` verify")).toBe("what-plan-and-approve-verify");
    expect(slug("For AI assistants: `kubectl ptah mcp`")).toBe("for-ai-assistants-kubectl-ptah-mcp");
    expect(slug("Fleets and k9s")).toBe("fleets-and-k9s");
  });
});
