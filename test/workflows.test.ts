// Every repository path a GitHub workflow names exists (a renamed test or script otherwise
// breaks only the next tagged release). Paths under dist/ are outputs and are not checked.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORKFLOWS = path.join(ROOT, ".github", "workflows");
const TOP = fs.readdirSync(ROOT).filter((f) => f !== "dist" && f !== "node_modules" && fs.statSync(path.join(ROOT, f)).isDirectory());

/** Repository paths in a workflow's text: a top-level folder of this repository, then a path. */
export function pathsIn(text: string): string[] {
  const folders = TOP.map((f) => f.replace(/[.]/gu, "\\.")).join("|");
  const found = text.matchAll(new RegExp(`(?<![\\w./$-])((?:${folders})/[\\w./-]*[\\w-])`, "gu"));
  return [...new Set([...found].map((m) => m[1]!))];
}

const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/u.test(f));

describe("workflows", () => {
  it("finds the paths a workflow names", () => {
    expect(pathsIn("run: npx vitest run test/distribution/bin-parity.test.ts && node krew/smoke.mjs dist/bin/x && bash .ci/release-check.sh")).toEqual([
      "test/distribution/bin-parity.test.ts",
      "krew/smoke.mjs",
      ".ci/release-check.sh",
    ]);
  });

  it.each(files)("%s names only paths that exist", (file) => {
    const named = pathsIn(fs.readFileSync(path.join(WORKFLOWS, file), "utf8"));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});
