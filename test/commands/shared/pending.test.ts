// The audit evidence and the pending records (the newest operator's status fields):
// `status SCHEMA` and `explain` name who dispatched the last Apply and what the object still owes
// (post-Apply proof, a retired binding's leftovers, a realm Lease), each with what happens next.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { expectGolden } from "../../support/golden.ts";
import { aMigration, aSchema, cond, FP1, MANAGER_COPIES, PLAN1, planStatus, T2 } from "../../support/builders.ts";

const DISPATCHER = {
  controllerImage: `registry.example/ptah-operator@sha256:${"d1".repeat(32)}`,
  controllerRevision: "v1.4.2",
  runnerImage: `registry.example/ptah-runner@sha256:${"e2".repeat(32)}`,
};
const NOW = new Date("2026-11-30T12:00:00Z");

function cluster(observeAfter = "2026-11-30T12:10:00Z"): FakeReader {
  const schema = aSchema({
    phase: "VerifyingConvergence",
    conditions: [cond("Ready", "False", "VerifyingConvergence", "Apply completion has not yet been independently observed", T2)],
    applied: { planRef: { name: PLAN1, uid: `uid-${PLAN1}` }, planFingerprint: FP1, ...MANAGER_COPIES, dispatchedBy: DISPATCHER, completedAt: T2 },
  });
  const status = schema.status as Record<string, unknown>;
  status.pendingObservation = {
    outcome: "OutcomeUnknown",
    applyOperationID: "op-1",
    applyJobName: "storefront-apply-1",
    observeAfter,
    plan: planStatus("ptah-plan-next"),
    dispatchedBy: DISPATCHER,
  };
  status.pendingBindingRetirement = {
    retiredEpoch: `v1-${"ab".repeat(16)}`,
    plan: { name: "ptah-plan-old", uid: "uid-old", fingerprint: FP1 },
    job: { operation: "Apply", name: "storefront-apply-1", uid: "job-uid" },
  };
  status.pendingLockRelease = { coordinationDigest: `sha256:${"c".repeat(64)}`, operationID: "op-1", leaseDurationSeconds: 60, leaseEpoch: "epoch-7" };
  const migration = aMigration({ phase: "Pending", conditions: [], status: { pendingLockRelease: { operationID: "mop-2", leaseEpoch: "epoch-9" } } });
  return new FakeReader([
    { kind: "PtahSchema", raw: schema },
    { kind: "PtahMigration", raw: migration },
  ]);
}

describe("pending records and the dispatching manager", () => {
  it("status SCHEMA shows who dispatched the last Apply and a Pending section with what happens next", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app"], cluster(), { now: NOW });
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "status/pending.txt");
  });

  it("says proof may start once observe-after has passed", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app"], cluster("2026-11-30T11:00:00Z"), { now: NOW });
    expect(r.stdout).toContain("proof may start now (observe after 2026-11-30T11:00:00Z has passed)");
  });

  it("explain SCHEMA and explain migration NAME name each pending record", async () => {
    const s = await runCliWith(["explain", "storefront", "-n", "app"], cluster(), { now: NOW });
    expect(s.status, s.stderr).toBe(0);
    await expectGolden(s.stdout, "explain-live/pending.txt");
    const m = await runCliWith(["explain", "migration", "billing", "-n", "app"], cluster(), { now: NOW });
    expect(m.stdout).toContain("Pending:    status.pendingLockRelease: the database realm's Lease is still held for operation mop-2 (epoch epoch-9).");
  });
});
