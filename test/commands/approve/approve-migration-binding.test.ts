// approve migration binds the migration plan it read only if that plan is the migration's: the UID
// the migration names, a migrationRef naming this migration, a sha256 fingerprint, the history
// reading the migration has now, at least one migration; and only if the migration's last read
// still names the same plan (UID) and is the same object. Each is broken alone, and each refuses.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, cond, T1 } from "../../support/builders.ts";

type Raw = Record<string, any>;

function mplan(): Raw {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahMigrationPlan",
    metadata: { name: "ptah-mplan-555555555555555555555555", namespace: "app", uid: "mplan-uid-1", creationTimestamp: T1 },
    spec: {
      contractVersion: 1,
      migrationRef: { name: "billing", uid: "migration-uid-1" },
      fingerprint: `sha256:${"5".repeat(64)}`,
      historyFingerprint: `sha256:${"4".repeat(64)}`,
      currentVersion: 2,
      migrations: [{ version: 3, description: "add invoices", checksum: "c3" }],
    },
  };
}

const awaiting = (): Raw =>
  aMigration({ phase: "AwaitingApproval", conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "1 planned migration needs an approval naming this plan")] });

function approve(plan: Raw, later?: Raw) {
  const reader = new FakeReader([
    { kind: "PtahMigration", raw: awaiting() },
    { kind: "PtahMigrationPlan", raw: plan },
  ]);
  if (later) reader.onRequest = (req, r) => req.startsWith("get PtahMigrationPlan") && r.put("PtahMigration", later);
  return runCliWith(["approve", "migration", "billing", "-n", "app"], reader);
}

const WHERE = "migration plan ptah-mplan-555555555555555555555555";

describe("approve migration: the plan must be the migration's", () => {
  it("the plan as published: the manifest is printed", async () => {
    const r = await approve(mplan());
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("uid: mplan-uid-1");
  });

  it.each<[string, (p: Raw) => void, string]>([
    ["another UID than the migration names", (p) => (p.metadata.uid = "mplan-uid-2"), `${WHERE} has UID mplan-uid-2 and the migration names mplan-uid-1`],
    ["a migrationRef naming another migration", (p) => (p.spec.migrationRef.name = "payroll"), `${WHERE} belongs to app/payroll, not to this migration`],
    ["a migrationRef with another migration's UID", (p) => (p.spec.migrationRef.uid = "migration-uid-2"), `${WHERE} belongs to app/billing, not to this migration`],
    ["no sha256 fingerprint", (p) => (p.spec.fingerprint = "md5:5555"), `${WHERE} carries no sha256 fingerprint`],
    ["another history reading", (p) => (p.spec.historyFingerprint = `sha256:${"7".repeat(64)}`), `${WHERE} was computed against another history reading`],
    ["no migrations", (p) => (p.spec.migrations = []), `${WHERE} lists no migrations`],
  ])("a plan with %s is refused, nothing printed", async (_name, change, message) => {
    const plan = mplan();
    change(plan);
    const r = await approve(plan);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
  });

  it.each<[string, () => Raw]>([
    [
      "names another plan (UID) on its last read",
      () => {
        const m = awaiting();
        m.status.plan = { ...m.status.plan, uid: "mplan-uid-2" };
        return m;
      },
    ],
    [
      "was recreated (another UID) before its last read",
      () => {
        const m = awaiting();
        m.metadata.uid = "migration-uid-2";
        return m;
      },
    ],
  ])("a migration that %s is refused, nothing printed", async (_name, later) => {
    const r = await approve(mplan(), later());
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: "error: the current plan of migration app/billing moved while it was being read; run the command again\n" });
  });
});
