// Who holds the realm: explain SCHEMA on a RealmConflict names the other claimants (every namespace
// the caller may list) and, in the coordination namespace ptah-operator-admission names, the Lease
// held by a claimant's operation (holder identity ptah-h- + base32 of sha256(UID, NUL, operation));
// "holder not identified" where no Lease is explained so; a refused read is one line.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { base32Lower, leaseHolderIdentity } from "../../../src/commands/shared/realm-key.ts";
import { aMigration, aSchema, cond } from "../../support/builders.ts";
import { runCliWith } from "../../support/cli.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { expectGolden } from "../../support/golden.ts";

type Raw = Record<string, unknown> & { spec: Record<string, unknown>; status: Record<string, unknown> };
const CONFLICT =
  "This database realm is claimed by 3 resources (2 PtahSchema, 1 PtahMigration) and 2 of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.";

function onRealm(raw: Record<string, unknown>, shared = false): Raw {
  const r = structuredClone(raw) as Raw;
  const target: Record<string, unknown> = { ...(r.spec.target as Record<string, unknown>), realmRef: { name: "orders-db" }, sharedRealm: shared };
  delete target.coordinationKey;
  r.spec.target = target;
  return r;
}

function world(): FakeReader {
  const blocked = cond("Blocked", "True", "RealmConflict", CONFLICT);
  const mine = onRealm(aSchema({ name: "storefront", namespace: "app", uid: "uid-a", phase: "Blocked", conditions: [blocked, cond("Ready", "False", "RealmConflict", CONFLICT)] }));
  const other = onRealm(aSchema({ name: "storefront-b", namespace: "shop", uid: "uid-b", phase: "Applying", conditions: [] }));
  other.status.activeOperation = { type: "Apply", id: "op-7", jobName: "storefront-b-apply-7", startedAt: "2026-11-30T11:58:00Z", attempt: 1 };
  const migration = aMigration({ name: "ledger", namespace: "billing", phase: "InSync", conditions: [] }) as Raw;
  migration.spec.target = { engine: "PostgreSQL", realmRef: { name: "orders-db" }, sharedRealm: true };
  const elsewhere = aSchema({ name: "unrelated", namespace: "app", uid: "uid-z", phase: "InSync", conditions: [] });
  return new FakeReader([
    { kind: "PtahSchema", raw: mine },
    { kind: "PtahSchema", raw: other },
    { kind: "PtahMigration", raw: migration },
    { kind: "PtahSchema", raw: elsewhere },
  ]);
}

function inspector(leases: FakeInspector["leaseTable"]): FakeInspector {
  const i = new FakeInspector();
  i.leaseTable = leases;
  i.realms = { "orders-db": { engine: "PostgreSQL", sharing: "Shared", namespaces: ["app", "shop", "billing"] } };
  return i;
}

const HELD = { "ptah-system": [{ name: "ptah-t-abc", holderIdentity: leaseHolderIdentity("uid-b", "op-7"), renewTime: "2026-11-30T11:59:30.000000Z", leaseDurationSeconds: 60 }] };

describe("base32 and the holder identity", () => {
  it("encode as RFC 4648 in lower case without padding", () => {
    expect(base32Lower(Buffer.from("foobar"))).toBe("mzxw6ytboi");
    expect(base32Lower(Buffer.from("f"))).toBe("my");
    const sum = createHash("sha256").update("uid-b\0op-7").digest();
    expect(leaseHolderIdentity("uid-b", "op-7")).toBe(`ptah-h-${base32Lower(sum)}`);
    expect(leaseHolderIdentity("uid-b", "op-7")).toHaveLength(7 + 52);
  });
});

describe("explain SCHEMA on a RealmConflict", () => {
  it("names the other claimants, which lack sharedRealm, and the Lease's holder and operation", async () => {
    const r = await runCliWith(["explain", "storefront", "-n", "app"], world(), { inspector: inspector(HELD) });
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/realm-conflict.txt");
    expect(r.stdout).toContain("  Claimants:   ptahschema shop/storefront-b (no sharedRealm), ptahmigration billing/ledger\n");
    expect(r.stdout).toContain("  Lease:       ptah-system/ptah-t-abc held by ptahschema shop/storefront-b, operation op-7 (Apply)");
  });

  it("says holder not identified when no Lease is held by a claimant's operation", async () => {
    const r = await runCliWith(["explain", "storefront", "-n", "app"], world(), {
      inspector: inspector({ "ptah-system": [{ ...HELD["ptah-system"][0]!, holderIdentity: "ptah-h-someoneelse" }] }),
    });
    expect(r.stdout).toMatch(
      /\n {2}Lease: {7}holder not identified \(no Lease in ptah-system is held by an operation of these claimants, and none is named ptah-t-[a-z2-7]{52}\)\n/u,
    );
  });

  it("one line for each refused read: leases, the admission configuration, listing across namespaces", async () => {
    const leases = await runCliWith(["explain", "storefront", "-n", "app"], world(), { inspector: inspector("forbidden") });
    expect(leases.status).toBe(0);
    expect(leases.stdout).toMatch(/\n {2}Lease: {7}not read: may not list leases in ptah-system \(/u);
    const i = inspector(HELD);
    i.admission = "forbidden";
    expect((await runCliWith(["explain", "storefront", "-n", "app"], world(), { inspector: i })).stdout).toMatch(
      /\n {2}Lease: {7}not read: may not get mutatingwebhookconfigurations/u,
    );
    const narrow = world();
    narrow.faults.set("list PtahSchema *", new ReadError('ptahschemas.operator.ptah.run is forbidden: User "bob" cannot list resource "ptahschemas" at the cluster scope', 403));
    const r = await runCliWith(["explain", "storefront", "-n", "app"], narrow, { inspector: inspector(HELD) });
    expect(r.stdout).toContain("  may not list ptahschemas and ptahmigrations across namespaces: claimants in app only\n  Claimants:   no other resource claims it\n");
    expect(r.stdout).toContain("holder not identified");
  });
});
