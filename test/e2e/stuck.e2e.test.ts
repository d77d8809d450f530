// What is stuck, the migration audit trail and dangling pins on the lab, through the real kubectl:
// objects written as lab-admin in an unlabelled namespace (the simulator never acts there), their
// status through the status subresource as the manager would write it. `status -A --stuck` lists
// exactly the stuck ones, `plans` flags a dangling pin and counts the unresolved-run annotation's
// plan, `migration` and `ledger` show lastRun.dispatchedBy, jobUID and a HistoryRead settlement.
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, type KubeObject } from "../support/lab.ts";
import { migrationManifest, ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const API = "operator.ptah.run/v1alpha1";
let ns = "";

const ago = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/u, "Z");
const OPERATION = `sha256:${"7".repeat(64)}`;
const DISPATCHER = {
  controllerImage: `registry.lab/ptah-operator@sha256:${"a".repeat(64)}`,
  controllerRevision: "v0.2.10",
  runnerImage: `registry.lab/ptah-runner@sha256:${"b".repeat(64)}`,
};

function schema(name: string, status: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject {
  const m = schemaManifest(ns, name) as KubeObject & { spec: Record<string, unknown> };
  return { ...m, spec: { ...m.spec, ...spec }, status: { phase: "InSync", ...status } } as KubeObject;
}

function migration(name: string, status: Record<string, unknown>, annotations?: Record<string, string>): KubeObject {
  const m = migrationManifest(ns, name);
  return { ...m, metadata: { ...m.metadata, ...(annotations ? { annotations } : {}) }, status: { phase: "InSync", ...status } } as KubeObject;
}

describe.skipIf(Boolean(skip))("stuck objects, the run audit trail and dangling pins on the lab", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("stuck");
    const objects = [
      schema("overdue", { nextReconciliationTime: ago(5) }),
      schema("late", { nextReconciliationTime: ago(120) }),
      schema("on-time", { nextReconciliationTime: ago(-30) }),
      schema("suspended", { phase: "Suspended", nextReconciliationTime: ago(120) }, { suspend: true }),
      schema("stalled", { phase: "Applying", activeOperation: { type: "Apply", id: "op-1", jobName: "stalled-apply", startedAt: ago(60), attempt: 1 } }),
      schema("lock-owed", {
        pendingLockRelease: { coordinationDigest: `sha256:${"c".repeat(64)}`, operationID: "op-2", leaseDurationSeconds: 60, leaseEpoch: `v1-${"0".repeat(32)}` },
      }),
      migration("partial", { phase: "Blocked", unresolvedRun: { outcome: "Partial", operationID: OPERATION, jobName: "partial-apply", recordedAt: ago(10) } }),
    ];
    for (const o of objects) createObject(o);
    // Settled by a history read, with its dispatcher recorded.
    const audited = createObject(
      migration("audited", {
        lastRun: { outcome: "Partial", jobName: "audited-apply", jobUID: "job-uid-audited", startedAt: ago(30), finishedAt: ago(29), dispatchedBy: DISPATCHER },
        resolvedRun: { operationID: OPERATION, outcome: "Partial", resolution: "HistoryRead", resolvedAt: ago(20) },
      }),
    );
    const plan = createObject({
      apiVersion: API,
      kind: "PtahMigrationPlan",
      metadata: { name: "ptah-mplan-annotated", namespace: ns },
      spec: {
        contractVersion: 1,
        migrationRef: { name: "audited", uid: audited.metadata.uid },
        fingerprint: `sha256:${"e".repeat(64)}`,
        migrations: [{ version: 1, versionKey: "1", description: "one", checksum: "c1" }],
        historyFingerprint: `sha256:${"4".repeat(64)}`,
        currentVersion: 0,
      },
    } as KubeObject);
    // The annotation's UID must be the plan's for the pin to bind; the current plan of "pruned" is gone.
    createObject(
      migration(
        "pruned",
        { plan: { name: "ptah-mplan-pruned", uid: "uid-of-a-deleted-plan" } },
        {
          "operator.ptah.run/unresolved-run": JSON.stringify({ outcome: "Partial", operationID: OPERATION, planRef: { name: plan.metadata.name, uid: plan.metadata.uid } }),
        },
      ),
    );
  });

  it("status -A --stuck lists exactly the stuck objects, each with why and its next command", () => {
    const r = ptah(["status", "-A", "--stuck"]);
    expect(r.status, r.stderr).toBe(0);
    const mine = r.stdout.split("\n").filter((l) => l.startsWith(`${ns} `));
    const names = mine.map((l) => l.split(/\s+/u)[1]).sort();
    expect(names).toEqual(["ptahmigration/partial", "ptahschema/late", "ptahschema/lock-owed", "ptahschema/overdue", "ptahschema/stalled"]);
    expect(mine.find((l) => l.includes("ptahschema/overdue"))).toMatch(/ overdue [45]m(?:\d+s)?$/u);
    expect(mine.find((l) => l.includes("ptahschema/late"))).toMatch(/ late \d+m \(nothing is working on it\)$/u);
    expect(mine.find((l) => l.includes("ptahschema/stalled"))).toMatch(/ stalled Apply \d+m$/u);
    expect(r.stdout).toContain(
      `  ${ns}/ptahmigration/partial: establish what the Partial run did, then settle it with: kubectl ptah acknowledge partial -n ${ns} | kubectl create -f -\n`,
    );
    expect(r.stdout).toContain(`  ${ns}/ptahschema/overdue: find out why with: kubectl ptah explain overdue -n ${ns}\n`);
  });

  it("plans flags the dangling pin (exit 1) and counts the unresolved-run annotation's plan", () => {
    const r = ptah(["plans", "-n", ns]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: 1 dangling pin: /u);
    expect(r.stdout).toContain(`${ns}/ptahmigration/pruned status.plan names a plan that does not exist: ptahmigrationplan/ptah-mplan-pruned`);
    expect(r.stdout).toMatch(/ptah-mplan-annotated .*ptahmigration\/pruned metadata\.annotations\[operator\.ptah\.run\/unresolved-run\]\.planRef/u);
    const unpinned = ptah(["plans", "-n", ns, "--unpinned", "-o", "name"]);
    expect(unpinned.stdout).toBe("");
  });

  it("migration and ledger show the dispatcher, the Job's UID and the history read's settlement", () => {
    const m = ptah(["migration", "audited", "-n", ns]);
    expect(m.status, m.stderr).toBe(0);
    expect(m.stdout).toContain("Run job:        audited-apply (uid job-uid-audited)\n");
    expect(m.stdout).toContain("Dispatched by:  v0.2.10 registry.lab/ptah-operator@sha256:aaaaaaaaaaaa, runner registry.lab/ptah-runner@sha256:bbbbbbbbbbbb\n");
    expect(m.stdout).toMatch(/Settled: +the Partial run of operation sha256:777777777777… settled by a history read \(nobody acknowledged it\) at /u);
    const l = ptah(["ledger", "migration", "audited", "-n", ns]);
    expect(l.stdout).toMatch(/^Settled: migration\/audited -n \S+: the Partial run of operation \S+ settled by a history read \(nobody acknowledged it\)/mu);
    const e = ptah(["explain", "migration", "audited", "-n", ns]);
    expect(e.stdout).toContain("Last run:   Partial Job audited-apply (uid job-uid-audited), dispatched by v0.2.10");
  });
});
