// Realms as they are used: a namespace-local coordinationKey's claimants (same key and engine in the
// namespace) and the Lease named after its coordination digest; a PtahRealm's sharing and namespaces
// where the reader may get it, and the conflict's cause (Exclusive: every claimant refused, whatever
// sharedRealm says); RealmNotAuthorized's cause named for whoever may read the realm, and for a
// tenant (403) that the three causes read alike and who can tell.
import { describe, expect, it } from "vitest";
import { realmLeaseName, realmOf } from "../../../src/commands/shared/realm-key.ts";
import { aMigration, aSchema } from "../../support/builders.ts";
import { runCliWith } from "../../support/cli.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { expectGolden } from "../../support/golden.ts";
import { aRealm, claiming, conflictConditions, notAuthorizedConditions, realmLease, running } from "../../support/realm-builders.ts";

const schema = (name: string, namespace: string, uid: string, phase = "InSync", conditions: Record<string, unknown>[] = []) => aSchema({ name, namespace, uid, phase, conditions });

function keyWorld() {
  const mine = claiming(schema("storefront", "app", "uid-a", "Blocked", conflictConditions({ claimants: 3, schemas: 2, undeclared: 2 })), { key: "orders" });
  const other = running(claiming(schema("storefront-b", "app", "uid-b", "Applying"), { key: "orders" }), "Apply", "op-9");
  const ledger = claiming(aMigration({ name: "ledger", namespace: "app", phase: "InSync", conditions: [] }), { key: "orders" }, { shared: true });
  // Not claimants: the same key in another namespace, another key, the same key under another engine.
  const elsewhere = claiming(schema("storefront", "shop", "uid-s"), { key: "orders" });
  const otherKey = claiming(schema("reports", "app", "uid-r"), { key: "reports" });
  const mysql = claiming(schema("legacy", "app", "uid-m"), { key: "orders" }, { engine: "mariadb" });
  const reader = new FakeReader([
    ...[mine, other, elsewhere, otherKey, mysql].map((raw) => ({ kind: "PtahSchema" as "PtahSchema" | "PtahMigration", raw })),
    { kind: "PtahMigration", raw: ledger },
  ]);
  return { reader, mine, other };
}

const withLeases = (leases: FakeInspector["leaseTable"], realms: FakeInspector["realms"] = {}): FakeInspector => Object.assign(new FakeInspector(), { leaseTable: leases, realms });

describe("a coordinationKey realm", () => {
  it("names the claimants in the namespace with the same key and engine, and the Lease its digest names, held by a claimant's Apply", async () => {
    const { reader, other } = keyWorld();
    const lease = realmLease(other, "op-9");
    const r = await runCliWith(["explain", "storefront", "-n", "app"], reader, { inspector: withLeases({ "ptah-system": [lease] }) });
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/realm-key-conflict.txt");
    expect(r.stdout).toContain("Realm orders (spec.target.coordinationKey in app):\n  Claimants:   ptahschema app/storefront-b (no sharedRealm), ptahmigration app/ledger\n");
    expect(r.stdout).toContain(`  Lease:       ptah-system/${lease.name} held by ptahschema app/storefront-b, operation op-9 (Apply), renewed `);
    // The key's claimants are read in its namespace only: no list across namespaces, no PtahRealm.
    expect(reader.requests.filter((q) => q.startsWith("list"))).not.toContain("list PtahSchema *");
    const status = await runCliWith(["status", "storefront", "-n", "app"], reader, { inspector: withLeases({ "ptah-system": [lease] }) });
    expect(status.stdout).toContain("  Claimants:   ptahschema app/storefront-b (no sharedRealm), ptahmigration app/ledger\n");
    expect(status.stdout).toContain(`  Lease:       ptah-system/${lease.name} held by ptahschema app/storefront-b`);
  });

  it("names the realm's own Lease and its holder when no claimant's operation holds one", async () => {
    const { reader, mine } = keyWorld();
    const name = realmLeaseName(realmOf(mine as never)!)!;
    const stranger = { name, holderIdentity: "ptah-h-stranger", renewTime: undefined, leaseDurationSeconds: 60 };
    const r = await runCliWith(["explain", "storefront", "-n", "app"], reader, { inspector: withLeases({ "ptah-system": [stranger] }) });
    expect(r.stdout).toContain(`  Lease:       ptah-system/${name} (this realm's) held by ptah-h-stranger, not an operation of these claimants\n`);
    const none = await runCliWith(["explain", "storefront", "-n", "app"], reader, { inspector: withLeases({ "ptah-system": [] }) });
    expect(none.stdout).toContain(`  Lease:       holder not identified (no Lease in ptah-system is held by an operation of these claimants, and none is named ${name})\n`);
  });
});

function refWorld(conditions: Record<string, unknown>[], othersShared = true) {
  const mine = claiming(schema("storefront", "app", "uid-a", "Blocked", conditions), { realm: "orders-db" }, { shared: true });
  const other = running(claiming(schema("storefront-b", "shop", "uid-b", "Applying"), { realm: "orders-db" }, { shared: othersShared }), "Apply", "op-7");
  const outsider = claiming(schema("intruder", "guest", "uid-g"), { realm: "orders-db" }, { shared: true });
  return new FakeReader([mine, other, outsider].map((raw) => ({ kind: "PtahSchema" as const, raw })));
}

describe("a PtahRealm the reader may get", () => {
  const exclusive = conflictConditions({ exclusiveRealm: "orders-db", claimants: 2, schemas: 2 });

  it("Exclusive: names the sharing and that every claimant is refused, whatever sharedRealm says; a namespace it does not list is not counted", async () => {
    const inspector = withLeases({}, { "orders-db": aRealm("Exclusive", ["app", "shop"]) });
    const r = await runCliWith(["explain", "storefront", "-n", "app"], refWorld(exclusive), { inspector });
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/realm-exclusive.txt");
    expect(r.stdout).toContain("  PtahRealm:   sharing Exclusive, engine PostgreSQL, namespaces app, shop\n");
    expect(r.stdout).toContain(
      "  Cause:       sharing Exclusive admits one claimant at a time: with 2 claiming it the operator refuses every one of them, whatever their sharedRealm says\n",
    );
    expect(inspector.requests).toContain("get ptahrealms/orders-db");
  });

  it("Shared: the cause is the claimants without sharedRealm", async () => {
    const undeclared = conflictConditions({ claimants: 2, schemas: 2, undeclared: 1 });
    const r = await runCliWith(["status", "storefront", "-n", "app"], refWorld(undeclared, false), {
      inspector: withLeases({}, { "orders-db": aRealm("Shared", ["app", "shop"]) }),
    });
    expect(r.stdout).toContain(
      "  Cause:       sharing Shared, but 1 of the 2 claimants have not set spec.target.sharedRealm: every one is refused until each declares the realm shared\n",
    );
  });

  it("RealmNotAuthorized: tells which of the three causes holds", async () => {
    const refused = notAuthorizedConditions("orders-db", "app");
    const cases: [FakeInspector["realms"], string][] = [
      [{}, "  Not admitted: PtahRealm orders-db does not exist\n"],
      [{ "orders-db": aRealm("Shared", ["shop", "guest"]) }, "  Not admitted: PtahRealm orders-db does not list namespace app (it lists shop, guest)\n"],
      [{ "orders-db": aRealm("Shared", ["app"], "MySQL") }, "  Not admitted: PtahRealm orders-db names engine MySQL; this resource names PostgreSQL\n"],
    ];
    for (const [realms, line] of cases) {
      const r = await runCliWith(["explain", "storefront", "-n", "app"], refWorld(refused), { inspector: withLeases({}, realms) });
      expect(r).toMatchObject({ status: 0, stderr: "" });
      expect(r.stdout).toContain(line);
    }
  });
});

describe("a PtahRealm the reader may not get (a tenant)", () => {
  it("RealmNotAuthorized: says the three causes read alike by design, and who can tell", async () => {
    const r = await runCliWith(["explain", "storefront", "-n", "app"], refWorld(notAuthorizedConditions("orders-db", "app")), { inspector: withLeases({}, "forbidden") });
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/realm-not-authorized-tenant.txt");
    expect(r.stdout).toContain("the operator words all three alike on purpose, so a tenant learns nothing of realms it may not see\n");
    expect(r.stdout).toMatch(
      /\n {2}Who can tell: you may not get ptahrealms\/orders-db \(.*\); the realm administrator role \(upstream's examples\/realm-administrator-role\.yaml\) can read it; upstream's author, approver and diagnostic roles cannot\n/u,
    );
  });

  it("a conflict: one line that the realm was not read, the rest as before", async () => {
    const r = await runCliWith(["explain", "storefront", "-n", "app"], refWorld(conflictConditions({ exclusiveRealm: "orders-db", claimants: 2, schemas: 2 })), {
      inspector: withLeases({}, "forbidden"),
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\n {2}PtahRealm: {3}not read: may not get ptahrealms\/orders-db \(its sharing decides a conflict; /u);
    expect(r.stdout).toContain("  Claimants:   ptahschema shop/storefront-b, ptahschema guest/intruder\n");
  });
});
