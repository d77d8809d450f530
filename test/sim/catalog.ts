// What the simulated registry holds and what the simulated database looks like: desired schema
// content keyed by the OCI reference's repository and tag, versioned migration directories,
// a tiny relational model (tables and columns), the diff that plans from actual to desired, a
// parser/executor for exactly the SQL the planner writes, and psql-like renderings of the model
// so a scenario can read "the database" with kubectl alone.
import { createHash } from "node:crypto";

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
}
export interface Table {
  name: string;
  columns: Column[];
  primaryKey: string[];
}
export interface Model {
  tables: Table[];
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

/** Desired schemas by repository name and major tag version (`demo:v2`, `demo:v2-1234`). */
const SCHEMAS: Record<string, Record<number, Model>> = {
  demo: {
    1: { tables: [{ name: "customers", columns: [id, email], primaryKey: ["id"] }] },
    2: { tables: [{ name: "customers", columns: [id, email, signedUpAt], primaryKey: ["id"] }] },
    3: { tables: [{ name: "customers", columns: [id, signedUpAt], primaryKey: ["id"] }] },
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
  return model.tables.map((t) => `${createTableSQL(t)};\n`).join("");
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
  const isProtected = (t: string) => protectedTables.some((p) => p.toLowerCase() === t.toLowerCase() || p.toLowerCase() === `public.${t}`.toLowerCase());
  const byName = new Map(actual.tables.map((t) => [t.name, t]));
  for (const want of desired.tables) {
    const have = byName.get(want.name);
    if (!have) {
      statements.push({ sql: createTableSQL(want), severity: "safe", reason: `table ${want.name} is missing` });
      if (isProtected(want.name)) touched.add(want.name);
      continue;
    }
    const haveCols = new Map(have.columns.map((c) => [c.name, c]));
    for (const c of want.columns) {
      if (!haveCols.has(c.name)) {
        statements.push({ sql: `ALTER TABLE ${q(want.name)} ADD COLUMN ${columnSQL(c)}`, severity: "safe", reason: `column ${want.name}.${c.name} is missing` });
        if (isProtected(want.name)) touched.add(want.name);
      }
    }
    const wantCols = new Set(want.columns.map((c) => c.name));
    for (const c of have.columns) {
      if (!wantCols.has(c.name)) {
        statements.push({ sql: `ALTER TABLE ${q(want.name)} DROP COLUMN ${q(c.name)}`, severity: "destructive", reason: `column ${want.name}.${c.name} is not in the desired schema` });
        if (isProtected(want.name)) touched.add(want.name);
      }
    }
  }
  const wanted = new Set(desired.tables.map((t) => t.name));
  for (const t of actual.tables) {
    if (!wanted.has(t.name)) {
      statements.push({ sql: `DROP TABLE ${q(t.name)}`, severity: "destructive", reason: `table ${t.name} is not in the desired schema` });
      if (isProtected(t.name)) touched.add(t.name);
    }
  }
  return { statements, touchedProtected: [...touched] };
}

function parseColumn(def: string): Column {
  const m = /^"([^"]+)" (.+?)( NOT NULL)?$/.exec(def.trim());
  if (!m) throw new Error(`cannot parse column definition: ${def}`);
  return { name: m[1]!, type: m[2]!, notNull: Boolean(m[3]) };
}

/** Executes one statement of the planner's dialect against the model (throws like a database would). */
export function execute(model: Model, sql: string): void {
  const s = sql.trim().replace(/;$/, "");
  let m: RegExpExecArray | null;
  const table = (name: string) => {
    const t = model.tables.find((x) => x.name === name);
    if (!t) throw new Error(`relation "${name}" does not exist`);
    return t;
  };
  if ((m = /^CREATE TABLE "([^"]+)" \((.*)\)$/.exec(s))) {
    const name = m[1]!;
    if (model.tables.some((t) => t.name === name)) throw new Error(`relation "${name}" already exists`);
    const body = /^(.*?)(?:, PRIMARY KEY \((.*)\))?$/.exec(m[2]!)!;
    const t: Table = { name, columns: body[1]!.split(/, (?=")/).map(parseColumn), primaryKey: [] };
    if (body[2]) t.primaryKey = body[2].split(",").map((x) => x.trim().replace(/^"|"$/g, ""));
    model.tables.push(t);
  } else if ((m = /^ALTER TABLE "([^"]+)" ADD COLUMN (.*)$/.exec(s))) {
    const t = table(m[1]!);
    const c = parseColumn(m[2]!);
    if (t.columns.some((x) => x.name === c.name)) throw new Error(`column "${c.name}" of relation "${t.name}" already exists`);
    t.columns.push(c);
  } else if ((m = /^ALTER TABLE "([^"]+)" DROP COLUMN "([^"]+)"$/.exec(s))) {
    const t = table(m[1]!);
    if (!t.columns.some((x) => x.name === m![2])) throw new Error(`column "${m[2]}" of relation "${t.name}" does not exist`);
    t.columns = t.columns.filter((x) => x.name !== m![2]);
    t.primaryKey = t.primaryKey.filter((x) => x !== m![2]);
  } else if ((m = /^DROP TABLE "([^"]+)"$/.exec(s))) {
    table(m[1]!);
    model.tables = model.tables.filter((x) => x.name !== m![1]);
  } else {
    throw new Error(`syntax error: the simulated database runs only the planner's statements: ${s.slice(0, 80)}`);
  }
}

/** A canonical form of the model (tables sorted, columns in order). */
export function modelFingerprint(model: Model): string {
  const tables = [...model.tables].sort((a, b) => a.name.localeCompare(b.name));
  return sha256(JSON.stringify(tables.map((t) => [t.name, t.columns.map((c) => [c.name, c.type, c.notNull]), t.primaryKey])));
}

// ---------------------------------------------------------------------------------------------
// psql-like renderings

function grid(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const center = (s: string, w: number) => {
    const left = Math.floor((w - s.length) / 2);
    return " ".repeat(left) + s + " ".repeat(w - s.length - left);
  };
  const lines = [" " + headers.map((h, i) => center(h, widths[i]!)).join(" | ") + " ", widths.map((w) => "-".repeat(w + 2)).join("+")];
  for (const r of rows) lines.push(" " + r.map((c, i) => c.padEnd(widths[i]!)).join(" | ") + " ");
  return lines.map((l) => l.replace(/\s+$/, ""));
}

function titled(title: string, body: string[]): string {
  const width = Math.max(...body.map((l) => l.length));
  const pad = Math.max(0, Math.floor((width - title.length) / 2));
  return [" ".repeat(pad) + title, ...body].join("\n") + "\n";
}

/** `\d <table>` */
export function describeTable(t: Table): string {
  const rows = t.columns.map((c) => [c.name, c.type, "", c.notNull ? "not null" : "", ""]);
  const out = grid(["Column", "Type", "Collation", "Nullable", "Default"], rows);
  if (t.primaryKey.length > 0) out.push("Indexes:", `    "${t.name}_pkey" PRIMARY KEY, btree (${t.primaryKey.join(", ")})`);
  return titled(`Table "public.${t.name}"`, out);
}

/** `\dt` */
export function listTables(model: Model, owner: string): string {
  if (model.tables.length === 0) return "Did not find any relations.\n";
  const rows = [...model.tables].sort((a, b) => a.name.localeCompare(b.name)).map((t) => ["public", t.name, "table", owner]);
  const out = grid(["Schema", "Name", "Type", "Owner"], rows);
  out.push(`(${rows.length} row${rows.length === 1 ? "" : "s"})`);
  return titled("List of relations", out);
}

export interface RevisionRow {
  version: number;
  description: string;
  checksum: string;
  appliedAt: string;
}

/** The revision table a migration run writes. */
export function renderRevisions(rows: RevisionRow[]): string {
  if (rows.length === 0) return "(0 rows)\n";
  const out = grid(
    ["version", "description", "checksum", "applied_at"],
    rows.map((r) => [String(r.version), r.description, r.checksum.slice(0, 19), r.appliedAt]),
  );
  out.push(`(${rows.length} row${rows.length === 1 ? "" : "s"})`);
  return out.join("\n") + "\n";
}
