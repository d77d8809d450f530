// `status SCHEMA` sends its independent reads at once: the schema's GET and the namespace's
// approvals LIST are in flight together (the fake cluster holds each answer until the other
// request arrives, and fails after a bounded wait when they come one after another), and the
// realm section's reads go beside the LIST as soon as the schema is in. The view is the same.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { HeldInspector, HeldReader, Rendezvous } from "../../support/held-reads.ts";
import { runCliWith } from "../../support/cli.ts";
import { CONSUMED_AND_STALE, aMigration, aSchema, anApproval, awaitingSchema, cond } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { leaseHolderIdentity } from "../../../src/commands/shared/realm-key.ts";

const OBJECTS: FakeObject[] = [
  { kind: "PtahSchema", raw: awaitingSchema() },
  { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-old", conditions: CONSUMED_AND_STALE }) },
];
const SCHEMA_AND_APPROVALS = ["get PtahSchema app/storefront", "list PtahSchemaApproval app"];

describe("status SCHEMA: the schema and the approvals at once", () => {
  it("has the schema's GET and the approvals LIST in flight together, and prints the same view", async () => {
    const reader = new HeldReader(OBJECTS, new Rendezvous(SCHEMA_AND_APPROVALS));
    const r = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(reader.rendezvous.met).toBe(true);
    await expectGolden(r.stdout, "status/detail-awaiting.txt");
    // Nothing read that the view does not print: no plan, no other kind.
    expect([...reader.requests].sort()).toEqual(SCHEMA_AND_APPROVALS);
  });

  it("when both fail, the schema's NotFound is the error, even when the LIST's failure comes first", async () => {
    const slowGet = new (class extends FakeReader {
      override async get<K extends Parameters<FakeReader["get"]>[0]>(kind: K, namespace: string, name: string) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return super.get(kind, namespace, name);
      }
    })([]);
    const atOnce = new FakeReader([]);
    for (const cluster of [atOnce, slowGet]) {
      cluster.faults.set("list PtahSchemaApproval", new ReadError("the server is on fire", 500));
      const r = await runCliWith(["status", "nope", "-n", "app"], cluster);
      expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
      expect([...cluster.requests].sort()).toEqual(["get PtahSchema app/nope", "list PtahSchemaApproval app"]);
    }
  });

  it("a forbidden approvals LIST is still a gap in the view, the schema shown", async () => {
    const reader = new HeldReader(OBJECTS, new Rendezvous(SCHEMA_AND_APPROVALS));
    reader.faults.set("list PtahSchemaApproval", new ReadError('ptahschemaapprovals.operator.ptah.run is forbidden: User "v" cannot list resource', 403));
    const r = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(reader.rendezvous.met).toBe(true);
    expect(r.stdout).toContain("Approvals:     not shown: ptahschemaapprovals.operator.ptah.run is forbidden");
    expect(r.stderr).toMatch(/^Warning: approvals not shown: /u);
  });
});

describe("status SCHEMA: the realm section's reads beside the approvals LIST", () => {
  const CONFLICT = "This database realm is claimed by 2 resources and 1 of them has not set spec.target.sharedRealm.";
  const onRealm = (raw: Record<string, unknown>): Record<string, unknown> => {
    const r = structuredClone(raw) as { spec: { target: Record<string, unknown> } };
    r.spec.target = { ...r.spec.target, realmRef: { name: "orders-db" }, sharedRealm: false };
    delete r.spec.target.coordinationKey;
    return r as unknown as Record<string, unknown>;
  };
  const objects = (): FakeObject[] => {
    const other = onRealm(aSchema({ name: "storefront-b", namespace: "shop", uid: "uid-b", phase: "Applying", conditions: [] })) as { status: Record<string, unknown> };
    other.status.activeOperation = { type: "Apply", id: "op-7", jobName: "storefront-b-apply-7", startedAt: "2026-11-30T11:58:00Z", attempt: 1 };
    const blocked = [cond("Blocked", "True", "RealmConflict", CONFLICT), cond("Ready", "False", "RealmConflict", CONFLICT)];
    return [
      { kind: "PtahSchema", raw: onRealm(aSchema({ name: "storefront", namespace: "app", uid: "uid-a", phase: "Blocked", conditions: blocked })) },
      { kind: "PtahSchema", raw: other as Record<string, unknown> },
      { kind: "PtahMigration", raw: aMigration({ name: "ledger", namespace: "billing", phase: "InSync", conditions: [] }) },
    ];
  };
  const leases = {
    "ptah-system": [{ name: "ptah-t-abc", holderIdentity: leaseHolderIdentity("uid-b", "op-7"), renewTime: "2026-11-30T11:59:30.000000Z", leaseDurationSeconds: 60 }],
  };

  it("sends the claimants' lists and the admission read while the approvals LIST is in flight; the same text", async () => {
    const together = new Rendezvous(["list PtahSchemaApproval app", "list PtahSchema *", "list PtahMigration *", "get mutatingwebhookconfigurations/ptah-operator-admission"]);
    const held = new HeldInspector(together);
    held.leaseTable = leases;
    const plain = new FakeInspector();
    plain.leaseTable = leases;
    const reference = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader(objects()), { inspector: plain });
    const r = await runCliWith(["status", "storefront", "-n", "app"], new HeldReader(objects(), together), { inspector: held });
    expect(r.stderr).toBe("");
    expect(together.met).toBe(true);
    expect(r.stdout).toContain("Realm orders-db (spec.target.realmRef):");
    expect(r.stdout).toContain("  Lease:       ptah-system/ptah-t-abc held by ptahschema shop/storefront-b, operation op-7 (Apply)");
    expect(r).toMatchObject({ status: reference.status, stdout: reference.stdout, stderr: reference.stderr });
  });
});
