// A migration captured mid-Apply on the lab, through the real kubectl: the simulator claims the
// approval and holds the run (its lab knob `hold-phase: Applying`), so the migration stays
// `Applying` with `activeOperation.approvalRef` naming the approval in use. The operator leaves
// Ready as the wait wrote it (`Ready=False AwaitingApproval`, operator-api.md §3.3: claiming an
// Apply sets Progressing and ApprovalRequired only); the simulator writes `ApprovedPlan`, so the
// test puts the operator's Ready back through the status subresource, as the manager would have
// left it. A held migration is never written again by the simulator, so the state stays.
import { beforeAll, describe, expect, it } from "vitest";
import { getObject, kubectl, setStatus, type KubeObject } from "../support/lab.ts";
import { ptah } from "../support/plugin.ts";
import { createScenarioNamespace, waitForSimulator } from "../scenarios/runner.ts";

const skip = process.env.PTAH_E2E_SKIP;

const SETUP = `apiVersion: v1
kind: ConfigMap
metadata: {name: migration-policy}
immutable: true
data:
  policy.json: '{"artifactType":"application/vnd.ptah.migrations.v1"}'
---
apiVersion: v1
kind: Secret
metadata: {name: shop-db}
stringData: {url: postgres://shop@db.lab:5432/shop}
---
apiVersion: operator.ptah.run/v1alpha1
kind: PtahMigration
metadata:
  name: held-run
  annotations: {lab.ptah.run/hold-phase: Applying}
spec:
  target: {engine: PostgreSQL, coordinationKey: held-run, urlFrom: {name: shop-db, key: url}}
  artifact: {ociRef: "oci://registry.lab/migrations/billing:v1", verificationPolicyFrom: {name: migration-policy, key: policy.json}}
`;

interface Status {
  phase?: string;
  activeOperation?: { type?: string; approvalRef?: { name?: string } };
  conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string; observedGeneration?: number }[];
}

let ns = "";

describe.skipIf(Boolean(skip))("a migration captured mid-Apply on the lab", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await waitForSimulator();
    ns = createScenarioNamespace("mid-apply");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: SETUP });
    const waiting = ptah(["wait", "migration", "held-run", "-n", ns, "--for=condition=ApprovalRequired=True", "--timeout=90s"]);
    expect(waiting.status, waiting.stderr).toBe(0);
    const approved = kubectl(["create", "-f", "-"], { as: "approver", input: ptah(["approve", "migration", "held-run", "-n", ns, "--name", "held-run-v1"], "approver").stdout });
    expect(approved.code, approved.stderr).toBe(0);
    const applying = ptah(["wait", "migration", "held-run", "-n", ns, "--for=phase=Applying", "--timeout=90s"]);
    expect(applying.status, applying.stderr).toBe(0);
    const m = getObject<KubeObject & { status: Status }>("PtahMigration", "held-run", ns)!;
    expect(m.status.activeOperation?.approvalRef?.name).toBe("held-run-v1");
    // The operator's Ready after the claim: still the wait's, from before the Apply began.
    const before = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/u, "Z");
    const conditions = m.status.conditions.map((c) =>
      c.type === "Ready" ? { ...c, reason: "AwaitingApproval", message: "The plan is waiting for the approval its policy requires", lastTransitionTime: before } : c,
    );
    setStatus(m, { conditions });
  });

  it("is the contract's state: Applying, the approval in use, Ready still the wait's", () => {
    const m = getObject<KubeObject & { status: Status }>("PtahMigration", "held-run", ns)!;
    expect(m.status.phase).toBe("Applying");
    expect(m.status.activeOperation?.type).toBe("Apply");
    const ready = m.status.conditions.find((c) => c.type === "Ready");
    const required = m.status.conditions.find((c) => c.type === "ApprovalRequired");
    expect([ready?.status, ready?.reason]).toEqual(["False", "AwaitingApproval"]);
    expect([required?.status, required?.reason]).toEqual(["False", "Satisfied"]);
  });

  it("explain says Ready is older than the phase, is not told to approve, and its Next is not itself", () => {
    const r = ptah(["explain", "migration", "held-run", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`ptahmigration ${ns}/held-run is Applying.\n`);
    expect(r.stdout).toMatch(
      /Newer: +Ready=False AwaitingApproval \(set 10m ago\) is older than phase Applying with approval held-run-v1 in use \(taken \S+ ago\); the wait it reports is over\./u,
    );
    expect(r.stdout).toContain("To do:      Nothing to approve: approval held-run-v1 is in use.");
    expect(r.stdout).toContain(`Next:       the approved run is in progress; follow it with: kubectl ptah wait migration held-run -n ${ns} --for=phase=InSync`);
    expect(r.stdout).not.toMatch(/approve it|kubectl ptah approve|kubectl ptah explain migration held-run/u);
  });

  it("the status list's READY says Ready is older than the phase beside it", () => {
    const r = ptah(["status", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^(ptahmigration\/)?held-run +Applying +False \(AwaitingApproval, older than phase\) /mu);
  });

  it("wait --for=condition=…,reason=… holds only for the reason Ready has", () => {
    const held = ptah(["wait", "migration", "held-run", "-n", ns, "--for=condition=Ready=False,reason=AwaitingApproval", "--timeout=0"]);
    expect(held.status, held.stderr).toBe(0);
    expect(held.stdout).toBe("ptahmigration.operator.ptah.run/held-run condition Ready=False,reason=AwaitingApproval met\n");
    const other = ptah(["wait", "migration", "held-run", "-n", ns, "--for=condition=Ready=False,reason=ApprovedPlan", "--timeout=0"]);
    expect(other.status).toBe(1);
    expect(other.stdout).toBe("");
    expect(other.stderr).toMatch(
      /^error: timed out waiting for condition Ready=False,reason=ApprovedPlan on ptahmigration\.operator\.ptah\.run\/held-run; last seen: phase Applying, Ready=False \(AwaitingApproval\)\n$/u,
    );
  });

  it("inbox does not offer the migration for approval", () => {
    const r = ptah(["inbox", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("held-run");
  });

  it("approve refuses it: nothing waits for an approval while one is in use", () => {
    const r = ptah(["approve", "migration", "held-run", "-n", ns], "approver");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /u);
  });
});
