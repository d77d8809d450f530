// Pins at the operator's own strictness: a pin binds by name and UID, so one naming a plan that
// is missing, replaced (same name, another UID) or being deleted is a dangling pin (a section and
// exit 1); the migration's unresolved-run annotation names a pin of its own.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { expectGolden } from "../../support/golden.ts";

const NS = "app";
const API = "operator.ptah.run/v1alpha1";
const fp = (c: string) => `sha256:${c.repeat(64)}`;
const ref = (name: string, uid = `uid-${name}`) => ({ name, uid });

function schemaPlan(name: string, extra: Record<string, unknown> = {}): FakeObject {
  return {
    kind: "PtahSchemaPlan",
    raw: {
      apiVersion: API,
      kind: "PtahSchemaPlan",
      metadata: { name, namespace: NS, uid: `uid-${name}`, creationTimestamp: "2026-11-30T10:00:00Z", ...extra },
      spec: { schemaRef: ref("storefront"), fingerprint: fp("a"), statementCount: 1 },
    },
  };
}

function objects(): FakeObject[] {
  return [
    {
      kind: "PtahSchema",
      raw: {
        apiVersion: API,
        kind: "PtahSchema",
        metadata: { name: "storefront", namespace: NS, uid: "uid-storefront" },
        // The current plan was pruned by hand; the applied one was deleted and made again (new UID).
        status: { plan: { ...ref("plan-pruned"), fingerprint: fp("a") }, applied: { planRef: ref("plan-b", "uid-of-the-first-plan-b"), planFingerprint: fp("b") } },
      },
    },
    {
      kind: "PtahSchemaApproval",
      raw: { apiVersion: API, kind: "PtahSchemaApproval", metadata: { name: "storefront-v2", namespace: NS }, spec: { schemaRef: ref("storefront"), planRef: ref("plan-c") } },
    },
    {
      kind: "PtahMigration",
      raw: {
        apiVersion: API,
        kind: "PtahMigration",
        metadata: {
          name: "ledger",
          namespace: NS,
          uid: "uid-ledger",
          // Settled in status, still named by the annotation: the plan stays pinned.
          annotations: { "operator.ptah.run/unresolved-run": JSON.stringify({ outcome: "Partial", operationID: fp("7"), planRef: ref("mplan-9") }) },
        },
        status: {},
      },
    },
    schemaPlan("plan-b"),
    schemaPlan("plan-c", { deletionTimestamp: "2026-11-30T11:59:00Z" }),
    schemaPlan("plan-free"),
    {
      kind: "PtahMigrationPlan",
      raw: {
        apiVersion: API,
        kind: "PtahMigrationPlan",
        metadata: { name: "mplan-9", namespace: NS, uid: "uid-mplan-9", creationTimestamp: "2026-11-29T09:00:00Z" },
        spec: { migrationRef: ref("ledger"), fingerprint: fp("e"), migrations: [{ version: 1 }] },
      },
    },
  ];
}

const plans = (args: readonly string[], reader = new FakeReader(objects())) => runCliWith(["plans", ...args], reader, { namespace: NS });

describe("plans: dangling pins and the annotation pin", () => {
  it("reports each pin that reaches no live plan below the table, and exits 1", async () => {
    const r = await plans([]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('error: 3 dangling pins: a reference names a plan that is missing, replaced or being deleted (listed under "Dangling pins")\n');
    await expectGolden(r.stdout, "plans/dangling.txt");
    expect(r.stdout).toContain("app/ptahschema/storefront status.plan names a plan that does not exist: ptahschemaplan/plan-pruned");
    expect(r.stdout).toContain("app/ptahschema/storefront status.applied.planRef names a plan that was replaced (same name, another UID): ptahschemaplan/plan-b");
    expect(r.stdout).toContain("app/ptahschemaapproval/storefront-v2 spec.planRef names a plan that is being deleted: ptahschemaplan/plan-c");
  });

  it("counts the unresolved-run annotation's plan as a pin, so --unpinned never offers it", async () => {
    const r = await plans(["--unpinned", "-o", "name"]);
    expect(r.stdout).toBe("ptahschemaplan.operator.ptah.run/plan-free\n");
    // -o name feeds a delete: stdout stays names, the one error line spells out each finding, exit 1.
    expect(r.status).toBe(1);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: 3 dangling pins: .*app\/ptahschema\/storefront status\.plan names a plan that does not exist: ptahschemaplan\/plan-pruned/u);
    const table = await plans(["migration", "ledger"]);
    expect(table.stdout).toMatch(/mplan-9 .*ptahmigration\/ledger metadata\.annotations\[operator\.ptah\.run\/unresolved-run\]\.planRef/u);
    expect(table.status).toBe(0);
  });

  it("carries the findings beside the rows in -o json", async () => {
    const doc = JSON.parse((await plans(["-o", "json"])).stdout) as { danglingPins: { problem: string; plan: string }[] };
    expect(doc.danglingPins.map((d) => `${d.problem} ${d.plan}`)).toEqual(["replaced plan-b", "deleting plan-c", "missing plan-pruned"]);
  });

  it("an unreadable annotation names no plan", async () => {
    const reader = new FakeReader(objects());
    const m = objects()[2]!.raw as { metadata: { annotations: Record<string, string> } };
    m.metadata.annotations["operator.ptah.run/unresolved-run"] = "{not json";
    reader.put("PtahMigration", m);
    const r = await plans(["--unpinned", "-o", "name"], reader);
    expect(r.stdout).toContain("ptahmigrationplan.operator.ptah.run/mplan-9\n");
  });
});
