// What the simulated registry holds and how the simulator plans: desired schema content keyed by
// the OCI reference's repository and tag, versioned migration directories, a tiny relational
// model (tables and columns; database.ts reads the real database's catalog into it), and the
// diff that plans from actual to desired.
import { createHash } from "node:crypto";
import { rowStatements, type DeclaredRows } from "./catalog-rows.ts";
import { addForeignKeySQL, createIndexSQL, keyStatements, keysOf, typeChange, type ForeignKey, type Index } from "./catalog-keys.ts";

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
}
export interface Table {
  name: string;
  columns: Column[];
  primaryKey: string[];
  /** Indexes besides the primary key's, and foreign keys (catalog-keys.ts); absent: none. */
  indexes?: Index[];
  foreignKeys?: ForeignKey[];
}
export interface Model {
  tables: Table[];
  /** Database schemas besides public (CREATE SCHEMA); absent: none declared, none compared. */
  schemas?: string[];
  /** Declared rows (catalog-rows.ts); absent: no reference data. */
  rows?: DeclaredRows[];
}

export interface Statement {
  sql: string;
  severity: "safe" | "destructive";
  reason: string;
}

export const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

const id: Column = { name: "id", type: "bigint", notNull: true };
const email: Column = { name: "email", type: "text", notNull: true };
const signedUpAt: Column = { name: "signed_up_at", type: "timestamp with time zone", notNull: false };
const customerId: Column = { name: "customer_id", type: "bigint", notNull: true };
const customers: Table = { name: "customers", columns: [id, email], primaryKey: ["id"] };
const orders = (totalType: string): Table => ({ name: "orders", columns: [id, customerId, { name: "total", type: totalType, notNull: false }], primaryKey: ["id"] });

const code: Column = { name: "code", type: "text", notNull: true };
const countryName: Column = { name: "name", type: "text", notNull: true };

/** Desired schemas by repository name and major tag version (`demo:v2`, `demo:v2-1234`). */
const SCHEMAS: Record<string, Record<number, Model>> = {
  // Reference data: the countries table and its rows, so its plan carries the rows' values.
  countries: {
    1: {
      tables: [{ name: "countries", columns: [code, countryName], primaryKey: ["code"] }],
      rows: [
        {
          table: "countries",
          keys: ["code"],
          columns: ["code", "name"],
          values: [
            ["DE", "Germany"],
            ["RU", "Ruritania"],
          ],
        },
      ],
    },
  },
  // A schema (a PostgreSQL namespace) and no table: its drift is Ptah v0.13's schemas_added.
  reporting: {
    1: { schemas: ["analytics"], tables: [] },
    2: { schemas: [], tables: [] },
  },
  demo: {
    1: { tables: [{ name: "customers", columns: [id, email], primaryKey: ["id"] }] },
    2: { tables: [{ name: "customers", columns: [id, email, signedUpAt], primaryKey: ["id"] }] },
    3: { tables: [{ name: "customers", columns: [id, signedUpAt], primaryKey: ["id"] }] },
  },
  // Orders, then a version whose plan takes the locks an approver must see: an index built
  // without CONCURRENTLY, a column type change that rewrites, a foreign key without NOT VALID.
  shop: {
    1: { tables: [customers, orders("integer")] },
    2: {
      tables: [
        customers,
        {
          ...orders("numeric(12,2)"),
          indexes: [{ name: "orders_customer_id_idx", columns: ["customer_id"] }],
          foreignKeys: [{ name: "orders_customer_fk", columns: ["customer_id"], references: { table: "customers", columns: ["id"] } }],
        },
      ],
    },
  },
};

export interface MigrationFile {
  version: number;
  description: string;
  sql: string;
}

/** Versioned migration directories by repository name and major tag version. */
const MIGRATIONS: Record<string, Record<number, MigrationFile[]>> = {
  billing: {
    1: [
      { version: 1, description: "create invoices", sql: `CREATE TABLE "invoices" ("id" bigint NOT NULL, "customer_id" bigint NOT NULL, PRIMARY KEY ("id"))` },
      { version: 2, description: "add invoice totals", sql: `ALTER TABLE "invoices" ADD COLUMN "total_cents" bigint NOT NULL` },
      { version: 3, description: "add invoice status", sql: `ALTER TABLE "invoices" ADD COLUMN "status" text` },
    ],
  },
};
MIGRATIONS.billing![2] = [...MIGRATIONS.billing![1]!, { version: 4, description: "add due dates", sql: `ALTER TABLE "invoices" ADD COLUMN "due_on" date` }];

export interface ParsedRef {
  ref: string;
  registry: string;
  repository: string;
  /** Last path segment of the repository: the catalog key. */
  name: string;
  tag?: string;
  digest?: string;
}

export function parseRef(ref: string): ParsedRef | undefined {
  const m = /^oci:\/\/([^/]+)\/(.+?)(?::([A-Za-z0-9_][A-Za-z0-9._-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?$/.exec(ref);
  if (!m) return undefined;
  const repository = m[2]!;
  return { ref, registry: m[1]!, repository, name: repository.split("/").pop()!, tag: m[3], digest: m[4] };
}

export interface SchemaArtifact {
  kind: "schema";
  reference: ParsedRef;
  version: number;
  content: string;
  digest: string;
  model: Model;
}

export interface MigrationArtifact {
  kind: "migrations";
  reference: ParsedRef;
  version: number;
  content: string;
  digest: string;
  files: MigrationFile[];
  /** The tag asks the simulated run to end Partial (e.g. `billing:v1-partial`). */
  partial: boolean;
}

export function schemaContent(model: Model): string {
  const keys = model.tables.flatMap((t) => [...(t.indexes ?? []).map((i) => createIndexSQL(t.name, i)), ...(t.foreignKeys ?? []).map((f) => addForeignKeySQL(t.name, f))]);
  return (model.schemas ?? []).map((n) => `CREATE SCHEMA ${q(n)};\n`).join("") + model.tables.map((t) => `${createTableSQL(t)};\n`).join("") + keys.map((k) => `${k};\n`).join("");
}

/** The drift category a planned statement reports under (Ptah v0.13's names; status.target.driftFindings). */
export function findingCategory(sql: string): string {
  if (/^CREATE SCHEMA/u.test(sql)) return "schemas_added";
  if (/^DROP SCHEMA/u.test(sql)) return "schemas_removed";
  if (/^CREATE TABLE/u.test(sql)) return "tables_added";
  if (/^INSERT INTO/u.test(sql)) return "data_rows_inserted";
  if (/ADD COLUMN/u.test(sql)) return "columns_added";
  if (/DROP COLUMN/u.test(sql)) return "columns_removed";
  if (/ALTER COLUMN .* TYPE /u.test(sql)) return "columns_modified";
  if (/^CREATE INDEX/u.test(sql)) return "indexes_added";
  if (/^DROP INDEX/u.test(sql)) return "indexes_removed";
  if (/ADD CONSTRAINT/u.test(sql)) return "constraints_added";
  if (/DROP CONSTRAINT/u.test(sql)) return "constraints_removed";
  return "tables_removed";
}

function migrationContent(files: MigrationFile[]): string {
  return files.map((f) => `-- ${f.version}: ${f.description}\n${f.sql};\n`).join("");
}

function majorOf(tag: string | undefined): number | undefined {
  const m = /^v(\d+)/.exec(tag ?? "");
  return m ? Number(m[1]) : undefined;
}

/** Resolves a schema reference: by tag, or by digest among the repository's versions. */
export function resolveSchema(ref: string): SchemaArtifact | { error: string } {
  const p = parseRef(ref);
  if (!p) return { error: `${ref} is not an OCI reference this registry understands` };
  const versions = SCHEMAS[p.name];
  if (!versions) return { error: `repository ${p.registry}/${p.repository} does not exist in the lab registry` };
  for (const [v, model] of Object.entries(versions)) {
    const content = schemaContent(model);
    const digest = sha256(content);
    if (p.digest ? p.digest === digest : majorOf(p.tag) === Number(v)) {
      return { kind: "schema", reference: p, version: Number(v), content, digest, model: structuredClone(model) };
    }
  }
  return { error: `manifest ${p.tag ?? p.digest ?? "latest"} not found in ${p.registry}/${p.repository}` };
}

export function resolveMigrations(ref: string): MigrationArtifact | { error: string } {
  const p = parseRef(ref);
  if (!p) return { error: `${ref} is not an OCI reference this registry understands` };
  const versions = MIGRATIONS[p.name];
  if (!versions) return { error: `repository ${p.registry}/${p.repository} does not exist in the lab registry` };
  const partial = /partial/.test(p.tag ?? "");
  for (const [v, files] of Object.entries(versions)) {
    const content = migrationContent(files) + (partial ? "-- simulator: the run of this artifact ends Partial\n" : "");
    const digest = sha256(content);
    if (p.digest ? p.digest === digest : majorOf(p.tag) === Number(v)) {
      return { kind: "migrations", reference: p, version: Number(v), content, digest, files: structuredClone(files), partial };
    }
  }
  return { error: `manifest ${p.tag ?? p.digest ?? "latest"} not found in ${p.registry}/${p.repository}` };
}

// ---------------------------------------------------------------------------------------------
// SQL: exactly the forms the planner writes

const q = (ident: string) => `"${ident}"`;

function columnSQL(c: Column): string {
  return `${q(c.name)} ${c.type}${c.notNull ? " NOT NULL" : ""}`;
}

export function createTableSQL(t: Table): string {
  const parts = t.columns.map(columnSQL);
  if (t.primaryKey.length > 0) parts.push(`PRIMARY KEY (${t.primaryKey.map(q).join(", ")})`);
  return `CREATE TABLE ${q(t.name)} (${parts.join(", ")})`;
}

/** Plans `actual` → `desired` (both whole-database models; every table is in scope). */
export function diff(actual: Model, desired: Model, protectedTables: readonly string[] = []): { statements: Statement[]; touchedProtected: string[] } {
  const statements: Statement[] = [];
  const touched = new Set<string>();
  if (desired.schemas !== undefined) {
    const have = new Set(actual.schemas ?? []);
    const want = new Set(desired.schemas);
    for (const n of desired.schemas) if (!have.has(n)) statements.push({ sql: `CREATE SCHEMA ${q(n)}`, severity: "safe", reason: `schema ${n} is missing` });
    for (const n of actual.schemas ?? [])
      if (!want.has(n)) statements.push({ sql: `DROP SCHEMA ${q(n)}`, severity: "destructive", reason: `schema ${n} is not in the desired schema` });
  }
  const isProtected = (t: string) => protectedTables.some((p) => p.toLowerCase() === t.toLowerCase() || p.toLowerCase() === `public.${t}`.toLowerCase());
  const byName = new Map(actual.tables.map((t) => [t.name, t]));
  const created = new Set<string>();
  for (const want of desired.tables) {
    const have = byName.get(want.name);
    if (!have) {
      statements.push({ sql: createTableSQL(want), severity: "safe", reason: `table ${want.name} is missing` });
      created.add(want.name);
      if (isProtected(want.name)) touched.add(want.name);
      continue;
    }
    const haveCols = new Map(have.columns.map((c) => [c.name, c]));
    for (const c of want.columns) {
      if (!haveCols.has(c.name)) {
        statements.push({ sql: `ALTER TABLE ${q(want.name)} ADD COLUMN ${columnSQL(c)}`, severity: "safe", reason: `column ${want.name}.${c.name} is missing` });
        if (isProtected(want.name)) touched.add(want.name);
      }
      const changed = haveCols.has(c.name) ? typeChange(want.name, haveCols.get(c.name)!, c) : undefined;
      if (changed) {
        statements.push(changed);
        if (isProtected(want.name)) touched.add(want.name);
      }
    }
    const wantCols = new Set(want.columns.map((c) => c.name));
    for (const c of have.columns) {
      if (!wantCols.has(c.name)) {
        statements.push({
          sql: `ALTER TABLE ${q(want.name)} DROP COLUMN ${q(c.name)}`,
          severity: "destructive",
          reason: `column ${want.name}.${c.name} is not in the desired schema`,
        });
        if (isProtected(want.name)) touched.add(want.name);
      }
    }
  }
  statements.push(...rowStatements(created, desired.rows ?? []));
  statements.push(...keyStatements(actual.tables, desired.tables));
  const wanted = new Set(desired.tables.map((t) => t.name));
  for (const t of actual.tables) {
    if (!wanted.has(t.name)) {
      statements.push({ sql: `DROP TABLE ${q(t.name)}`, severity: "destructive", reason: `table ${t.name} is not in the desired schema` });
      if (isProtected(t.name)) touched.add(t.name);
    }
  }
  return { statements, touchedProtected: [...touched] };
}

/** A canonical form of the model (tables sorted, columns in order). */
export function modelFingerprint(model: Model): string {
  const tables = [...model.tables].sort((a, b) => a.name.localeCompare(b.name)).map((t) => [t.name, t.columns.map((c) => [c.name, c.type, c.notNull]), t.primaryKey, ...keysOf(t)]);
  // Schemas count only when there are some, so a model of tables alone keeps its fingerprint.
  const schemas = [...(model.schemas ?? [])].sort();
  return sha256(JSON.stringify(schemas.length > 0 ? { tables, schemas } : tables));
}
