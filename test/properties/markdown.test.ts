// Property: whatever the cluster's strings are (statement SQL, severity and reason, privilege
// kinds, an approval's name: terminal-hostile strings and Markdown-hostile ones — links, images,
// HTML, autolinks, fences, entities, mentions), `plan -o markdown` and `diff -o markdown` read back
// by a GFM parser (marked) hold no link, image or HTML, exactly the headings and code blocks the
// summary writes (no fence broken, none added), every statement line inside the ```diff block,
// and each privilege kind and the approval's name in a code span as it was (neutralised).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { sanitize } from "../../src/render/sanitize.ts";
import { STATEMENT_SEVERITIES } from "../../src/plan/document.ts";
import { normalizePrivilegeChanges } from "../../src/plan/fingerprint.ts";
import { statementText } from "../../src/plan/sql-text.ts";
import { runCliWith } from "../support/cli.ts";
import { codeBlocks, codeSpans, injected, markdownTokens } from "../support/markdown.ts";
import { fakeObjectsOf, type StatementInput } from "../support/publish-plan.ts";
import { approvalOf, clusterState, CURRENT_STATEMENTS, NS, publishCurrent, SCHEMA, STALE } from "../plan/fixtures.ts";
import { fragment } from "../guarantees/hostile/hostile-strings.ts";
import { Tally, runs } from "./runs.ts";

const tally = new Tally("markdown");
afterAll(() => console.log(tally.summary()));

/** What Markdown (and GitHub's renderer) would turn into something else than text. */
const MARKDOWN_FRAGMENTS = [
  "[x](https://evil.example/)",
  "![i](https://evil.example/p.png)",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "<details><summary>x</summary>",
  "</details>",
  "<!--",
  "-->",
  "<https://evil.example>",
  "https://evil.example/a_b",
  "www.evil.example",
  "evil@example.com",
  "[ref]: https://evil.example",
  "[ref]",
  "&lt;",
  "&#x3C;b&#x3E;",
  "&amp;",
  "```",
  "````diff",
  "~~~",
  "`",
  "``",
  " `",
  "\n```\n",
  "\n# heading",
  "\n- item",
  "\n> [!CAUTION]",
  "\n---",
  "**",
  "__",
  "_",
  "*",
  "~~x~~",
  "|",
  "| a | b |\n|---|---|",
  "\\",
  "\\`",
  "@someone",
  "#123",
  ":warning:",
  "$x$",
  "  \n",
];

const mdFragment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...MARKDOWN_FRAGMENTS) }, { weight: 2, arbitrary: fragment });
const hostile = fc.array(mdFragment, { maxLength: 6 }).map((parts) => parts.join(""));

// A plan the plugin verifies: SQL not empty and carrying no credentials, a severity it knows.
const sql = hostile.map((s) => `${s} SELECT 1`).filter((s) => !/PASSWORD|IDENTIFIED/iu.test(s));
const statement: fc.Arbitrary<StatementInput> = fc.record({
  sql: fc.oneof(
    sql,
    hostile.map((s) => `SELECT ${s}`),
  ),
  severity: fc.constantFrom(...STATEMENT_SEVERITIES),
  reason: hostile,
});

const headings = (tokens: ReturnType<typeof markdownTokens>) => tokens.filter((t) => t.type === "heading").map((t) => (t as { depth: number }).depth);

/** How many lines a statement takes in the ```diff block. */
const lineCount = (s: StatementInput) => `${statementText(s.sql)};`.split(/\r\n|\r|\n/u).length;

function checkCommon(md: string, privileges: readonly string[]) {
  const tokens = markdownTokens(md);
  expect(injected(tokens)).toEqual([]);
  const spans = codeSpans(tokens);
  // The kinds as the plan records them: as an API server serves them (a lone surrogate is U+FFFD, as
  // the fixtures publish them) and Go's TrimSpace at both ends, as the fingerprint normalises them.
  const served = (k: string) => k.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu, "\ufffd");
  for (const p of normalizePrivilegeChanges(privileges.map(served))) expect(spans).toContain(sanitize(p));
  return tokens;
}

describe("Markdown summaries over hostile strings (property)", () => {
  it("plan -o markdown: no link, image or HTML; the summary's own blocks only; every statement line in the diff block", () =>
    tally.check(
      "plan -o markdown holds over hostile strings",
      fc.asyncProperty(fc.array(statement, { minLength: 1, maxLength: 4 }), fc.array(hostile, { maxLength: 3 }), async (statements, privilegeChanges) => {
        const current = publishCurrent({ statements, privilegeChanges });
        const r = await runCliWith(["plan", SCHEMA, "-n", NS, "-o", "markdown"], clusterState({ current }).reader);
        expect(r.status, r.stderr).toBe(0);
        const tokens = checkCommon(r.stdout, privilegeChanges);
        // Summary, lock impact (its table a text block), statements, approve.
        expect(headings(tokens)).toEqual([2, 3, 3, 3]);
        const blocks = codeBlocks(tokens).filter((b) => b.lang !== "text");
        expect(codeBlocks(tokens).map((b) => b.lang)).toEqual(["text", "diff", "sh"]);
        const lines = blocks[0]!.text.split("\n");
        expect(lines).toHaveLength(statements.reduce((n, s) => n + lineCount(s), 0));
        expect(lines.every((l) => l.startsWith("+"))).toBe(true);
        expect(blocks[1]!.text).toBe(`kubectl ptah approve ${SCHEMA} -n ${NS} | kubectl create -f -`);
      }),
      runs(150),
    ));

  it("diff -o markdown: the same, with a hostile approval name in code spans", () =>
    tally.check(
      "diff -o markdown holds over hostile strings",
      fc.asyncProperty(fc.array(statement, { minLength: 1, maxLength: 3 }), fc.array(hostile, { maxLength: 2 }), hostile, async (statements, privilegeChanges, name) => {
        fc.pre(name.trim() !== "");
        // The earlier plan shares the first hostile statement: it is a context line of the ```diff block.
        const earlier = publishCurrent({ statements: [CURRENT_STATEMENTS[0]!, statements[0]!], privilegeChanges: ["Grant"], createdAt: "2026-09-14T09:00:00Z" });
        const current = publishCurrent({ statements, privilegeChanges });
        const extra = [...fakeObjectsOf(earlier), approvalOf(earlier, { name, conditions: STALE, created: "2026-09-14T09:05:00Z" })];
        const r = await runCliWith(["diff", SCHEMA, "-n", NS, "-o", "markdown"], clusterState({ current, extra }).reader);
        expect(r.status, r.stderr).toBe(0);
        const tokens = checkCommon(r.stdout, privilegeChanges);
        expect(codeSpans(tokens)).toContain(sanitize(name));
        // Summary, inputs that moved, statements, lock impact (a text block), approve.
        expect(headings(tokens)).toEqual([2, 3, 3, 3, 3]);
        const blocks = codeBlocks(tokens).filter((b) => b.lang !== "text");
        expect(codeBlocks(tokens).map((b) => b.lang)).toEqual(["diff", "text", "sh"]);
        const body = blocks[0]!.text.split("\n");
        expect(body[0]).toMatch(/^@@ /u);
        expect(body.every((l) => /^[ +\-@]/u.test(l))).toBe(true);
      }),
      runs(100),
    ));
});
