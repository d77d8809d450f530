// Tolerance: a list view shows every object that fits the model and warns once
// per object that does not; machine output prints every served object; a forbidden secondary
// read is a named gap, not a failed command.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { apiError } from "../../src/kube/api-errors.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { CONSUMED_AND_STALE, anApproval, awaitingSchema, inSyncSchema } from "../support/builders.ts";

/** Fits the CRD (activeOperation keeps unknown fields) but not the model (a reference is an object). */
function oddSchema(): Record<string, unknown> {
  const raw = inSyncSchema({ name: "odd", uid: "schema-uid-odd" });
  (raw.status as Record<string, unknown>).activeOperation = { type: "Apply", approvalRef: "storefront-v1" };
  return raw;
}

function forbidden(resource: string, namespace: string, group = "operator.ptah.run"): ReadError {
  const qualified = group ? `${resource}.${group}` : resource;
  const message = `${qualified} is forbidden: User "carol" cannot list resource "${resource}" in API group "${group}" in the namespace "${namespace}"`;
  const body = Buffer.from(JSON.stringify({ kind: "Status", message, reason: "Forbidden", code: 403 }));
  return apiError(403, body, { verb: "list", resource: qualified, namespace }) as ReadError;
}

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: oddSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    { kind: "PtahSchemaApproval", raw: { ...anApproval({ name: "broken" }), spec: { schemaRef: "storefront" } } },
  ]);
}

const ODD_WARNING =
  "Warning: not shown: ptahschema app/odd does not fit the PtahSchema model: status.activeOperation.approvalRef: invalid input: expected object, received string\n";

describe("a list with one object that does not fit the model", () => {
  it("status prints the others and one warning line naming kind, namespace/name and field; exit 0", async () => {
    const r = await runCliWith(["status", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      ODD_WARNING +
        "Warning: not shown: ptahschemaapproval app/broken does not fit the PtahSchemaApproval model: spec.schemaRef: invalid input: expected object, received string\n",
    );
    expect(r.stdout).toContain("storefront");
    expect(r.stdout).toContain("orders");
    expect(r.stdout).not.toContain("odd");
    await expectGolden(r.stdout, "tolerance/status-list.txt");
  });

  it("-o json and -o yaml print every served object as served, in the server's order", async () => {
    const r = await runCliWith(["status", "-n", "app", "-o", "json"], cluster());
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout) as { items: { metadata: { name: string }; status: { activeOperation?: unknown } }[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(["storefront", "odd", "orders"]);
    expect(list.items[1]!.status.activeOperation).toEqual({ type: "Apply", approvalRef: "storefront-v1" });
    const y = await runCliWith(["status", "-n", "app", "-o", "yaml"], cluster());
    expect(y.stdout).toContain("approvalRef: storefront-v1");
    const names = await runCliWith(["status", "-n", "app", "-o", "name"], cluster());
    expect(names.stdout).toContain("ptahschema.operator.ptah.run/odd\n");
  });

  it("a list where nothing fits still exits 0: the warnings, then kubectl's empty-list line", async () => {
    const r = await runCliWith(["status", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: oddSchema() }]));
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: ODD_WARNING + "No resources found in app namespace.\n" });
  });

  it("approvals prints the others, warns for the odd one and keeps it in -o json", async () => {
    const r = await runCliWith(["approvals", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("storefront-v1");
    expect(r.stdout).not.toContain("broken");
    expect(r.stderr).toContain("Warning: not shown: ptahschemaapproval app/broken does not fit the PtahSchemaApproval model: spec.schemaRef:");
    expect(r.stderr).toContain("ptahschema app/odd");
    const json = await runCliWith(["approvals", "-n", "app", "-o", "json"], cluster());
    expect((JSON.parse(json.stdout) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(["storefront-v1", "broken"]);
  });

  it("status SCHEMA of a schema that does not fit still fails with the model's line (the primary object)", async () => {
    const r = await runCliWith(["status", "odd", "-n", "app"], cluster());
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: ptahschema app\/odd does not fit the PtahSchema model: status\.activeOperation\.approvalRef/u);
  });
});

describe("a secondary read the caller may not make", () => {
  it("status SCHEMA prints the schema and names the approvals it could not list, in place and on stderr; exit 0", async () => {
    const reader = cluster();
    reader.faults.set("list PtahSchemaApproval", forbidden("ptahschemaapprovals", "app"));
    const r = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Name:          app/storefront");
    expect(r.stdout).toContain('  Approvals:     not shown: ptahschemaapprovals.operator.ptah.run is forbidden: User "carol" cannot list resource "ptahschemaapprovals"');
    expect(r.stdout).toContain('(needs an RBAC rule granting "list" on ptahschemaapprovals.operator.ptah.run)');
    expect(r.stderr).toMatch(/^Warning: approvals not shown: ptahschemaapprovals\.operator\.ptah\.run is forbidden: .*\n$/u);
    await expectGolden(r.stdout, "tolerance/status-detail-no-approvals.txt");
  });

  it("any other failure of the secondary read still fails the command", async () => {
    const reader = cluster();
    reader.faults.set("list PtahSchemaApproval", new ReadError("the server answered 500 to list ptahschemaapprovals", 500));
    const r = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 1, stdout: "" });
  });

  it("status (list) without approvals: the APPROVAL column from the schemas' status, and a warning", async () => {
    const reader = cluster();
    reader.faults.set("list PtahSchemaApproval", forbidden("ptahschemaapprovals", "app"));
    const r = await runCliWith(["status", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("storefront");
    expect(r.stderr).toContain("Warning: approvals (APPROVAL column from the schemas' status only) not shown: ptahschemaapprovals.operator.ptah.run is forbidden");
  });

  it("history prints the conditions and names the events it could not list", async () => {
    const reader = cluster();
    reader.faults.set("list Event", forbidden("events", "app", ""));
    const r = await runCliWith(["history", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("condition");
    expect(r.stdout).toMatch(/\nEvents: not shown: events is forbidden: User "carol" cannot list resource "events" .*\(needs an RBAC rule granting "list" on events\)\n$/u);
    expect(r.stderr).toMatch(/^Warning: events not shown: events is forbidden: /mu);
    await expectGolden(r.stdout, "tolerance/history-no-events.txt");
  });
});
