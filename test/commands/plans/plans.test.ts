// `kubectl ptah plans`: every stored plan and every reference that pins it, through the real
// shell. The table of pins is the rule: each field upstream's operations guide names pins, and
// nothing else does.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { expectGolden } from "../../support/golden.ts";

const NS = "app";
const API = "operator.ptah.run/v1alpha1";
const fp = (c: string) => `sha256:${c.repeat(64)}`;

function schemaPlan(name: string, owner: string, created: string, statements = 2): FakeObject {
  return {
    kind: "PtahSchemaPlan",
    raw: {
      apiVersion: API,
      kind: "PtahSchemaPlan",
      metadata: { name, namespace: NS, uid: `uid-${name}`, creationTimestamp: created },
      spec: { schemaRef: { name: owner, uid: `uid-${owner}` }, fingerprint: fp(name.slice(-1).replace("g", "0")), statementCount: statements },
    },
  };
}

function migrationPlan(name: string, owner: string, created: string): FakeObject {
  return {
    kind: "PtahMigrationPlan",
    raw: {
      apiVersion: API,
      kind: "PtahMigrationPlan",
      metadata: { name, namespace: NS, uid: `uid-${name}`, creationTimestamp: created },
      spec: { migrationRef: { name: owner, uid: `uid-${owner}` }, fingerprint: fp("e"), migrations: [{ version: 1 }, { version: 2 }, { version: 3 }] },
    },
  };
}

const ref = (name: string) => ({ name, uid: `uid-${name}` });

function objects(): FakeObject[] {
  return [
    {
      kind: "PtahSchema",
      raw: {
        apiVersion: API,
        kind: "PtahSchema",
        metadata: { name: "storefront", namespace: NS, uid: "uid-storefront" },
        status: {
          plan: { ...ref("plan-a"), fingerprint: fp("a") },
          applied: { planRef: ref("plan-b"), planFingerprint: fp("b") },
          pendingObservation: { outcome: "OutcomeUnknown", plan: { ...ref("plan-c"), fingerprint: fp("c") } },
          pendingBindingRetirement: { retiredEpoch: `v1-${"0".repeat(32)}`, plan: { ...ref("plan-d"), fingerprint: fp("d") } },
        },
      },
    },
    { kind: "PtahSchema", raw: { apiVersion: API, kind: "PtahSchema", metadata: { name: "billing-db", namespace: NS, uid: "uid-billing-db" }, status: {} } },
    {
      kind: "PtahSchemaApproval",
      raw: {
        apiVersion: API,
        kind: "PtahSchemaApproval",
        metadata: { name: "storefront-v1", namespace: NS },
        spec: { schemaRef: ref("storefront"), planRef: ref("plan-f"), planFingerprint: fp("f") },
      },
    },
    {
      kind: "PtahSchemaApproval",
      raw: {
        apiVersion: API,
        kind: "PtahSchemaApproval",
        metadata: { name: "storefront-v2", namespace: NS },
        spec: { schemaRef: ref("storefront"), planRef: ref("plan-b"), planFingerprint: fp("b") },
      },
    },
    {
      kind: "PtahMigration",
      raw: {
        apiVersion: API,
        kind: "PtahMigration",
        metadata: { name: "ledger", namespace: NS, uid: "uid-ledger" },
        status: { plan: ref("mplan-1"), activeOperation: { type: "Apply", planRef: ref("mplan-2") }, unresolvedRun: { outcome: "Partial", planRef: ref("mplan-3") } },
      },
    },
    {
      kind: "PtahMigrationApproval",
      raw: {
        apiVersion: API,
        kind: "PtahMigrationApproval",
        metadata: { name: "ledger-v4", namespace: NS },
        spec: { migrationRef: ref("ledger"), planRef: ref("mplan-4"), planFingerprint: fp("e") },
      },
    },
    schemaPlan("plan-a", "storefront", "2026-11-30T10:00:00Z"),
    schemaPlan("plan-b", "storefront", "2026-11-29T10:00:00Z"),
    schemaPlan("plan-c", "storefront", "2026-11-29T11:00:00Z"),
    schemaPlan("plan-d", "storefront", "2026-11-28T10:00:00Z"),
    schemaPlan("plan-e", "storefront", "2026-11-27T10:00:00Z", 5),
    schemaPlan("plan-f", "storefront", "2026-11-26T10:00:00Z"),
    schemaPlan("plan-g", "billing-db", "2026-11-25T10:00:00Z", 1),
    // Another namespace's approval naming plan-e pins nothing here: references are namespace-local.
    { kind: "PtahSchemaApproval", raw: { apiVersion: API, kind: "PtahSchemaApproval", metadata: { name: "elsewhere", namespace: "other" }, spec: { planRef: ref("plan-e") } } },
    migrationPlan("mplan-1", "ledger", "2026-11-30T09:00:00Z"),
    migrationPlan("mplan-2", "ledger", "2026-11-29T09:00:00Z"),
    migrationPlan("mplan-3", "ledger", "2026-11-28T09:00:00Z"),
    migrationPlan("mplan-4", "ledger", "2026-11-27T09:00:00Z"),
    migrationPlan("mplan-5", "ledger", "2026-11-26T09:00:00Z"),
  ];
}

const plans = (args: readonly string[], reader = new FakeReader(objects())) => runCliWith(["plans", ...args], reader, { namespace: NS });

describe("plans", () => {
  it("lists every stored plan with each reference that pins it, named by object and field", async () => {
    const r = await plans([]);
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "plans/all.txt");
  });

  it.each<[string, string, string]>([
    ["status.plan", "plan-a", "ptahschema/storefront status.plan"],
    ["status.applied.planRef", "plan-b", "ptahschema/storefront status.applied.planRef"],
    ["status.pendingObservation.plan", "plan-c", "ptahschema/storefront status.pendingObservation.plan"],
    ["status.pendingBindingRetirement.plan", "plan-d", "ptahschema/storefront status.pendingBindingRetirement.plan"],
    ["an approval's spec.planRef", "plan-f", "ptahschemaapproval/storefront-v1 spec.planRef"],
    ["a migration's status.plan", "mplan-1", "ptahmigration/ledger status.plan"],
    ["a migration's status.activeOperation.planRef", "mplan-2", "ptahmigration/ledger status.activeOperation.planRef"],
    ["a migration's status.unresolvedRun.planRef", "mplan-3", "ptahmigration/ledger status.unresolvedRun.planRef"],
    ["a migration approval's spec.planRef", "mplan-4", "ptahmigrationapproval/ledger-v4 spec.planRef"],
  ])("%s pins the plan it names", async (_field, plan, pin) => {
    const r = await plans(["-o", "json"]);
    const item = (JSON.parse(r.stdout) as { items: { name: string; pinnedBy: { kind: string; name: string; field: string }[] }[] }).items.find((i) => i.name === plan)!;
    expect(item.pinnedBy.map((p) => `${p.kind.toLowerCase()}/${p.name} ${p.field}`)).toContain(pin);
  });

  it("--unpinned -o name prints exactly the plans nothing references, as kubectl delete takes them", async () => {
    const r = await plans(["--unpinned", "-o", "name"]);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.stdout).toBe(["ptahschemaplan.operator.ptah.run/plan-g", "ptahschemaplan.operator.ptah.run/plan-e", "ptahmigrationplan.operator.ptah.run/mplan-5", ""].join("\n"));
  });

  it("narrows to one schema's plans (pins still read from the whole namespace), or one migration's", async () => {
    const r = await plans(["storefront", "--unpinned"]);
    await expectGolden(r.stdout, "plans/storefront-unpinned.txt");
    const m = await plans(["migration", "ledger", "--unpinned", "-o", "name"]);
    expect(m.stdout).toBe("ptahmigrationplan.operator.ptah.run/mplan-5\n");
    const gone = await plans(["nope"]);
    expect(gone).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
  });

  it("refuses rather than guess when an object that could pin a plan does not fit the model", async () => {
    const bad: FakeObject = {
      kind: "PtahSchemaApproval",
      raw: { apiVersion: API, kind: "PtahSchemaApproval", metadata: { name: "odd", namespace: NS }, spec: { planRef: { name: 7 } } },
    };
    const r = await plans(["--unpinned", "-o", "name"], new FakeReader([...objects(), bad]));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: ptahschemaapproval app\/odd does not fit the PtahSchemaApproval model: [^\n]+\n$/u);
  });

  it("sends only lists, of the two plan kinds, the two owners and the two approval kinds", async () => {
    const reader = new FakeReader(objects());
    await plans(["-A"], reader);
    expect([...reader.requests].sort()).toEqual(
      ["list PtahMigration *", "list PtahMigrationApproval *", "list PtahMigrationPlan *", "list PtahSchema *", "list PtahSchemaApproval *", "list PtahSchemaPlan *"].sort(),
    );
  });

  it.each<[string, string[], string]>([
    ["-o csv", ["-o", "csv"], 'unknown output format "csv"; it is one of [wide json yaml name]'],
    ["a name with -A", ["storefront", "-A"], "a name cannot be combined with --all-namespaces"],
  ])("refuses %s as a usage error", async (_n, argv, message) => {
    const r = await plans(argv);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.connects).toBe(0);
  });
});
