// Realms as they are used, through the real kubectl on the lab (the simulator simulates no realm,
// so the operator's refusals and a claimant's Apply are written as status by hand, in namespaces
// it leaves alone): two schemas sharing a coordinationKey, with the Lease the operator names from
// the key's coordination digest held by one's Apply; and an Exclusive PtahRealm, read by whoever
// may get it (the conflict's cause, which of RealmNotAuthorized's causes holds) and refused to a
// tenant with only the chart's approver role (who can tell, instead).
import { describe, expect, it } from "vitest";
import { COORDINATION_NAMESPACE } from "../../lab/admission.ts";
import { base32Lower, leaseHolderIdentity } from "../../src/commands/shared/realm-key.ts";
import { coordinationDigest } from "../sim/binding.ts";
import { condition, createNamespace, createObject, kubectl, setStatus, uniqueName, type KubeObject } from "../support/lab.ts";
import { ptah } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const now = (): string => new Date().toISOString().replace(/\.\d+Z$/u, "Z");

function schemaOn(namespace: string, name: string, target: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name, namespace },
    spec: {
      target: { engine: "PostgreSQL", urlFrom: { name: "db", key: "url" }, ...target },
      desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "policy", key: "policy.json" } },
    },
  } as KubeObject;
}

const blocked = (reason: string, message: string) => ({
  phase: "Blocked",
  conditions: [condition("Blocked", "True", reason, message), condition("Ready", "False", reason, message)],
});

describe.skipIf(skip)("realms keyed by coordinationKey, and a PtahRealm's sharing", { timeout: 180_000 }, () => {
  it("two schemas sharing a coordinationKey: claimants in the namespace and the Lease named from the key's digest", () => {
    const ns = createNamespace("realm-key");
    const key = "orders";
    const conflict =
      "This database realm is claimed by 2 resources (2 PtahSchema, 0 PtahMigration) and 2 of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.";
    const mine = createObject(schemaOn(ns, "storefront", { coordinationKey: key }));
    setStatus(mine, blocked("RealmConflict", conflict));
    const other = createObject(schemaOn(ns, "storefront-b", { coordinationKey: key }));
    setStatus(other, { phase: "Applying", activeOperation: { type: "Apply", id: "op-3", jobName: "storefront-b-apply-3", startedAt: now(), attempt: 1 } });
    // Not a claimant: another key in the same namespace.
    createObject(schemaOn(ns, "reports", { coordinationKey: "reports" }));
    // The Lease's name from the simulator's coordination digest (its own canonical JSON of the key).
    const digest = coordinationDigest(mine as never) as string;
    const lease = `ptah-t-${base32Lower(Buffer.from(digest.replace(/^sha256:/u, ""), "hex"))}`;
    kubectl(["delete", "lease", lease, "-n", COORDINATION_NAMESPACE, "--ignore-not-found"]);
    createObject({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: lease, namespace: COORDINATION_NAMESPACE },
      spec: { holderIdentity: leaseHolderIdentity(other.metadata.uid!, "op-3"), leaseDurationSeconds: 60, renewTime: new Date().toISOString().replace("Z", "000Z") },
    } as KubeObject);

    for (const args of [
      ["explain", "storefront", "-n", ns],
      ["status", "storefront", "-n", ns],
    ]) {
      const r = ptah(args, "viewer");
      expect(r.stderr).toBe("");
      expect(r.status, r.stdout).toBe(0);
      expect(r.stdout).toContain(
        `Realm ${key} (spec.target.coordinationKey in ${ns}):\n  Claimants:   ptahschema ${ns}/storefront-b (no sharedRealm)\n  This claim:  no sharedRealm\n`,
      );
      expect(r.stdout).toContain(`  Lease:       ${COORDINATION_NAMESPACE}/${lease} held by ptahschema ${ns}/storefront-b, operation op-3 (Apply), renewed `);
    }
    // Its Apply gone from status, the Lease is found by the name the key's digest gives it alone.
    setStatus(other, { phase: "Pending", activeOperation: null });
    const r = ptah(["explain", "storefront", "-n", ns], "viewer");
    expect(r.stdout).toContain(
      `  Lease:       ${COORDINATION_NAMESPACE}/${lease} (this realm's) held by ${leaseHolderIdentity(other.metadata.uid!, "op-3")}, not an operation of these claimants\n`,
    );
  });

  it("an Exclusive PtahRealm: the cause for a reader of realms, RealmNotAuthorized's cause, and a tenant told who can tell", () => {
    const a = createNamespace("realm-ex-a");
    const b = createNamespace("realm-ex-b");
    const c = createNamespace("realm-ex-c");
    const realm = uniqueName("exclusive");
    createObject({
      apiVersion: "operator.ptah.run/v1alpha1",
      kind: "PtahRealm",
      metadata: { name: realm },
      spec: { engine: "PostgreSQL", sharing: "Exclusive", namespaces: [a, b] },
    } as KubeObject);
    const exclusive = `This database realm is claimed by 2 resources (2 PtahSchema, 0 PtahMigration), and its PtahRealm "${realm}" admits one at a time. Nothing runs against the database until the others stop claiming it.`;
    setStatus(createObject(schemaOn(a, "storefront", { realmRef: { name: realm }, sharedRealm: true })), blocked("RealmConflict", exclusive));
    setStatus(createObject(schemaOn(b, "storefront", { realmRef: { name: realm }, sharedRealm: true })), blocked("RealmConflict", exclusive));
    const refused = `The PtahRealm "${realm}" does not admit this resource: it does not exist, it does not list namespace "${c}", or it names another engine. Nothing runs against the database until an administrator admits the namespace, and this resource is not counted against the ones the realm does admit.`;
    setStatus(createObject(schemaOn(c, "storefront", { realmRef: { name: realm }, sharedRealm: true })), blocked("RealmNotAuthorized", refused));

    // ptah-viewer may get ptahrealms (rbac/ptah-viewer.yaml).
    const viewer = ptah(["explain", "storefront", "-n", a], "viewer");
    expect(viewer.status, viewer.stderr).toBe(0);
    expect(viewer.stdout).toContain(`  PtahRealm:   sharing Exclusive, engine PostgreSQL, namespaces ${a}, ${b}\n`);
    expect(viewer.stdout).toContain(
      "  Cause:       sharing Exclusive admits one claimant at a time: with 2 claiming it the operator refuses every one of them, whatever their sharedRealm says\n",
    );
    expect(viewer.stdout).toContain(`ptahschema ${c}/storefront (not admitted)`);
    const admin = ptah(["explain", "storefront", "-n", c], "admin");
    expect(admin.status, admin.stderr).toBe(0);
    expect(admin.stdout).toContain(`  Not admitted: PtahRealm ${realm} does not list namespace ${c} (it lists ${a}, ${b})\n`);

    // A tenant with the chart's approver role only, in its namespace: the realm is refused to it.
    kubectl(["create", "rolebinding", "chart-approver", "--clusterrole=ptah-operator-approver", "--user=chart-approver"], { namespace: c });
    const tenant = ptah(["explain", "storefront", "-n", c, "--as", "chart-approver"], "admin");
    expect(tenant.status, tenant.stderr).toBe(0);
    expect(tenant.stdout).toContain(`is missing, does not list namespace ${c}, or names another engine: the operator words all three alike on purpose`);
    expect(tenant.stdout).toMatch(new RegExp(`\\n {2}Who can tell: you may not get ptahrealms/${realm} \\(.*forbidden.*\\); the realm administrator role `, "u"));
    kubectl(["create", "rolebinding", "chart-approver", "--clusterrole=ptah-operator-approver", "--user=chart-approver"], { namespace: a });
    const tenantA = ptah(["explain", "storefront", "-n", a, "--as", "chart-approver"], "admin");
    expect(tenantA.stdout).toMatch(new RegExp(`\\n {2}PtahRealm: {3}not read: may not get ptahrealms/${realm} \\(its sharing decides a conflict; `, "u"));
  });
});
