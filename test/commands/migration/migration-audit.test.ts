// The migration audit trail: who dispatched the last run (lastRun.dispatchedBy, jobUID) and how a
// recorded run was settled (resolvedRun.resolution), the same words in migration, ledger and
// explain migration; a resolution the plugin does not know is printed as written.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { FP2, T0, T1, T2, aMigration, cond } from "../../support/builders.ts";
import { resolutionWords } from "../../../src/commands/shared/run-audit.ts";

type Raw = Record<string, unknown>;
const OPERATION = "sha256:" + "6".repeat(64);
const DISPATCHER = {
  controllerImage: "ghcr.io/stokaro/ptah-operator@sha256:" + "a".repeat(64),
  controllerRevision: "v0.2.10",
  runnerImage: "ghcr.io/stokaro/ptah-runner@sha256:" + "b".repeat(64),
};

function migration(resolvedRun: Raw): Raw {
  return aMigration({
    phase: "InSync",
    conditions: [cond("Ready", "True", "HistoryMatched", "The history matches")],
    status: {
      lastRun: {
        outcome: "Partial",
        jobName: "billing-apply-1",
        jobUID: "job-uid-1",
        startedAt: "2026-11-30T11:06:00Z",
        finishedAt: "2026-11-30T11:08:00Z",
        appliedVersions: [3],
        dispatchedBy: DISPATCHER,
      },
      resolvedRun: { operationID: OPERATION, outcome: "Partial", resolvedAt: T2, ...resolvedRun },
    },
  });
}

function cluster(resolvedRun: Raw = { resolution: "HistoryRead" }): FakeReader {
  return new FakeReader([
    { kind: "PtahMigration", raw: migration(resolvedRun) },
    {
      kind: "PtahMigrationApproval",
      raw: {
        apiVersion: "operator.ptah.run/v1alpha1",
        kind: "PtahMigrationApproval",
        metadata: { name: "billing-v3", namespace: "app", uid: "mapproval-uid-1", creationTimestamp: T0 },
        spec: {
          migrationRef: { name: "billing", uid: "migration-uid-1" },
          planRef: { name: "ptah-mplan-555555555555555555555555", uid: "mplan-uid-1" },
          planFingerprint: FP2,
          approver: { username: "alice", groups: ["db-owners"] },
          approvedAt: T0,
        },
        status: { conditions: [cond("Consumed", "True", "DispatchCommitted", "The approved plan was dispatched", "2026-11-30T11:05:00Z")] },
      },
    },
  ]);
}

describe("the migration audit trail", () => {
  it("migration shows the last run's Job, its dispatcher and a history read's settlement", async () => {
    const r = await runCliWith(["migration", "billing", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "migration/audit-history-read.txt");
    expect(r.stdout).toContain("Dispatched by:  v0.2.10 ghcr.io/stokaro/ptah-operator@sha256:aaaaaaaaaaaa, runner ghcr.io/stokaro/ptah-runner@sha256:bbbbbbbbbbbb\n");
    expect(r.stdout).toContain("Run job:        billing-apply-1 (uid job-uid-1)\n");
    expect(r.stdout).toMatch(/Settled: +the Partial run of operation sha256:666666666666… settled by a history read \(nobody acknowledged it\) at 2026-11-30T11:55:00Z/u);
  });

  it("migration -o json carries the same fields", async () => {
    const doc = JSON.parse((await runCliWith(["migration", "billing", "-n", "app", "-o", "json"], cluster())).stdout) as Record<string, Record<string, unknown>>;
    expect(doc.lastRun).toMatchObject({ jobUID: "job-uid-1", dispatchedBy: expect.stringContaining("v0.2.10") as unknown });
    expect(doc.resolvedRun).toMatchObject({ resolution: "HistoryRead", words: "settled by a history read (nobody acknowledged it)" });
  });

  it("ledger ties the last run's dispatcher and Job to the approval consumed before it, and names the settlement below", async () => {
    const r = await runCliWith(["ledger", "migration", "billing", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "ledger/migration-history-read.txt");
    expect(r.stdout).toMatch(/billing-v3 .* v0\.2\.10 ghcr\.io\/stokaro\/ptah-operator@sha256:aaaaaaaaaaaa, runner \S+, job job-uid-1 /u);
    const csv = (await runCliWith(["ledger", "migration", "billing", "-n", "app", "-o", "csv"], cluster())).stdout;
    expect(csv.split("\n")[1]).toContain(",job-uid-1,");
  });

  it("explain migration names the dispatcher and how the run was settled", async () => {
    const r = await runCliWith(["explain", "migration", "billing", "-n", "app"], cluster({ resolution: "Acknowledged", acknowledgedBy: { username: "carol" } }));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Last run:   Partial Job billing-apply-1 (uid job-uid-1), dispatched by v0.2.10");
    expect(r.stdout).toMatch(/Settled: +the Partial run of operation \S+ acknowledged by carol at 2026-11-30T11:55:00Z\./u);
  });

  it("prints a resolution it does not know as written, never drops it", async () => {
    const r = await runCliWith(["migration", "billing", "-n", "app"], cluster({ resolution: "OperatorReset" }));
    expect(r.stdout).toMatch(/Settled: +the Partial run of operation \S+ settled: OperatorReset at /u);
    expect(resolutionWords(undefined, undefined)).toBe("settled (no resolution recorded)");
    expect(resolutionWords("Acknowledged", "")).toBe("acknowledged by <unknown>");
    expect(resolutionWords("x\u001b[31m", "")).not.toContain("\u001b");
  });

  it("keeps the approval's dispatcher empty when the run started before it was consumed", async () => {
    const reader = cluster();
    const m = migration({ resolution: "HistoryRead" });
    ((m.status as Raw).lastRun as Raw).startedAt = T1.replace("11:30", "11:00");
    reader.put("PtahMigration", m);
    const r = await runCliWith(["ledger", "migration", "billing", "-n", "app", "-o", "json"], reader);
    const items = (JSON.parse(r.stdout) as { items: Raw[] }).items;
    expect(items[0]?.dispatchedBy).toBeUndefined();
  });
});
