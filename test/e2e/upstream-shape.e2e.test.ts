// The lab's CRDs in upstream's newest shape: the generation annotations,
// plan contract 1, and a PtahSchema status whose plan and applied records must repeat the plan's
// bindings — the apiserver's own CRD validation refuses a record without them. Then a few of
// upstream's pinned command lines and outputs through the real kubectl.
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl, kubectlJson, resourceOf, setStatus, type KubeObject } from "../support/lab.ts";
import { labCurrentPlanStatus, publishPlanInLab, type LabPlan } from "../support/lab-publish.ts";
import { appliedStatus } from "../support/publish-plan.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;

let ns = "";
let schema: KubeObject;
let plan: LabPlan;

function patchStatus(name: string, status: Record<string, unknown>): { code: number; stderr: string } {
  const r = kubectl(["patch", resourceOf("PtahSchema"), name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })], { namespace: ns, check: false });
  return { code: r.code, stderr: r.stderr };
}

describe.skipIf(skip)("the lab in upstream's newest shape", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("shape");
    schema = createObject(schemaManifest(ns, "storefront"));
    const uid = (schema.metadata as { uid: string }).uid;
    plan = publishPlanInLab({
      schema: { name: "storefront", namespace: ns, uid },
      statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
    });
  });

  it("every CRD carries the reset generation's annotations, and plans are contract 1", () => {
    const crds = kubectlJson<{ items: KubeObject[] }>(["get", "crds"]).items.filter((c) => c.metadata.name.endsWith(".operator.ptah.run"));
    expect(crds).toHaveLength(10);
    for (const crd of crds) {
      const a = (crd.metadata as { annotations?: Record<string, string> }).annotations ?? {};
      expect([crd.metadata.name, a["operator.ptah.run/crd-schema-version"], a["operator.ptah.run/controller-state-version"]]).toEqual([crd.metadata.name, "1", "1"]);
    }
    const three = structuredClone(plan.plan) as KubeObject & { spec: Record<string, unknown> };
    three.metadata = { name: "ptah-plan-contract-three", namespace: ns };
    three.spec.contractVersion = 3;
    delete (three as { status?: unknown }).status;
    const r = kubectl(["create", "-f", "-"], { namespace: ns, input: JSON.stringify(three), check: false });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/spec\.contractVersion: Unsupported value: 3/u);
  });

  it("refuses a status.plan or status.applied without the plan's bindings", () => {
    const full = labCurrentPlanStatus(plan);
    const bare = { name: full.name, uid: full.uid, fingerprint: full.fingerprint, statementCount: 1, createdAt: full.createdAt };
    const r = patchStatus("storefront", { phase: "AwaitingApproval", plan: bare });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Invalid value");
    for (const field of ["artifactDigest", "executionBindingID", "actualStateFingerprint", "runnerProtocolVersion"])
      expect(r.stderr).toContain(`status.plan.${field}: Required value`);

    const applied = appliedStatus(plan.published, "2026-09-13T08:04:24Z", { copies: false });
    const a = patchStatus("storefront", { applied: { ...applied, planRef: { name: full.name, uid: full.uid } } });
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain("status.applied.coordinationDigest: Required value");
    expect(kubectlJson<KubeObject>(["get", resourceOf("PtahSchema"), "storefront"], { namespace: ns }).status?.plan).toBeUndefined();
  });

  it("accepts the record the operator writes, and the plugin verifies its binding copies", () => {
    setStatus(schema, { observedGeneration: 1, phase: "AwaitingApproval", plan: labCurrentPlanStatus(plan), conditions: [] });
    const r = ptah(["plan", "storefront", "-n", ns, "--verify"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/record bindings\s+ok\s+status\.plan repeats 20 of the plan's bindings/u);
    const detail = ptah(["status", "storefront", "-n", ns]);
    expect(detail.stdout).toContain("  Pins:          content, artifact, coordination, target identity,");
  });

  it("answers upstream's pinned command lines through kubectl", () => {
    const none = ptah([]);
    expect(none.status).toBe(2);
    expect(none.stdout).toContain("usage: kubectl ptah plan");
    expect(none.stdout).toContain("  --current              the plan the operator would run next (the default)\n");
    const unknown = ptah(["apply", "storefront"]);
    expect([unknown.status, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toContain('unknown command "apply"');
    const sql = ptah(["schema", "storefront", "-n", ns, "-o", "sql"]);
    expect([sql.status, sql.stdout]).toEqual([2, ""]);
    expect(sql.stderr).toContain('unknown output format "sql"; it is one of [text json]');
    const missing = ptah(["schema", "nope", "-n", ns]);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([3, "", `error: no PtahSchema by that name: ${ns}/nope\n`]);
    const view = ptah(["schema", "storefront", "-n", ns]);
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toContain(`Schema:           ${ns}/storefront\nPhase:            AwaitingApproval\nObserved:         not yet\n`);
    expect(view.stdout).toContain("  not approved\n\nkubectl ptah plan prints the SQL this plan holds.\n");
  });
});
