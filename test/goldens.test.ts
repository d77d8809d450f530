// Golden files are read by some test, or they go. A golden counts as read when a
// unit test passes its name to expectGolden (test/support/golden.ts), decided on the file's syntax
// tree: the name is the call's second argument as a string literal, or, when that argument is a
// variable or a field (`golden`, `c.golden`), a string literal given to a property of that name
// (`{ golden: "explain/stale.txt" }`) in the same file — a table of cases. Comments and other
// strings do not count. Nothing else may call toMatchFileSnapshot, so names cannot be built from
// message text at run time. The e2e tier keeps no goldens (`npm run test:update` runs the unit
// project only).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { GOLDEN_DIR, GOLDEN_NAME } from "./support/golden.ts";

const TEST = import.meta.dirname;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The golden names a test file passes to expectGolden, and the calls whose name it cannot read. */
export function goldenNames(text: string): { names: string[]; unread: string[] } {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const names: string[] = [];
  const unread: string[] = [];
  const fields = new Set<string>();
  const byField = new Map<string, string[]>();
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "expectGolden") {
      const arg = n.arguments[1];
      if (arg && ts.isStringLiteralLike(arg)) names.push(arg.text);
      else if (arg && ts.isIdentifier(arg)) fields.add(arg.text);
      else if (arg && ts.isPropertyAccessExpression(arg)) fields.add(arg.name.text);
      else unread.push(n.getText());
    }
    if (ts.isPropertyAssignment(n) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name)) && ts.isStringLiteralLike(n.initializer)) {
      byField.set(n.name.text, [...(byField.get(n.name.text) ?? []), n.initializer.text]);
    }
    n.forEachChild(visit);
  };
  visit(source);
  for (const f of fields) {
    const values = byField.get(f) ?? [];
    if (values.length === 0) unread.push(`expectGolden(…, ${f}) with no \`${f}: "…"\` in the file`);
    names.push(...values);
  }
  return { names, unread };
}

const goldens = files(GOLDEN_DIR)
  .map((f) => path.relative(GOLDEN_DIR, f).split(path.sep).join("/"))
  .sort();
const sources = files(TEST)
  .filter((f) => f.endsWith(".ts") && !f.startsWith(GOLDEN_DIR))
  .map((f) => ({ rel: path.relative(TEST, f).split(path.sep).join("/"), text: fs.readFileSync(f, "utf8") }));
const comparing = sources
  .filter((s) => s.rel !== "support/golden.ts" && s.rel !== "goldens.test.ts")
  .map((s) => ({ ...s, ...goldenNames(s.text) }))
  .filter((s) => s.names.length > 0 || s.unread.length > 0);

const named = new Set(comparing.flatMap((s) => s.names));

describe("golden files", () => {
  it("exist (the comparing tests are found)", () => {
    expect(goldens.length).toBeGreaterThan(20);
    expect(comparing.length).toBeGreaterThan(5);
  });

  it("are each named by a test that compares with them (no orphans)", () => {
    expect(goldens.filter((g) => !named.has(g))).toEqual([]);
    expect(comparing.flatMap((s) => s.unread.map((u) => `${s.rel}: ${u}`))).toEqual([]);
  });

  it.each([
    ["a literal name", `await expectGolden(out, "diff/orphan.txt");`, ["diff/orphan.txt"]],
    ["a table of cases", `const CASES = [{ golden: "explain/stale.txt" }];\nfor (const { golden } of CASES) await expectGolden(out, golden);`, ["explain/stale.txt"]],
    ["a comment", `// "diff/orphan.txt"\nawait expectGolden(out, "plan/current.txt");`, ["plan/current.txt"]],
    ["a string elsewhere", `const note = "diff/orphan.txt";\nawait expectGolden(out, "plan/current.txt");`, ["plan/current.txt"]],
  ])("reads %s", (_what, text, want) => {
    expect(goldenNames(text).names).toEqual(want);
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
