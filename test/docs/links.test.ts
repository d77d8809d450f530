// The README and the pages of docs/ point at tests and files as their proof: every path they name
// in a code span (`test/…`, `src/…`, `lab/…`, …) must exist, every relative link must lead to a
// file, and a link's #anchor to a heading of that file (as GitHub makes anchors of headings). A
// page that cites a test which was moved or deleted fails here, not in a reader's hands.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
const PATH = /`((?:test|src|lab|krew|docs|rbac|plugin-manifest|\.ci|bin)\/[A-Za-z0-9_./{},*-]+)`/gu;

/** The paths a code span names, with `{a,b}` expanded; globs and generated folders are not checked. */
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

describe("the README's and docs' references", () => {
  const files = pages();

  it.each(files)("%s: every path it names in a code span exists", (page) => {
    const text = fs.readFileSync(path.join(REPO, page), "utf8");
    const missing = namedPaths(text).filter((p) => !fs.existsSync(path.join(REPO, p)));
    expect(missing, `${page} names paths that do not exist`).toEqual([]);
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
