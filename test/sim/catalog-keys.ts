// Indexes and foreign keys of the simulated planner, and column type changes: the statements a
// plan needs when the lock analyser is to have something to say (an index built without
// CONCURRENTLY, a type change that rewrites, a foreign key added without NOT VALID). Written in
// exactly the forms PostgreSQL's catalog reads back (database.ts), so an applied plan converges.
import type { Column, Statement, Table } from "./catalog.ts";

export interface Index {
  name: string;
  columns: string[];
}
export interface ForeignKey {
  name: string;
  columns: string[];
  references: { table: string; columns: string[] };
}

const q = (ident: string) => `"${ident}"`;
const list = (names: readonly string[]) => names.map(q).join(", ");

export const createIndexSQL = (table: string, i: Index): string => `CREATE INDEX ${q(i.name)} ON ${q(table)} (${list(i.columns)})`;
export const addForeignKeySQL = (table: string, f: ForeignKey): string =>
  `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(f.name)} FOREIGN KEY (${list(f.columns)}) REFERENCES ${q(f.references.table)} (${list(f.references.columns)})`;

/** A column whose type differs: one ALTER COLUMN … TYPE, which the plugin reads as destructive (it may lose data). */
export function typeChange(table: string, have: Column, want: Column): Statement | undefined {
  if (have.type === want.type) return undefined;
  return {
    sql: `ALTER TABLE ${q(table)} ALTER COLUMN ${q(want.name)} TYPE ${want.type}`,
    severity: "destructive",
    reason: `column ${table}.${want.name} changes type from ${have.type} to ${want.type}`,
  };
}

/** Indexes and foreign keys of the desired tables that the actual ones lack (and the extra ones dropped), after every table exists. */
export function keyStatements(actual: readonly Table[], desired: readonly Table[]): Statement[] {
  const out: Statement[] = [];
  const byName = new Map(actual.map((t) => [t.name, t]));
  for (const want of desired) {
    const have = byName.get(want.name);
    const haveIdx = new Set((have?.indexes ?? []).map((i) => i.name));
    const wantIdx = new Set((want.indexes ?? []).map((i) => i.name));
    for (const i of want.indexes ?? []) if (!haveIdx.has(i.name)) out.push({ sql: createIndexSQL(want.name, i), severity: "safe", reason: `index ${i.name} is missing` });
    for (const i of have?.indexes ?? [])
      if (!wantIdx.has(i.name)) out.push({ sql: `DROP INDEX ${q(i.name)}`, severity: "safe", reason: `index ${i.name} is not in the desired schema` });
    const haveFk = new Set((have?.foreignKeys ?? []).map((f) => f.name));
    const wantFk = new Set((want.foreignKeys ?? []).map((f) => f.name));
    for (const f of want.foreignKeys ?? [])
      if (!haveFk.has(f.name)) out.push({ sql: addForeignKeySQL(want.name, f), severity: "safe", reason: `foreign key ${f.name} is missing` });
    for (const f of have?.foreignKeys ?? [])
      if (!wantFk.has(f.name))
        out.push({ sql: `ALTER TABLE ${q(want.name)} DROP CONSTRAINT ${q(f.name)}`, severity: "destructive", reason: `foreign key ${f.name} is not in the desired schema` });
  }
  return out;
}

/** What the fingerprint adds for a table with keys; nothing for one without (older fingerprints stay). */
export function keysOf(t: Table): unknown[] {
  const indexes = [...(t.indexes ?? [])].sort((a, b) => a.name.localeCompare(b.name)).map((i) => [i.name, i.columns]);
  const fks = [...(t.foreignKeys ?? [])].sort((a, b) => a.name.localeCompare(b.name)).map((f) => [f.name, f.columns, f.references.table, f.references.columns]);
  return indexes.length > 0 || fks.length > 0 ? [indexes, fks] : [];
}
