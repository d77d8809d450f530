// Upstream's pinned command lines and output rules, each through the real CLI
// shell (runCli with argv strings). upstream's table of command lines row by row, then its layout rules.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { aMigration, aSchema, cond, planStatus, T1, T2 } from "../support/builders.ts";
import { clusterState, NS, publishCurrent, SCHEMA } from "../plan/fixtures.ts";
import { currentPlanStatus } from "../support/publish-plan.ts";

interface Row {
  readonly argv: string;
  readonly exit: number;
  /** "usage": stdout carries the usage; "empty": stdout is empty; "any": not pinned. */
  readonly stdout: "usage" | "empty" | "version" | "any";
  /** Pinned text, in stdout or stderr. */
  readonly pinned: readonly string[];
}

// Upstream's table of pinned command lines, in its order. Our one difference: `plan -o X` also lists yaml and markdown (ours).
const TABLE: readonly Row[] = [
  { argv: "", exit: 2, stdout: "usage", pinned: ["usage: kubectl ptah plan"] },
  { argv: "--help", exit: 0, stdout: "usage", pinned: ["usage: kubectl ptah plan"] },
  { argv: "help", exit: 0, stdout: "usage", pinned: ["kubectl ptah plan", "kubectl ptah schema", "kubectl ptah migration"] },
  { argv: "--version", exit: 0, stdout: "version", pinned: [] },
  { argv: "apply storefront", exit: 2, stdout: "empty", pinned: ['unknown command "apply"'] },
  { argv: "plan", exit: 2, stdout: "empty", pinned: ["name one PtahSchema"] },
  { argv: "plan storefront warehouse", exit: 2, stdout: "empty", pinned: ["name one PtahSchema"] },
  { argv: "plan storefront --current --applied", exit: 2, stdout: "empty", pinned: ["ask for one"] },
  { argv: "plan storefront -o X", exit: 2, stdout: "empty", pinned: ['unknown output format "X"; it is one of [text sql json yaml markdown]'] },
  { argv: "plan --help", exit: 0, stdout: "any", pinned: ["usage: kubectl ptah plan"] },
  { argv: "migration", exit: 2, stdout: "empty", pinned: ["name one PtahMigration"] },
  { argv: "migration orders invoices", exit: 2, stdout: "empty", pinned: ["name one PtahMigration"] },
  { argv: "migration orders -o yaml", exit: 2, stdout: "empty", pinned: ['unknown output format "yaml"; it is one of [text json]'] },
  { argv: "schema", exit: 2, stdout: "empty", pinned: ["name one PtahSchema"] },
  { argv: "schema storefront warehouse", exit: 2, stdout: "empty", pinned: ["name one PtahSchema"] },
  { argv: "schema storefront -o yaml", exit: 2, stdout: "empty", pinned: ['unknown output format "yaml"; it is one of [text json]'] },
  { argv: "schema storefront -o sql", exit: 2, stdout: "empty", pinned: ['unknown output format "sql"; it is one of [text json]'] },
];

const CURRENT_LINE = "  --current              the plan the operator would run next (the default)\n";

describe("upstream's pinned command lines", () => {
  it.each(TABLE)("kubectl ptah $argv → exit $exit", async (row) => {
    const r = await runCliWith(row.argv === "" ? [] : row.argv.split(" "), undefined);
    expect(r.status).toBe(row.exit);
    if (row.stdout === "empty") {
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: [^\n]*\n$/u);
    }
    if (row.stdout === "usage") {
      expect(r.stdout).toContain(CURRENT_LINE);
      expect(r.stdout).toContain("is not a log of what each statement did");
    }
    if (row.stdout === "version") expect(r.stdout).toBe("kubectl-ptah v0.0.0-test\n");
    for (const text of row.pinned) expect(r.stdout + r.stderr).toContain(text);
  });

  it("plan --help carries upstream's usage block with the pinned --current line", async () => {
    const r = await runCliWith(["plan", "--help"], undefined);
    expect(r.stdout.split("\n")).toContain("usage: kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml] [--statements] [--verify]");
    expect(r.stdout).toContain(CURRENT_LINE);
    expect(r.stdout).toContain("it is not a log of what each statement did.");
  });

  it("root usage names upstream's three commands first, then ours", async () => {
    const text = (await runCliWith(["help"], undefined)).stdout;
    const order = ["usage: kubectl ptah plan", "       kubectl ptah schema", "       kubectl ptah migration", "Commands:", "  approve "];
    const at = order.map((s) => text.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe("upstream's messages", () => {
  it("schema: no PtahSchema by that name: <ns>/<name>, exit 3", async () => {
    const r = await runCliWith(["schema", "nope", "-n", "app"], new FakeReader([]));
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no PtahSchema by that name: app/nope\n" });
  });

  it("plan: no such schema: <ns>/<name>, exit 3 (the loader's wording)", async () => {
    const r = await runCliWith(["plan", "nope", "-n", "app"], new FakeReader([]));
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
  });

  it("plan: a plan recreated under the same name quotes both UIDs", async () => {
    const original = publishCurrent();
    const recreated = publishCurrent({ uidSeed: "second publication" });
    const { reader } = clusterState({ current: recreated, currentRecord: currentPlanStatus(original) });
    const r = await runCliWith(["plan", SCHEMA, "-n", NS], reader);
    const uid = (p: typeof original): string => (p.plan.metadata as { uid: string }).uid;
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      `error: the stored plan ${recreated.name} has UID "${uid(recreated)}" and the record names "${uid(original)}", so it is a different object under the same name\n`,
    );
  });
});

/** A schema that exercises every rule of the schema view at once. */
function driftSchema(): Record<string, unknown> {
  return aSchema({
    phase: "AwaitingApproval",
    drift: {
      engine: "postgresql",
      highestDriftSeverity: "destructive",
      driftFindingCount: 9,
      driftFindingsTruncated: true,
      driftFindings: [
        { category: "tables_added", count: 1, severity: "safe" },
        { category: "data_rows_updated", count: 3, severity: "warning" },
        { category: "rls_enabled_tables_removed", count: 123456, severity: "destructive" },
        { category: "data_rows_inserted", count: 5, severity: "info" },
      ],
    },
    conditions: [
      cond("DriftDetected", "True", "ScopedChanges", "The managed scope differs <from> the desired & schema"),
      cond("ReconciliationFailed", "True", "", "no reason given"),
      cond("InSync", "False", "ScopedChanges", "not shown: False and not Ready"),
      cond("Ready", "False", "AwaitingApproval", "The current plan requires a new approval"),
    ],
    plan: planStatus(undefined, undefined, { destructive: true, statementCount: 1, approval: { name: "storefront-v2", uid: "a-2", approver: { username: "" } } }),
    applied: { planFingerprint: "sha256:" + "5".repeat(64), completedAt: T2 },
  });
}

describe("the schema view's layout", () => {
  const cluster = (): FakeReader => new FakeReader([{ kind: "PtahSchema", raw: driftSchema() }]);

  it("writes findings, conditions and the plan block as upstream does (text golden)", async () => {
    const r = await runCliWith(["schema", "storefront", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Observed:         unknown\n");
    expect(r.stdout).toContain("  rls_enabled_tables_removed         123456  destructive\n");
    expect(r.stdout).toContain("ReconciliationFailed:True ()\n");
    expect(r.stdout).toContain("  approved by storefront-v2\n");
    await expectGolden(r.stdout, "schema/drift.txt");
  });

  it("writes Go's JSON: two-space indent, HTML escaped, upstream's always-written keys (golden)", async () => {
    const r = await runCliWith(["schema", "storefront", "-n", "app", "-o", "json"], cluster());
    expect(r.stdout).toContain("differs \\u003cfrom\\u003e the desired \\u0026 schema");
    const doc = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    expect(Object.keys(doc)).toEqual(["namespace", "schema", "phase", "source", "observation", "plan", "applied", "conditions"]);
    expect(doc.plan).toMatchObject({ approved: true, createdAt: T1, statementCount: 1 });
    expect(doc.applied).toEqual({ planFingerprint: "sha256:" + "5".repeat(64), completedAt: T2 });
    expect(doc.observation!.referenceData).toEqual({ inserts: 5, updates: 3, deletes: 0 });
    await expectGolden(r.stdout, "schema/drift.json");
  });
});

describe("the migration view's layout", () => {
  it("writes its conditions inside the label block, then the blank line, then the plan line", async () => {
    const migration = aMigration({
      phase: "AwaitingApproval",
      conditions: [
        cond("Ready", "False", "AwaitingApproval", "waiting"),
        cond("ApprovalRequired", "True", "AwaitingApproval", "approve it"),
        cond("Blocked", "True", "", "no reason"),
      ],
    });
    const r = await runCliWith(["migration", "billing", "-n", "app"], new FakeReader([{ kind: "PtahMigration", raw: migration }]));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "Pending:        3\nReady:          False (AwaitingApproval)\nApprovalRequired:True (AwaitingApproval)\nBlocked:        True ()\n\nNo plan is published.\n",
    );
  });
});
