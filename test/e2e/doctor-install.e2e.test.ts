// doctor's "confirm it installed" on the lab, through the real kubectl: the real API server's
// Established condition on every Ptah CRD, and the manager Deployment named by
// ptah-operator-admission's annotations. The lab runs no manager (the simulator is a process, not
// a Deployment), so the test names a Deployment of its own in the release namespace: created
// without status it is not Available (the lab has no controller to make it so), then its status
// is written as a Deployment controller would. The annotation is removed afterwards (the lab is
// shared; its own field manager leaves it alone).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl, setStatus, uniqueName, type KubeObject } from "../support/lab.ts";
import { migrationManifest, ptah } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const ANNOTATION = "operator.ptah.run/controller-deployment-name";
const RELEASE_NAMESPACE = "ptah-system";

let name = "";
let deployment: KubeObject;

function row(stdout: string, check: string): string {
  return stdout.split("\n").find((l) => new RegExp(`^ {2}\\S+ +${check} `, "u").test(l)) ?? "";
}

describe.skipIf(Boolean(skip))("doctor confirms the operator installed, on the lab", { timeout: 120_000 }, () => {
  beforeAll(() => {
    name = uniqueName("ptah-operator-e2e");
    deployment = createObject({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name, namespace: RELEASE_NAMESPACE },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "manager", image: "registry.lab/ptah-operator:e2e" }] } },
      },
    } as KubeObject);
    kubectl(["annotate", "--overwrite", "mutatingwebhookconfiguration", "ptah-operator-admission", `${ANNOTATION}=${name}`]);
  });

  afterAll(() => {
    kubectl(["annotate", "mutatingwebhookconfiguration", "ptah-operator-admission", `${ANNOTATION}-`], { check: false });
    kubectl(["delete", "deployment", name, "-n", RELEASE_NAMESPACE, "--wait=false"], { check: false });
  });

  it("every Ptah CRD is Established on the real API server", () => {
    const r = ptah(["doctor"], "admin");
    expect(row(r.stdout, "CRDs established")).toMatch(/^ {2}ok +CRDs established +all 8 Ptah CRDs report Established=True$/u);
  });

  it("a manager Deployment that is not Available is a problem, exit 1; Available, it is ok", () => {
    const before = ptah(["doctor"], "admin");
    expect(before.status, before.stdout).toBe(1);
    expect(row(before.stdout, "manager")).toBe(`  problem  manager             deployment ${RELEASE_NAMESPACE}/${name} is not Available: no Available condition`);
    setStatus(deployment, {
      observedGeneration: 1,
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [{ type: "Available", status: "True", reason: "MinimumReplicasAvailable", message: "Deployment has minimum availability." }],
    });
    const after = ptah(["doctor"], "admin");
    expect(row(after.stdout, "manager")).toBe(`  ok       manager             deployment ${RELEASE_NAMESPACE}/${name} is Available`);
  });

  it("names the operator release: the chart's name on ptah-operator-admission, the CRDs' schema version, the newest dispatch's manager", () => {
    // A run's record as the manager writes it, in a namespace the simulator leaves alone.
    const ns = createNamespace("release");
    const finishedAt = new Date().toISOString().replace(/\.\d{3}Z$/u, "Z");
    const dispatchedBy = {
      controllerImage: `registry.lab/ptah-operator@sha256:${"a".repeat(64)}`,
      controllerRevision: "v0.2.10",
      runnerImage: `registry.lab/ptah-runner@sha256:${"b".repeat(64)}`,
    };
    createObject({
      ...migrationManifest(ns, "ran"),
      status: { phase: "InSync", lastRun: { outcome: "Applied", jobName: "ran-apply", startedAt: finishedAt, finishedAt, dispatchedBy } },
    } as KubeObject);
    const r = ptah(["doctor"], "admin");
    const at = r.stdout.indexOf("  ok       operator release    release ptah\n");
    expect(at, r.stdout).toBeGreaterThanOrEqual(0);
    const [crds, manager] = r.stdout
      .slice(at)
      .split("\n")
      .slice(1, 3)
      .map((l) => l.trim());
    expect(crds).toMatch(/^CRDs: crd-schema-version \d+, crd-schema-digest \S+ on all 8$/u);
    // The newest dispatch of the whole shared lab: this one, or one recorded after it.
    const m = /^manager: \S+ \S+, runner \S+ \(the newest dispatch read: ptah(schema|migration) \S+ at (\S+)\)$/u.exec(manager ?? "");
    expect(m, manager).not.toBeNull();
    expect(Date.parse(m![2]!)).toBeGreaterThanOrEqual(Date.parse(finishedAt));
  });

  it("version names the release and the CRDs' schema too", () => {
    const r = ptah(["version"], "admin");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("\nOperator Release: ptah\n");
    expect(r.stdout).toMatch(/\nCRD Schema: crd-schema-version \d+, crd-schema-digest \S+ on all 8\n$/u);
  });

  it("a viewer, who may read the admission configuration but not the Deployment, is told the row was skipped and why", () => {
    const r = ptah(["doctor"], "viewer");
    expect(row(r.stdout, "manager")).toMatch(
      new RegExp(`^ {2}skipped +manager +may not get deployment ${RELEASE_NAMESPACE}/${name}: deployments\\.apps "${name}" is forbidden`, "u"),
    );
  });
});
