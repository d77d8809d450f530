// `plan -o markdown` and `diff -o markdown` through the real shell: goldens, and the same text read
// back by a GFM parser (marked) to show it renders as intended — the headings, the one ```diff
// block with every statement line in it, the approve command as a ```sh block, the call-outs as
// blockquotes, and no link, image or HTML anywhere.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { codeBlocks, codeSpans, injected, markdownTokens } from "../../support/markdown.ts";
import { fakeObjectsOf } from "../../support/publish-plan.ts";
import { approvalOf, clusterState, CURRENT_STATEMENTS, NS, publishCurrent, SCHEMA, STALE } from "../../plan/fixtures.ts";

const earlier = publishCurrent({
  statements: [CURRENT_STATEMENTS[0]!, CURRENT_STATEMENTS[3]!],
  privilegeChanges: ["Grant"],
  createdAt: "2026-09-14T09:00:00Z",
  binding: { actualStateFingerprint: "sha256:" + "a1".repeat(32), desiredStateFingerprint: "sha256:" + "b2".repeat(32), policyFingerprint: "sha256:" + "5e".repeat(32) },
});

function cluster() {
  return clusterState({ extra: [...fakeObjectsOf(earlier), approvalOf(earlier, { name: "storefront-v2", conditions: STALE, created: "2026-09-14T09:05:00Z" })] });
}

const headings = (md: string) => markdownTokens(md).flatMap((t) => (t.type === "heading" ? [(t as { text: string }).text] : []));

describe("plan -o markdown", () => {
  it("is the golden summary, and parses as intended", async () => {
    const s = cluster();
    const r = await runCliWith(["plan", SCHEMA, "-n", NS, "-o", "markdown"], s.reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "plan/current-markdown.txt");
    const tokens = markdownTokens(r.stdout);
    expect(injected(tokens)).toEqual([]);
    expect(headings(r.stdout)).toEqual([`Schema plan for \`${NS}/${SCHEMA}\``, "Lock impact", "Statements", "Approve"]);
    const blocks = codeBlocks(tokens);
    // The lock table is a fenced block: no relation name from the SQL can add Markdown.
    expect(blocks.map((b) => b.lang)).toEqual(["text", "diff", "sh"]);
    expect(blocks[0]!.text).toMatch(/^#\s+LOCKS\s+BLOCKS\s+HOLDS\s+FINDING/u);
    // Every line of every statement, in order, each marked as added; the first one annotated.
    const lines = blocks[1]!.text.split("\n");
    expect(lines).toHaveLength(9);
    expect(lines.every((l) => l.startsWith("+"))).toBe(true);
    expect(lines[7]).toBe(`+INSERT INTO "settings" ("key", "value") VALUES ('motd', 'a; b <c> & "d"'); /* not; split */;  (info: reference row settings/motd)`);
    expect(blocks[2]!.text).toBe(`kubectl ptah approve ${SCHEMA} -n ${NS} | kubectl create -f -`);
    expect(codeSpans(tokens)).toContain(s.current.fingerprint);
    expect(tokens.filter((t) => t.type === "blockquote").map((t) => (t as { text: string }).text)).toEqual([
      "[!WARNING]\n**Privilege changes:** `FunctionReplacement`, `Grant`; `SecurityDefiner` (read by this plugin, not recorded)",
    ]);
  });

  it("calls out a destructive plan and names its destructive statements", async () => {
    const destructive = publishCurrent({
      statements: [{ sql: 'ALTER TABLE "customers" DROP COLUMN "email";', severity: "destructive", reason: "column customers.email removed" }],
      destructive: true,
      privilegeChanges: [],
    });
    const r = await runCliWith(["plan", SCHEMA, "-n", NS, "-o", "markdown"], clusterState({ current: destructive }).reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("- **Destructive:** **yes**\n");
    expect(r.stdout).toContain("> [!CAUTION]\n> **Destructive.** The plan records itself as destructive.\n>\n> Statement 1: `column customers.email removed`\n");
    expect(r.stdout).not.toContain("[!WARNING]");
  });

  it("gives no approve command for the applied plan", async () => {
    const r = await runCliWith(["plan", SCHEMA, "-n", NS, "--applied", "-o", "markdown"], cluster().reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("(the applied plan)");
    expect(r.stdout).not.toContain("kubectl ptah approve");
  });

  it("refuses --statements with -o markdown (exit 2)", async () => {
    const r = await runCliWith(["plan", SCHEMA, "-n", NS, "-o", "markdown", "--statements"], cluster().reader);
    expect(r).toMatchObject({ status: 2, stdout: "" });
  });
});

describe("diff -o markdown", () => {
  it("is the golden summary, and parses as intended", async () => {
    const s = cluster();
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "-o", "markdown"], s.reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "diff/default-markdown.txt");
    const tokens = markdownTokens(r.stdout);
    expect(injected(tokens)).toEqual([]);
    expect(headings(r.stdout)).toEqual([
      `Schema plan change for \`${NS}/${SCHEMA}\``,
      "Fingerprint inputs that moved (4 of 18)",
      "Statements: 2 added, 0 removed, 2 unchanged",
      "Lock impact",
      "Approve",
    ]);
    const blocks = codeBlocks(tokens);
    expect(blocks.map((b) => b.lang)).toEqual(["diff", "text", "sh"]);
    const lines = blocks[0]!.text.split("\n");
    expect(lines[0]).toBe("@@ -1,2 +1,4 @@");
    expect(lines.map((l) => l[0])).toEqual(["@", " ", "+", "+", "+", "+", "+", "+", "+", " "]);
    expect(codeSpans(tokens)).toEqual(expect.arrayContaining([earlier.fingerprint, s.current.fingerprint, "storefront-v2"]));
  });

  it("says the statements cannot be compared when the from plan is gone", async () => {
    const gone = approvalOf(undefined, {
      name: "storefront-v0",
      conditions: STALE,
      created: "2026-09-14T09:05:00Z",
      record: { name: "ptah-plan-000000000000000000000000", uid: "gone-uid", fingerprint: "sha256:" + "0".repeat(64) },
    });
    const r = await runCliWith(["diff", SCHEMA, "-n", NS, "-o", "markdown"], clusterState({ extra: [gone] }).reader);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Not compared: the from plan is gone, and its SQL is stored nowhere else.");
    expect(r.stdout).toContain("no longer stored");
    expect(r.stdout).toContain("**Widens:** not compared: the from plan is gone");
    expect(codeBlocks(markdownTokens(r.stdout)).map((b) => b.lang)).toEqual(["text", "sh"]);
  });
});
