// The database of one PtahSchema or PtahMigration: a real PostgreSQL database in the lab's
// cluster (lab/postgres.ts), one per owner, named `<namespace>/<name>` (databaseName), created
// on first use. What the controllers read comes from the real catalog (pg_catalog), so the
// actual-state fingerprint and "nothing unapproved ran" are read from the database itself; an
// approved plan runs in one transaction (psql --single-transaction), so it commits whole or not
// at all. A migration's revision table `ptah_schema_migrations` lives in the same database.
import { createHash } from "node:crypto";
import type { Model } from "./catalog.ts";
import { connectionFromEnv, psql, queryJSON, SqlError, type Connection } from "./psql.ts";

export interface RevisionRow {
  version: number;
  description: string;
  checksum: string;
  appliedAt: string;
}

export const REVISION_TABLE = "ptah_schema_migrations";

/** `<namespace>/<name>` (a namespace holds no `/`, so this is one-to-one); longer than PostgreSQL's 63 bytes: cut, plus a digest. */
export function databaseName(namespace: string, owner: string): string {
  const full = `${namespace}/${owner}`;
  if (Buffer.byteLength(full) <= 63) return full;
  return `${full.slice(0, 54)}~${createHash("sha256").update(full).digest("hex").slice(0, 8)}`;
}

// The managed scope: ordinary tables in `public`, except the revision table; columns in attnum
// order with format_type's spelling (`bigint`, `timestamp with time zone`), the primary key in
// index order, the other indexes (not a constraint's) and the foreign keys by name.
/** The database's own schemas: not public, not PostgreSQL's (pg_*, information_schema). */
const NAMESPACES = `SELECT coalesce(json_agg(nspname ORDER BY nspname), '[]') FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname NOT IN ('public', 'information_schema')`;

const CATALOG = `
SELECT coalesce(json_agg(t ORDER BY t.name), '[]') FROM (
  SELECT c.relname AS name,
    coalesce((SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'notNull', a.attnotnull) ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]') AS columns,
    coalesce((SELECT json_agg(a.attname ORDER BY k.ord) FROM pg_index i
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = c.oid AND i.indisprimary), '[]') AS "primaryKey",
    coalesce((SELECT json_agg(json_build_object('name', ic.relname, 'columns',
         (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum)) ORDER BY ic.relname)
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
      WHERE i.indrelid = c.oid AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint x WHERE x.conrelid = i.indrelid AND x.conindid = i.indexrelid)), '[]') AS indexes,
    coalesce((SELECT json_agg(json_build_object('name', x.conname,
         'columns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(x.conkey) WITH ORDINALITY AS k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = x.conrelid AND a.attnum = k.attnum),
         'references', json_build_object('table', rc.relname, 'columns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(x.confkey) WITH ORDINALITY AS k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = x.confrelid AND a.attnum = k.attnum))) ORDER BY x.conname)
       FROM pg_constraint x JOIN pg_class rc ON rc.oid = x.confrelid
      WHERE x.conrelid = c.oid AND x.contype = 'f'), '[]') AS "foreignKeys"
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '${REVISION_TABLE}'
) t;`;

// (psql's \if: a query naming a missing table fails when it is parsed, whatever a CASE says)
const REVISIONS = `
SELECT to_regclass('public.${REVISION_TABLE}') IS NOT NULL AS has_revisions \\gset
\\if :has_revisions
SELECT coalesce(json_agg(json_build_object('version', version, 'description', description, 'checksum', checksum, 'appliedAt', applied_at) ORDER BY version), '[]')
  FROM public.${REVISION_TABLE};
\\else
SELECT '[]';
\\endif
`;

const CREATE_REVISIONS = `CREATE TABLE IF NOT EXISTS public.${REVISION_TABLE} (
  version bigint PRIMARY KEY,
  description text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);`;

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export class Databases {
  private readonly conn: Connection;
  private readonly known = new Set<string>();

  constructor(conn: Connection = connectionFromEnv()) {
    this.conn = conn;
  }

  /** Creates the owner's database unless it exists (CREATE DATABASE cannot run in a transaction). */
  async ensure(name: string): Promise<void> {
    if (this.known.has(name)) return;
    const script = `SELECT format('CREATE DATABASE %I', :'db') WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db')\n\\gexec\n`;
    await psql(this.conn, "postgres", script, { vars: { db: name } });
    this.known.add(name);
  }

  /** Runs `fn` against the owner's database, creating it first (again, if the cluster was replaced). */
  private async in<T>(namespace: string, owner: string, fn: (db: string) => Promise<T>): Promise<T> {
    const db = databaseName(namespace, owner);
    await this.ensure(db);
    try {
      return await fn(db);
    } catch (err) {
      if (!(err instanceof SqlError) || !/database ".*" does not exist/.test(err.message)) throw err;
      this.known.delete(db);
      await this.ensure(db);
      return fn(db);
    }
  }

  /** The managed scope as the catalog has it. */
  readModel(namespace: string, owner: string): Promise<Model> {
    return this.in(namespace, owner, async (db) => ({
      // A table without other indexes or foreign keys has neither key, as the desired models write it.
      tables: (await queryJSON<Model["tables"]>(this.conn, db, CATALOG)).map(({ indexes, foreignKeys, ...t }) => ({
        ...t,
        ...(indexes && indexes.length > 0 ? { indexes } : {}),
        ...(foreignKeys && foreignKeys.length > 0 ? { foreignKeys } : {}),
      })),
      schemas: await queryJSON<string[]>(this.conn, db, NAMESPACES),
    }));
  }

  /** The revision table, oldest version first (none when the table does not exist yet). */
  readRevisions(namespace: string, owner: string): Promise<RevisionRow[]> {
    return this.in(namespace, owner, async (db) => {
      return queryJSON<RevisionRow[]>(this.conn, db, REVISIONS);
    });
  }

  /**
   * Runs the statements in one transaction, in order; with `revisions`, records them in the
   * revision table in the same transaction. A refused statement rolls everything back and
   * rejects with PostgreSQL's message.
   */
  apply(namespace: string, owner: string, statements: readonly string[], revisions: readonly Omit<RevisionRow, "appliedAt">[] = [], comment = ""): Promise<void> {
    const lines = [comment ? `-- ${comment.replace(/\n/g, " ")}` : "", ...statements.map((s) => `${s.replace(/;\s*$/, "")};`)];
    if (revisions.length > 0) {
      lines.push(CREATE_REVISIONS);
      for (const r of revisions)
        lines.push(`INSERT INTO public.${REVISION_TABLE} (version, description, checksum) VALUES (${Number(r.version)}, ${literal(r.description)}, ${literal(r.checksum)});`);
    }
    return this.in(namespace, owner, async (db) => {
      await psql(this.conn, db, `${lines.join("\n")}\n`, { transaction: true });
    });
  }
}
