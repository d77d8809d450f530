import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { CONSUMED_AND_STALE, FP2, PLAN2, T2, anApproval, awaitingSchema, cond, inSyncSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function cluster(): FakeReader {
  const reserved = awaitingSchema({
    plan: {
      name: PLAN2,
      uid: `uid-${PLAN2}`,
      fingerprint: FP2,
      statementCount: 2,
      approval: { name: "storefront-v2", uid: "approval-uid-storefront-v2", approver: { username: "bob" }, approvedAt: T2 },
    },
  });
  return new FakeReader([
    { kind: "PtahSchema", raw: reserved },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v2", plan: PLAN2, fingerprint: FP2, approver: "bob", created: T2 }) },
    {
      kind: "PtahSchemaApproval",
      raw: anApproval({
        name: "storefront-dup",
        plan: PLAN2,
        fingerprint: FP2,
        created: T2,
        conditions: [cond("Stale", "True", "SupersededApproval", "Another approval already reserves this exact immutable plan", T2)],
      }),
    },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-late", plan: PLAN2, fingerprint: FP2, created: T2, uid: "x" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "orders-v1", schema: "orders", schemaUid: "schema-uid-3", namespace: "shop" }) },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3", namespace: "shop" }) },
  ]);
}

describe("approvals", () => {
  it("derives Consumed, Stale, Superseded, Reserved and Pending", async () => {
    const r = await runCliWith(["approvals", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "approvals/app.txt");
    expect(r.stdout).toMatch(/storefront-v2 .* Reserved/u);
    expect(r.stdout).toMatch(/storefront-dup .* Superseded .* SupersededApproval/u);
    expect(r.stdout).toMatch(/storefront-late .* Pending/u);
    expect(r.stdout).toMatch(/storefront-v1 .* Consumed, stale .* DispatchCommitted/u);
  });

  it("filters by schema and reads one LIST per kind", async () => {
    const reader = cluster();
    const r = await runCliWith(["approvals", "storefront", "-n", "app"], reader);
    expect(r.stdout).not.toContain("orders");
    expect(reader.requests.sort()).toEqual(["list PtahSchema app", "list PtahSchemaApproval app"]);
  });

  it("adds NAMESPACE with -A", async () => {
    const r = await runCliWith(["approvals", "-A"], cluster());
    await expectGolden(r.stdout, "approvals/all.txt");
  });

  it("exits 3 for an unknown schema", async () => {
    const r = await runCliWith(["approvals", "nope", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
  });

  it("prints No resources found for a namespace without approvals", async () => {
    const r = await runCliWith(["approvals", "-n", "empty"], cluster());
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "No resources found in empty namespace.\n" });
  });
});
