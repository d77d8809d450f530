// A declarative-data plan of the storefront schema: its statements carry the rows' values (a
// country's name, a setting's value), and its document marks it with `managed_rows`. Every test
// of "this plan carries row values" reads these objects.
import { awaitingSchema, T1 } from "./builders.ts";
import { FakeReader, type FakeObject } from "./fake-reader.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "./publish-plan.ts";
import { SCHEMA } from "./storefront-plans.ts";

/** A value that appears only in the rows, so a test can see whether they were printed. */
export const ROW_SECRET = "Ruritania-row-value-7731";

export const dataPlan = publishSchemaPlan({
  schema: SCHEMA,
  statements: [
    { sql: `INSERT INTO "public"."countries" ("code", "name") VALUES ('RU', '${ROW_SECRET}')`, severity: "safe", reason: "data_rows_insert" },
    { sql: `UPDATE "settings" SET "value" = 'on' WHERE "key" = 'checkout'`, severity: "safe", reason: "data_rows_update" },
  ],
  managedRows: [
    { schema: "public", table: "countries", keys: ["code"], columns: ["code", "name"] },
    { table: "settings", keys: ["key"], columns: ["key", "value"] },
  ],
  createdAt: T1,
});

/** The storefront schema in app, awaiting approval of the data plan. */
export function dataPlanCluster(extra: readonly FakeObject[] = []): FakeReader {
  return new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(dataPlan) }) }, ...fakeObjectsOf(dataPlan), ...extra]);
}
