// Golden files are read by some test, or they go (issue 13). A golden counts as read when a unit
// test compares through expectGolden (test/support/golden.ts) and names it, in full, as a string
// literal in its source; nothing else may call toMatchFileSnapshot, so names cannot be built
// from message text at run time. The e2e tier keeps no goldens (`npm run test:update` runs the
// unit project only).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GOLDEN_DIR, GOLDEN_NAME } from "./support/golden.ts";

const TEST = import.meta.dirname;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const goldens = files(GOLDEN_DIR)
  .map((f) => path.relative(GOLDEN_DIR, f).split(path.sep).join("/"))
  .sort();
const sources = files(TEST)
  .filter((f) => f.endsWith(".ts") && !f.startsWith(GOLDEN_DIR))
  .map((f) => ({ rel: path.relative(TEST, f).split(path.sep).join("/"), text: fs.readFileSync(f, "utf8") }));
const comparing = sources.filter((s) => /\bexpectGolden\(/u.test(s.text) && s.rel !== "support/golden.ts" && s.rel !== "goldens.test.ts");

/** Every quoted literal in the comparing tests that has a golden's shape. */
const named = new Set(comparing.flatMap((s) => [...s.text.matchAll(/["'`]([^"'`\s$]+)["'`]/gu)].map((m) => m[1]!).filter((l) => GOLDEN_NAME.test(l))));

describe("golden files", () => {
  it("exist (the comparing tests are found)", () => {
    expect(goldens.length).toBeGreaterThan(20);
    expect(comparing.length).toBeGreaterThan(5);
  });

  it("are each named by a test that compares with them (no orphans)", () => {
    expect(goldens.filter((g) => !named.has(g))).toEqual([]);
  });

  it("are named with their folder and a lowercase file name", () => {
    expect(goldens.filter((g) => !GOLDEN_NAME.test(g))).toEqual([]);
  });

  it("are compared only through expectGolden, never with a computed file name", () => {
    const direct = sources.filter((s) => s.rel !== "support/golden.ts" && /toMatch(File)?Snapshot\(/u.test(s.text.replace(/\/\/.*$/gmu, ""))).map((s) => s.rel);
    expect(direct).toEqual([]);
  });

  it("are never compared in the e2e tier, which npm run test:update does not run", () => {
    expect(comparing.filter((s) => s.rel.startsWith("e2e/")).map((s) => s.rel)).toEqual([]);
  });
});
