import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { CONSUMED_AND_STALE, FP2, PLAN2, T2, anApproval, aMigration, awaitingSchema, blockedSchema, cond } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema({ plan: { name: PLAN2, uid: `uid-${PLAN2}`, fingerprint: FP2, statementCount: 1, createdAt: T2 } }) },
    { kind: "PtahSchema", raw: blockedSchema() },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    {
      kind: "Event",
      raw: {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "storefront-v1.1", namespace: "app" },
        involvedObject: { kind: "PtahSchemaApproval", name: "storefront-v1", namespace: "app", uid: "approval-uid-storefront-v1" },
        type: "Warning",
        reason: "ApprovalStale",
        message: "The approved plan no longer matches the current database state",
        count: 1,
        firstTimestamp: T2,
        lastTimestamp: T2,
      },
    },
    {
      kind: "PtahMigration",
      raw: aMigration({
        phase: "Blocked",
        conditions: [
          cond("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for is recorded against this database; establish what it did before another Apply"),
          cond("Ready", "False", "ApplyOutcomeUnknown", "What the recorded run did is unknown until the database is read"),
        ],
        status: { unresolvedRun: { outcome: "Partial", operationID: "sha256:6666666666666666666666666666666666666666666666666666666666666666", recordedAt: T2 } },
      }),
    },
  ]);
}

describe("explain (live diagnosis)", () => {
  it("says why an approval is stale, side by side with the current plan, and what to create", async () => {
    const r = await runCliWith(["explain", "approval", "storefront-v1", "-n", "app"], cluster());
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "explain-live/approval-stale.txt");
    expect(r.stdout).toContain("is Stale (PlanNoLongerCurrent) after it was Consumed (DispatchCommitted)");
    expect(r.stdout).toContain("kubectl ptah approve storefront -n app | kubectl create -f -");
    expect(r.stdout).toContain("Warning ApprovalStale");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("What moved: kubectl ptah diff storefront -n app --from approval storefront-v1");
  });

  it("says which condition holds a blocked schema and what would unblock it", async () => {
    const r = await runCliWith(["explain", "catalog", "-n", "app"], cluster());
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "explain-live/schema-blocked.txt");
    expect(r.stdout).toContain("held by Ready=False DestructiveChangesDisabled");
  });

  it("diagnoses a schema awaiting approval with a stale approval around", async () => {
    const r = await runCliWith(["explain", "storefront", "-n", "app"], cluster());
    await expectGolden(r.stdout, "explain-live/schema-awaiting.txt");
    expect(r.stdout).toContain("Next:       see what changed since approval storefront-v1 with: kubectl ptah diff storefront -n app, then approve it");
  });

  it("diagnoses a migration with an unresolved run", async () => {
    const r = await runCliWith(["explain", "migration", "billing", "-n", "app"], cluster());
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "explain-live/migration-partial.txt");
    expect(r.stdout).toContain("kubectl ptah acknowledge billing -n app | kubectl create -f -");
  });

  it("exits 3 for an approval that does not exist", async () => {
    const r = await runCliWith(["explain", "approval", "nope", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no such approval: app/nope\n" });
  });

  it("still explains topics offline", async () => {
    const r = await runCliWith(["explain", "stale"], undefined);
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(100);
  });
});

describe("explain schema <name>", () => {
  it("diagnoses the named schema like a bare name does", async () => {
    const bare = await runCliWith(["explain", "catalog", "-n", "app"], cluster());
    const named = await runCliWith(["explain", "schema", "catalog", "-n", "app"], cluster());
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toBe(bare.stdout);
  });
});
