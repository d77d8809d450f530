// One page per fact, held to the code: each count or table below is stated on one page, the others
// link to it, and this fails when that page contradicts the code or another page restates it.
// - the tiers: docs/testing.md's table is the projects of vitest.config.ts; no page counts them;
// - the exit statuses: docs/output.md's table is src/errors.ts's statuses, 0, diff's --exit-code and
//   the shell's interrupt; no other page has a table of them;
// - the members of the seam commands read through (ClusterReader): docs/architecture.md lists exactly
//   src/kube/types.ts's; no other page lists them;
// - the commands that write as they run: docs/architecture.md names exactly those whose code calls
//   ctx.emit or ctx.log;
// - what is sent beyond get, list and watch: docs/architecture.md names the request guard's dry-run
//   kinds (by count) and its reviews (by name);
// - the -o formats docs/output.md describes are each declared by some command (which command takes
//   which is on its generated reference page).
// The roles' members (docs/rbac.md against rbac/*.yaml) are in role-facts.test.ts.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.ts";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { DRY_RUN_KINDS, REVIEW_PATHS } from "../../src/kube/request-guard.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const read = (rel: string): string => fs.readFileSync(path.join(REPO, rel), "utf8");

/** The hand-written pages: the README, docs/ but its generated reference pages, test/README.md. */
const PAGES = [
  "README.md",
  ...fs
    .readdirSync(path.join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "test/README.md",
];

/** The text of a `## heading` section, up to the next heading of that level. */
export function section(text: string, heading: string): string {
  const at = text.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`no section "## ${heading}"`);
  const rest = text.slice(at + heading.length + 5);
  const end = rest.search(/\n## /u);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The first cell of each body row of the first table in `text`. */
export function firstColumn(text: string): string[] {
  const rows = text.split("\n").filter((l) => l.startsWith("|"));
  return rows.slice(2).map((r) => r.split("|")[1]!.trim());
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/gu)].map((m) => m[1]!);

/** A paragraph of `text` (blank-line separated) that starts with `start`. */
function paragraph(text: string, start: string): string {
  const found = text.split(/\n\s*\n/u).find((p) => p.trimStart().startsWith(start));
  if (found === undefined) throw new Error(`no paragraph starting "${start}"`);
  return found;
}

describe("one page per fact", () => {
  it("the tiers: docs/testing.md's table is vitest.config.ts's projects, and no page counts them", () => {
    const projects = (config as unknown as { test: { projects: { test: { name: string } }[] } }).test.projects.map((p) => p.test.name);
    const table = firstColumn(section(read("docs/testing.md"), "Tiers")).map((c) => backticked(c)[0]);
    expect(table.slice().sort()).toEqual(projects.slice().sort());
    const counted = PAGES.flatMap((p) => [...read(p).matchAll(/\b(?:two|three|four|five|six|\d+) (?:vitest )?(?:projects|tiers)\b/giu)].map((m) => `${p}: ${m[0]}`));
    expect(counted).toEqual([]);
  });

  it("the exit statuses: docs/output.md's table is the code's, and no other page has such a table", () => {
    const errors = read("src/errors.ts");
    const union = /export type ExitStatus = ([^;]+);/u
      .exec(errors)![1]!
      .split("|")
      .map((s) => Number(s.trim()));
    for (const m of errors.matchAll(/super\(message, (\d+)\)/gu)) expect(union).toContain(Number(m[1]));
    const differs = Number(/export const EXIT_DIFFERS = (\d+);/u.exec(read("src/commands/diff/diff-command.ts"))![1]);
    const interrupted = [...read("src/main.ts").matchAll(/exitCode = (\d+)/gu)].map((m) => Number(m[1]));
    expect(interrupted.length).toBeGreaterThan(0);
    const code = [...new Set([0, ...union, differs, ...interrupted])].slice().sort((a, b) => a - b);
    const page = firstColumn(section(read("docs/output.md"), "Exit statuses and errors")).map(Number);
    expect(page).toEqual(code);
    expect(PAGES.filter((p) => p !== "docs/output.md" && /^\| status \| meaning \|/mu.test(read(p)))).toEqual([]);
  });

  it("the seam's members: docs/architecture.md lists exactly ClusterReader's, and no other page lists them", () => {
    const source = ts.createSourceFile("types.ts", read("src/kube/types.ts"), ts.ScriptTarget.ES2022, true);
    const reader = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "ClusterReader")!;
    const members = reader.members.map((m) => (m.name as ts.Identifier).text);
    const listed = /\(`ClusterReader`\) has exactly ([^.]*?), and the transport/u.exec(read("docs/architecture.md").replace(/\s+/gu, " "));
    expect(listed, "docs/architecture.md: the sentence listing ClusterReader's members").not.toBeNull();
    expect(
      listed![1]!
        .split(/, | and /u)
        .slice()
        .sort(),
    ).toEqual(members.slice().sort());
    // get, list and watch are words of every page; the others name the seam.
    const own = members.filter((m) => !["get", "list", "watch"].includes(m));
    const restated = PAGES.filter((p) => p !== "docs/architecture.md").flatMap((p) =>
      read(p)
        .split(/\n\s*\n/u)
        .filter((para) => own.filter((m) => para.includes(m)).length >= 3)
        .map((para) => `${p}: ${para.slice(0, 80)}`),
    );
    expect(restated).toEqual([]);
  });

  it("the commands that write as they run: docs/architecture.md names exactly those whose code calls ctx.emit or ctx.log", () => {
    const commands = path.join(REPO, "src", "commands");
    const writes = (dir: string): boolean =>
      fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).some((f) => f.endsWith(".ts") && /\bctx\.(?:emit|log)\b/u.test(fs.readFileSync(path.join(dir, f), "utf8")));
    // shared/ writes for nobody: a shared module that did would make the scan of verb folders incomplete.
    expect(writes(path.join(commands, "shared"))).toBe(false);
    const verbs = fs.readdirSync(commands, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== "shared" && writes(path.join(commands, e.name)));
    const named = backticked(paragraph(read("docs/architecture.md"), "The commands that write as they run:").split(".")[0]!).map((s) => s.split(" ")[0]);
    expect(named.slice().sort()).toEqual(
      verbs
        .map((e) => e.name)
        .slice()
        .sort(),
    );
  });

  it("what is sent: docs/architecture.md names the request guard's dry-run kinds and reviews", () => {
    const words = ["zero", "one", "two", "three", "four", "five", "six"];
    const text = paragraph(read("docs/architecture.md"), "The plugin sends get, list and watch").replace(/\s+/gu, " ");
    const kinds = /creates of the (\w+) approval kinds/u.exec(text);
    expect(kinds, "docs/architecture.md: creates of the N approval kinds").not.toBeNull();
    expect(words.indexOf(kinds![1]!)).toBe(DRY_RUN_KINDS.length);
    const reviews = /and the (\w+) reviews \(([^)]*)\)/u.exec(text);
    expect(reviews, "docs/architecture.md: and the N reviews (…)").not.toBeNull();
    expect(words.indexOf(reviews![1]!)).toBe(Object.keys(REVIEW_PATHS).length);
    expect(backticked(reviews![2]!).slice().sort()).toEqual(Object.keys(REVIEW_PATHS).sort());
  });

  it("the -o formats docs/output.md describes are each declared by some command", () => {
    const declared = new Set(ALL_COMMANDS.flatMap((c) => (c as { outputs?: readonly string[] }).outputs ?? []).map((f) => f.split("=")[0]));
    const rows = firstColumn(section(read("docs/output.md"), "Output formats")).filter((r) => r !== "(none)");
    const described = rows.flatMap((r) => backticked(r)).map((f) => f.split("=")[0]!);
    const refused = new Set(["go-template", "go-template-file", "template"]);
    expect(described.filter((f) => !refused.has(f) && !declared.has(f))).toEqual([]);
    expect(described.filter((f) => refused.has(f) && declared.has(f))).toEqual([]);
  });
});
