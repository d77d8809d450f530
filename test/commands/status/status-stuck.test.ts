// `status --stuck` and the STUCK column: what stopped converging, as the operator's operations
// guide defines it, each row with why, and each object's next command below the tables.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, aSchema, cond, inSyncSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

type Raw = Record<string, unknown>;
const READY = [cond("Ready", "True", "InSync", "In sync")];
// FIXED_NOW is 2026-11-30T12:00:00Z.
const FIVE_MIN_AGO = "2026-11-30T11:55:00Z";
const HOUR_AGO = "2026-11-30T11:00:00Z";
const LATER = "2026-11-30T12:10:00Z";

function withStatus(raw: Raw, status: Raw, spec: Raw = {}): Raw {
  return { ...raw, spec: { ...(raw.spec as Raw), ...spec }, status: { ...(raw.status as Raw), ...status } };
}

function schema(name: string, phase: string, status: Raw, spec: Raw = {}): Raw {
  return withStatus(aSchema({ name, namespace: "app", uid: `uid-${name}`, phase, conditions: READY }), status, spec);
}

const op = (startedAt: string, extra: Raw = {}): Raw => ({ type: "Apply", id: "op-1", jobName: "apply-1", startedAt, attempt: 1, ...extra });

function stuckCluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: schema("overdue", "InSync", { nextReconciliationTime: FIVE_MIN_AGO }) },
    { kind: "PtahSchema", raw: schema("late", "InSync", { nextReconciliationTime: HOUR_AGO }, { execution: { activeDeadlineSeconds: 900 } }) },
    { kind: "PtahSchema", raw: schema("on-time", "InSync", { nextReconciliationTime: LATER }) },
    // Suspended: its past time means nothing.
    { kind: "PtahSchema", raw: schema("suspended", "Suspended", { nextReconciliationTime: HOUR_AGO }, { suspend: true }) },
    { kind: "PtahSchema", raw: schema("stalled", "Applying", { activeOperation: op(HOUR_AGO) }) },
    // Past its deadline but inside a declared retry delay: waiting on purpose.
    { kind: "PtahSchema", raw: schema("retrying", "Applying", { activeOperation: op(HOUR_AGO, { retryNotBefore: LATER }) }) },
    // Inside its own (longer) deadline.
    { kind: "PtahSchema", raw: schema("working", "Applying", { activeOperation: op(HOUR_AGO) }, { execution: { activeDeadlineSeconds: 7200 } }) },
    {
      kind: "PtahSchema",
      raw: schema("lock-owed", "InSync", { pendingLockRelease: { coordinationDigest: "sha256:aa", operationID: "op-2", leaseDurationSeconds: 60, leaseEpoch: "v1-00" } }),
    },
    { kind: "PtahSchema", raw: schema("unknown", "VerifyingConvergence", { pendingObservation: { outcome: "OutcomeUnknown", applyOperationID: "op-3" } }) },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "fine", uid: "uid-fine", namespace: "shop" }) },
    {
      kind: "PtahMigration",
      raw: aMigration({
        name: "partial",
        phase: "Blocked",
        conditions: [cond("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for")],
        status: { unresolvedRun: { outcome: "Partial", operationID: "sha256:77", jobName: "billing-apply", recordedAt: HOUR_AGO } },
      }),
    },
    {
      kind: "PtahMigration",
      raw: aMigration({
        name: "settled",
        phase: "InSync",
        conditions: READY,
        status: {
          unresolvedRun: { outcome: "Partial", operationID: "sha256:88", jobName: "x", recordedAt: HOUR_AGO },
          resolvedRun: { operationID: "sha256:88", outcome: "Partial", resolution: "HistoryRead", resolvedAt: FIVE_MIN_AGO },
        },
      }),
    },
    { kind: "PtahMigration", raw: aMigration({ name: "quiet", phase: "InSync", conditions: READY, status: { nextReconciliationTime: LATER } }) },
  ]);
}

describe("status --stuck", () => {
  it("lists only what stopped converging, with why and each one's next command", async () => {
    const r = await runCliWith(["status", "-A", "--stuck"], stuckCluster());
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    await expectGolden(r.stdout, "status/stuck-all.txt");
    for (const name of ["on-time", "suspended", "retrying", "working", "fine", "settled", "quiet"]) expect(r.stdout).not.toMatch(new RegExp(`/${name} `, "u"));
  });

  it("puts the STUCK column under -o wide for every row", async () => {
    const r = await runCliWith(["status", "-n", "app", "-o", "wide"], stuckCluster());
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ptahschema\/overdue .* overdue 5m\n/u);
    expect(r.stdout).toMatch(/ptahschema\/late .* late 60m \(nothing is working on it\)\n/u);
    expect(r.stdout).toMatch(/ptahschema\/on-time .* -\n/u);
    expect(r.stdout).not.toContain("Next:");
  });

  it("prints only the stuck objects as served for -o name and -o json", async () => {
    const names = await runCliWith(["status", "-A", "--stuck", "-o", "name"], stuckCluster());
    expect(names.stdout.split("\n").filter(Boolean).sort()).toEqual(
      [
        "ptahmigration.operator.ptah.run/partial",
        "ptahschema.operator.ptah.run/late",
        "ptahschema.operator.ptah.run/lock-owed",
        "ptahschema.operator.ptah.run/overdue",
        "ptahschema.operator.ptah.run/stalled",
        "ptahschema.operator.ptah.run/unknown",
      ].sort(),
    );
    const json = JSON.parse((await runCliWith(["status", "-A", "--stuck", "-o", "json"], stuckCluster())).stdout) as { items: unknown[] };
    expect(json.items).toHaveLength(6);
  });

  it("says nothing is stuck on stderr, exit 0", async () => {
    const r = await runCliWith(["status", "-n", "shop", "--stuck"], stuckCluster());
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "Nothing is stuck in shop namespace.\n" });
  });

  it("leaves out an object whose stuck fields do not fit, with one warning line, and shows the rest", async () => {
    const reader = stuckCluster();
    reader.put("PtahSchema", schema("misfit", "InSync", { nextReconciliationTime: 42 }));
    const r = await runCliWith(["status", "-A", "--stuck"], reader);
    expect(r.status).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^Warning: not shown: .*misfit.*nextReconciliationTime/u);
    expect(r.stdout).toContain("ptahschema/overdue");
  });

  it("refuses --stuck with a name or --watch", async () => {
    expect((await runCliWith(["status", "storefront", "--stuck"], stuckCluster())).status).toBe(2);
    expect((await runCliWith(["status", "--stuck", "--watch"], stuckCluster())).status).toBe(2);
  });
});
