// Reference data in the lab registry: tables whose rows the desired schema declares (Ptah's
// declarative data). The planner inserts a declared table's rows with its CREATE TABLE, so that plan
// is a declarative-data plan: its document carries `managed_rows`, its statements the rows' values,
// its drift report `data_rows_inserted`. Rows of a table that already exists are not compared (the
// database reader reads no rows), so an applied data plan converges.
import type { Statement } from "./catalog.ts";

/** One table's declared rows: its key and value columns, and the rows' values in that order. */
export interface DeclaredRows {
  table: string;
  keys: string[];
  columns: string[];
  values: string[][];
}

const q = (ident: string) => `"${ident}"`;
const literal = (v: string) => `'${v.replaceAll("'", "''")}'`;

export const insertRowsSQL = (r: DeclaredRows): string =>
  `INSERT INTO "public".${q(r.table)} (${r.columns.map(q).join(", ")}) VALUES ${r.values.map((row) => `(${row.map(literal).join(", ")})`).join(", ")}`;

/** The INSERT of each declared table the plan creates. */
export function rowStatements(created: ReadonlySet<string>, rows: readonly DeclaredRows[]): Statement[] {
  return rows
    .filter((r) => created.has(r.table) && r.values.length > 0)
    .map((r) => ({ sql: insertRowsSQL(r), severity: "safe" as const, reason: `rows of ${r.table} are missing (${r.values.length} to insert)` }));
}

/** The document's `managed_rows` of a plan: each declared table whose rows its statements insert. */
export function managedRowsOf(statements: readonly Statement[], rows: readonly DeclaredRows[]): { schema: string; table: string; keys: string[]; columns: string[] }[] {
  return rows.filter((r) => statements.some((s) => s.sql === insertRowsSQL(r))).map((r) => ({ schema: "public", table: r.table, keys: r.keys, columns: r.columns }));
}
