// The simulator's registry and planner: what each tag resolves to and the plans between versions
// (that the planner's SQL runs on PostgreSQL and reaches the desired catalog: test/e2e/postgres.e2e.test.ts).
import { describe, expect, it } from "vitest";
import { diff, findingCategory, modelFingerprint, parseRef, resolveMigrations, resolveSchema, type Model } from "./catalog.ts";
import { managedRowsOf } from "./catalog-rows.ts";
import { analyseStatements } from "../../src/locks/index.ts";

function schema(ref: string): Model {
  const r = resolveSchema(ref);
  if ("error" in r) throw new Error(r.error);
  return r.model;
}

describe("catalog", () => {
  it("resolves a tag by its major version, with any suffix", () => {
    const a = resolveSchema("oci://registry.lab/schemas/demo:v2");
    const b = resolveSchema("oci://registry.lab/schemas/demo:v2-4711");
    expect("digest" in a && "digest" in b && a.digest === b.digest).toBe(true);
  });

  it("resolves a digest to the version it names", () => {
    const v3 = resolveSchema("oci://registry.lab/schemas/demo:v3");
    if ("error" in v3) throw new Error(v3.error);
    const byDigest = resolveSchema(`oci://registry.lab/schemas/demo@${v3.digest}`);
    expect("version" in byDigest && byDigest.version).toBe(3);
  });

  it("refuses what the lab registry does not hold", () => {
    expect(resolveSchema("oci://registry.lab/schemas/nope:v1")).toHaveProperty("error");
    expect(resolveSchema("oci://registry.lab/schemas/demo:v9")).toHaveProperty("error");
    expect(parseRef("https://example.org/x")).toBeUndefined();
  });

  it("marks a migration artifact whose tag says partial", () => {
    const r = resolveMigrations("oci://registry.lab/migrations/billing:v1-partial");
    expect("partial" in r && r.partial).toBe(true);
  });
});

describe("planning", () => {
  it("plans v1 from an empty database as one safe CREATE TABLE", () => {
    const { statements } = diff({ tables: [] }, schema("oci://registry.lab/schemas/demo:v1"));
    expect(statements).toEqual([expect.objectContaining({ sql: expect.stringMatching(/^CREATE TABLE "customers"/), severity: "safe" })]);
  });

  it("plans the countries reference data as a data plan: the table, then its rows, and nothing once it exists", () => {
    const desired = schema("oci://registry.lab/schemas/countries:v1");
    const { statements } = diff({ tables: [] }, desired);
    expect(statements.map((s) => s.sql)).toEqual([
      'CREATE TABLE "countries" ("code" text NOT NULL, "name" text NOT NULL, PRIMARY KEY ("code"))',
      `INSERT INTO "public"."countries" ("code", "name") VALUES ('DE', 'Germany'), ('RU', 'Ruritania')`,
    ]);
    expect(statements.map((s) => findingCategory(s.sql))).toEqual(["tables_added", "data_rows_inserted"]);
    expect(managedRowsOf(statements, desired.rows ?? [])).toEqual([{ schema: "public", table: "countries", keys: ["code"], columns: ["code", "name"] }]);
    expect(diff({ tables: desired.tables }, desired).statements).toEqual([]);
    expect(managedRowsOf([], desired.rows ?? [])).toEqual([]);
  });

  it("plans v2 → v3 as a destructive DROP COLUMN", () => {
    const { statements } = diff(schema("oci://registry.lab/schemas/demo:v2"), schema("oci://registry.lab/schemas/demo:v3"));
    expect(statements).toEqual([{ sql: 'ALTER TABLE "customers" DROP COLUMN "email"', severity: "destructive", reason: expect.any(String) }]);
  });

  it("plans shop v1 → v2 with the statements lock impact is about, each with its finding", async () => {
    const { statements } = diff(schema("oci://registry.lab/schemas/shop:v1"), schema("oci://registry.lab/schemas/shop:v2"));
    expect(statements.map((s) => [s.sql, s.severity])).toEqual([
      ['ALTER TABLE "orders" ALTER COLUMN "total" TYPE numeric(12,2)', "destructive"],
      ['CREATE INDEX "orders_customer_id_idx" ON "orders" ("customer_id")', "safe"],
      ['ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_fk" FOREIGN KEY ("customer_id") REFERENCES "customers" ("id")', "safe"],
    ]);
    expect(statements.map((s) => findingCategory(s.sql))).toEqual(["columns_modified", "indexes_added", "constraints_added"]);
    const report = await analyseStatements(statements, {}, "postgres");
    expect(report.statements.map((s) => s.findings.map((f) => f.code).filter((c) => c !== "held-through-later-step"))).toEqual([
      ["type-change-rewrite"],
      ["index-not-concurrent"],
      ["foreign-key-validates"],
    ]);
    // Once applied, the catalog reads the same keys back: nothing left to plan.
    expect(diff(schema("oci://registry.lab/schemas/shop:v2"), schema("oci://registry.lab/schemas/shop:v2")).statements).toEqual([]);
  });

  it("reports a protected table the plan would touch", () => {
    const { touchedProtected } = diff({ tables: [] }, schema("oci://registry.lab/schemas/demo:v1"), ["public.customers"]);
    expect(touchedProtected).toEqual(["customers"]);
  });
});

describe("Ptah v0.13's schema categories", () => {
  it("plans a missing database schema as CREATE SCHEMA, reported as schemas_added, and an extra one as schemas_removed", () => {
    const v1 = resolveSchema("oci://registry.lab/schemas/reporting:v1");
    const v2 = resolveSchema("oci://registry.lab/schemas/reporting:v2");
    if ("error" in v1 || "error" in v2) throw new Error("the lab registry lacks reporting");
    const added = diff({ tables: [], schemas: [] }, v1.model).statements;
    expect(added).toEqual([{ sql: 'CREATE SCHEMA "analytics"', severity: "safe", reason: "schema analytics is missing" }]);
    expect(added.map((s) => findingCategory(s.sql))).toEqual(["schemas_added"]);
    const removed = diff({ tables: [], schemas: ["analytics"] }, v2.model).statements;
    expect(removed.map((s) => [findingCategory(s.sql), s.severity])).toEqual([["schemas_removed", "destructive"]]);
    expect(diff({ tables: [], schemas: ["analytics"] }, v1.model).statements).toEqual([]);
  });

  it("leaves models of tables alone: their fingerprint and content do not change", () => {
    const demo = resolveSchema("oci://registry.lab/schemas/demo:v1");
    if ("error" in demo) throw new Error("no demo");
    expect(modelFingerprint({ ...demo.model, schemas: [] })).toBe(modelFingerprint(demo.model));
    expect(diff({ tables: [], schemas: ["analytics"] }, demo.model).statements.map((s) => findingCategory(s.sql))).toEqual(["tables_added"]);
  });
});
