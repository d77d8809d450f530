// The approve tests' storefront: its schema identity in namespace app and two published plans of
// it (the current one, and the one a racing re-plan makes current), shared so that every approve
// test binds the same objects.
import { T1 } from "./builders.ts";
import { publishSchemaPlan } from "./publish-plan.ts";

export const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
export const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T1,
});
export const plan2 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamptz', severity: "safe", reason: "columns_added" }],
  createdAt: T1,
});
