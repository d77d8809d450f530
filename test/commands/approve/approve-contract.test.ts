// approve refuses a plan whose contract version the current operator refuses (its admission says
// "contract version must equal the current one"), with admission's words, while `plan`
// and `migration` still read a plan of the earlier generation (contract 3). Through the real shell.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, aMigrationPlan, awaitingSchema, cond, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";

const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const statements = [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }];

function schemaCluster(contractVersion: number): FakeReader {
  const plan = publishSchemaPlan({ schema: SCHEMA, statements, createdAt: T1, binding: { contractVersion } });
  return new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan) }) }, ...fakeObjectsOf(plan)]);
}

function migrationCluster(contractVersion: number): FakeReader {
  const plan = aMigrationPlan({ contractVersion });
  const migration = aMigration({
    phase: "AwaitingApproval",
    conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "1 planned migration needs an approval naming this plan")],
  });
  return new FakeReader([
    { kind: "PtahMigration", raw: migration },
    { kind: "PtahMigrationPlan", raw: plan },
  ]);
}

describe("approve and the plan contract version", () => {
  it("approves a contract 1 plan (the current operator's)", async () => {
    expect((await runCliWith(["approve", "storefront", "-n", "app"], schemaCluster(1))).status).toBe(0);
    expect((await runCliWith(["approve", "migration", "billing", "-n", "app"], migrationCluster(1))).status).toBe(0);
  });

  it("refuses a contract 3 schema plan with admission's words, which plan still reads and verifies", async () => {
    const read = await runCliWith(["plan", "storefront", "-n", "app"], schemaCluster(3));
    expect(read.status).toBe(0);
    expect(read.stdout).toContain('CREATE TABLE "customers"');
    const r = await runCliWith(["approve", "storefront", "-n", "app"], schemaCluster(3));
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      "error: cannot approve app/storefront: referenced plan contract is not supported: contract version 3 is not the current one (1); next: kubectl ptah plan storefront -n app still reads it; the operator publishes a new plan under contract version 1\n",
    );
  });

  it("refuses a contract 3 migration plan with admission's words, which migration still reads", async () => {
    expect((await runCliWith(["migration", "billing", "-n", "app"], migrationCluster(3))).status).toBe(0);
    const r = await runCliWith(["approve", "migration", "billing", "-n", "app", "--dry-run=server"], migrationCluster(3));
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      "error: cannot approve migration app/billing: referenced plan contract version 3 is not the one this manager publishes (1); next: kubectl ptah migration billing -n app still reads it; the operator publishes a new plan under contract version 1\n",
    );
  });
});
