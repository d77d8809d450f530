// A cluster where every command's permission form succeeds (test/commands/shared/permissions.test.ts runs
// them against a FakeReader of it, test/guarantees/request-guard-cli.test.ts through the real connection
// code against a fault server serving it).
import type { PermissionForm } from "../../src/commands/command-types.ts";
import { AWAITING_CONDITIONS, FP2, PLAN2, T0, T1, aMigration, aMigrationPlan, anApproval, awaitingSchema, cond } from "./builders.ts";
import type { FakeObject } from "./fake-reader.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "./publish-plan.ts";

const SCHEMA = { name: "storefront", namespace: "default", uid: "schema-uid-1" };
const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T1,
});
const plan2 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "orders" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T0,
});
const MPLAN = aMigrationPlan({ namespace: "default", labels: { "operator.ptah.run/migration": "billing" } });
const awaitingMigration = aMigration({
  namespace: "default",
  phase: "AwaitingApproval",
  conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "1 planned migration needs an approval naming this plan")],
});
const unresolvedMigration = aMigration({
  namespace: "default",
  phase: "Blocked",
  conditions: [cond("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for is recorded against this database")],
  status: { unresolvedRun: { outcome: "Partial", operationID: `sha256:${"6".repeat(64)}`, jobName: "billing-apply-1", recordedAt: T1 } },
});
const oldApproval = anApproval({
  name: "storefront-old",
  namespace: "default",
  schema: "storefront",
  plan: PLAN2,
  fingerprint: FP2,
  conditions: [cond("Consumed", "True", "Applied", "applied", T1)],
});

/** A cluster where every form succeeds: the awaiting schema and its plans, an approval, a migration (unresolved for acknowledge). */
export function world(form: PermissionForm): FakeObject[] {
  return [
    { kind: "PtahSchema", raw: awaitingSchema({ namespace: "default", plan: currentPlanStatus(plan1), conditions: AWAITING_CONDITIONS }) },
    ...fakeObjectsOf(plan1),
    ...fakeObjectsOf(plan2),
    { kind: "PtahSchemaApproval", raw: oldApproval },
    { kind: "PtahMigration", raw: form.form.startsWith("acknowledge") ? unresolvedMigration : awaitingMigration },
    { kind: "PtahMigrationPlan", raw: MPLAN },
  ];
}
