// Through the real kubectl on the lab: who holds a contested realm (its other claimants across
// namespaces and the Lease a claimant's Apply holds in ptah-system, the coordination namespace the
// operator's admission configuration names); doctor reading four-eyes exactly (the writer entries
// of ptah-operator-admission present, then absent) and the apply-policy guard (its Deny binding,
// exempt groups, and that lab-admin is exempt); and doctor and version telling a stand-in for
// upstream's Go kubectl-ptah on PATH from this plugin.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { admissionYaml, COORDINATION_NAMESPACE, labFourEyes } from "../../lab/admission.ts";
import { FIELD_MANAGER } from "../../lab/config.ts";
import { leaseHolderIdentity } from "../../src/commands/shared/realm-key.ts";
import { writeFakeUpstream } from "../support/fake-upstream-plugin.ts";
import { condition, createNamespace, createObject, kubectl, setStatus, uniqueName, type KubeObject } from "../support/lab.ts";
import { pluginEnv, ptah, runKubectl } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const CONFLICT =
  "This database realm is claimed by 2 resources (2 PtahSchema, 0 PtahMigration) and 2 of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.";

function onRealm(namespace: string, name: string, realm: string): KubeObject {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name, namespace },
    spec: {
      target: { engine: "PostgreSQL", realmRef: { name: realm }, urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "policy", key: "policy.json" } },
    },
  } as KubeObject;
}

function applyAdmission(fourEyes: boolean): void {
  kubectl(["apply", "--server-side", "--force-conflicts", `--field-manager=${FIELD_MANAGER}`, "-f", "-"], { input: admissionYaml(fourEyes) });
}

describe.skipIf(skip)("realms, four-eyes read exactly, and a second kubectl-ptah", { timeout: 180_000 }, () => {
  it("explain names a contested realm's claimants and the Lease held by the other claimant's Apply", () => {
    const realm = uniqueName("orders");
    const a = createNamespace("realm-a");
    const b = createNamespace("realm-b");
    const mine = createObject(onRealm(a, "storefront", realm));
    setStatus(mine, { phase: "Blocked", conditions: [condition("Blocked", "True", "RealmConflict", CONFLICT), condition("Ready", "False", "RealmConflict", CONFLICT)] });
    const other = createObject(onRealm(b, "storefront-b", realm));
    const startedAt = new Date().toISOString().replace(/\.\d+Z$/u, "Z");
    setStatus(other, { phase: "Applying", activeOperation: { type: "Apply", id: "op-7", jobName: "storefront-b-apply-7", startedAt, attempt: 1 } });
    const lease = uniqueName("ptah-t-e2e");
    createObject({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: lease, namespace: COORDINATION_NAMESPACE },
      spec: { holderIdentity: leaseHolderIdentity(other.metadata.uid!, "op-7"), leaseDurationSeconds: 60, renewTime: new Date().toISOString().replace("Z", "000Z") },
    } as KubeObject);

    const r = ptah(["explain", "storefront", "-n", a], "admin");
    expect(r.stderr).toBe("");
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain(`Realm ${realm} (spec.target.realmRef):\n  Claimants:   ptahschema ${b}/storefront-b (no sharedRealm)\n  This claim:  no sharedRealm\n`);
    expect(r.stdout).toMatch(new RegExp(`\\n  Lease: {7}${COORDINATION_NAMESPACE}/${lease} held by ptahschema ${b}/storefront-b, operation op-7 \\(Apply\\), renewed `, "u"));
    // ptah-viewer grants the realm reads (rbac/ptah-viewer.yaml): the viewer sees the holder too, in explain and status.
    for (const args of [
      ["explain", "storefront", "-n", a],
      ["status", "storefront", "-n", a],
    ]) {
      const viewer = ptah(args, "viewer");
      expect(viewer.status, viewer.stderr).toBe(0);
      expect(viewer.stdout).toContain(`  Claimants:   ptahschema ${b}/storefront-b (no sharedRealm)\n`);
      expect(viewer.stdout).toMatch(new RegExp(`\\n  Lease: {7}${COORDINATION_NAMESPACE}/${lease} held by ptahschema ${b}/storefront-b, operation op-7 `, "u"));
    }
    // Only the chart's approver role, in this namespace: the admission configuration is refused, and one line says so.
    kubectl(["create", "rolebinding", "chart-approver", "--clusterrole=ptah-operator-approver", "--user=chart-approver"], { namespace: a });
    const chart = ptah(["explain", "storefront", "-n", a, "--as", "chart-approver"], "admin");
    expect(chart.status, chart.stderr).toBe(0);
    expect(chart.stdout).toMatch(/\n {2}Lease: {7}not read: may not get mutatingwebhookconfigurations \(/u);
  });

  it("doctor reads four-eyes on and off from ptah-operator-admission, and the guard in force", () => {
    const base = labFourEyes();
    try {
      for (const on of [!base, base]) {
        applyAdmission(on);
        const r = ptah(["doctor"], "admin");
        expect(r.stdout).toMatch(
          on
            ? /^ {2}ok +four-eyes +on: ptah-operator-admission has mschemawriter\.operator\.ptah\.run and mmigrationwriter/mu
            : /^ {2}ok +four-eyes +off: ptah-operator-admission lacks /mu,
        );
        expect(r.stdout).toContain("realm Leases live in ptah-system (its operator.ptah.run/coordination-namespace annotation)");
        expect(r.stdout).toMatch(
          /^ {2}ok +apply-policy guard +in force: ptah-apply-policy-guard, binding ptah-apply-policy-guard \[Deny\]; exempt groups: ptah:apply-policy-admins, system:masters; you \(lab-admin\) are exempt, by group system:masters$/mu,
        );
      }
    } finally {
      applyAdmission(base);
    }
    // ptah-viewer reads both (rbac/ptah-viewer.yaml); the viewer is not exempt from the guard.
    const viewer = ptah(["doctor", "-n", "default"], "viewer");
    expect(viewer.stdout).toMatch(/^ {2}ok +four-eyes +(on|off): ptah-operator-admission /mu);
    expect(viewer.stdout).toMatch(/^ {2}ok +apply-policy guard +in force: .*you \(lab-viewer\) are not exempt/mu);
    // An account without those reads (only the chart's approver role, here) is told which read was refused.
    const ns = createNamespace("realm-chart");
    kubectl(["create", "rolebinding", "chart-approver", "--clusterrole=ptah-operator-approver", "--user=chart-approver"], { namespace: ns });
    const chart = ptah(["doctor", "-n", ns, "--as", "chart-approver"], "admin");
    expect(chart.stdout).toMatch(/^ {2}skipped +four-eyes +not read: may not get mutatingwebhookconfigurations\/ptah-operator-admission .*; inferred instead: /mu);
    expect(chart.stdout).toMatch(/^ {2}skipped +apply-policy guard +may not list validatingadmissionpolicies/mu);
    // The stuck row: refused in every namespace, read in its own, and said so.
    expect(chart.stdout).toMatch(
      new RegExp(
        `^ {2}ok +stuck resources +none: no schema or migration in ${ns} has stopped converging \\(0 read\\)\n {31}only ${ns} was read: may not list them in every namespace`,
        "mu",
      ),
    );
  });

  it("doctor and version tell upstream's Go kubectl-ptah on PATH from this plugin", () => {
    const upstream = mkdtempSync(path.join(tmpdir(), "ptah-upstream-"));
    const fake = writeFakeUpstream(upstream, "v0.2.10", true);
    const ours = process.env.PTAH_BIN_DIR!;
    const oursFirst = { PATH: `${ours}${path.delimiter}${upstream}${path.delimiter}${process.env.PATH ?? ""}` };
    const doctor = ptah(["doctor"], "admin", oursFirst);
    expect(doctor.stdout).toMatch(/^ {2}ok +plugin on PATH +kubectl ptah runs this plugin \(/mu);
    expect(doctor.stdout).toContain(`shadowed (never run by kubectl ptah): ${fake} — upstream's Go kubectl-ptah v0.2.10`);
    const version = ptah(["version", "--client"], "admin", oursFirst);
    expect(version.stdout).toContain(`kubectl-ptah on PATH, shadowed (never run by kubectl ptah): ${fake} — upstream's Go kubectl-ptah v0.2.10\n`);

    const upstreamFirst = { PATH: `${upstream}${path.delimiter}${ours}${path.delimiter}${process.env.PATH ?? ""}` };
    // kubectl now runs upstream's, which answers --version as upstream's does.
    expect(runKubectl(["ptah", "--version"], "admin", upstreamFirst).stdout).toBe("kubectl-ptah v0.2.10\n");
    // This plugin, started by its own path, says who shadows it and the fix.
    const env = { ...pluginEnv("admin"), ...upstreamFirst };
    const direct = spawnSync(path.join(ours, "kubectl-ptah"), ["version", "--client"], { encoding: "utf8", env });
    expect(direct.stdout).toContain(`kubectl-ptah on PATH, runs: ${fake} — upstream's Go kubectl-ptah v0.2.10\n`);
    expect(direct.stdout).toContain(`Fix: remove upstream's binary (rm ${fake}) or put this plugin's folder before ${upstream} on PATH`);
    const doctorDirect = spawnSync(path.join(ours, "kubectl-ptah"), ["doctor"], { encoding: "utf8", env });
    expect(doctorDirect.stdout).toMatch(
      new RegExp(`^ {2}problem +plugin on PATH +kubectl ptah runs ${fake.replaceAll("/", "\\/")} \\(upstream's Go kubectl-ptah v0\\.2\\.10\\), not this plugin`, "mu"),
    );
  });
});
