// The lock-trace oracle's engine: runs corpus cases on a real PostgreSQL and reads what the
// server did, then compares it with the analyser's report for the same statement.
//
// A case in a transaction (one psql session for the whole batch): drop and re-create the schemas,
// create the fixtures with their rows (committed), list the relations (oid, name, kind, file node,
// an index's table), BEGIN, read this transaction's scan counters, run the statement, read the
// session's granted relation locks (pg_locks), the file nodes, the scan counters and the indexes,
// ROLLBACK. What it did:
//   rewrite       a table that existed before has a new relfilenode (its rows were copied);
//   build         an index of such a table has a file no index had before (new, or rebuilt);
//   scan          the table's sequential + index scan counters of this transaction moved
//                 (pg_stat_xact_user_tables: the backend's counts not yet flushed, so the delta
//                 is read inside the transaction, before and after the statement; a validation,
//                 a NOT NULL check and a foreign key's check query all count there, a catalog
//                 change does not);
//   catalog-only  none of these.
// A CONCURRENTLY case cannot run in a transaction block: a second session holds ROW EXCLUSIVE on
// the table (an open transaction), the statement runs in a third and, after taking its own lock,
// waits for that transaction to end; while it waits (pg_stat_activity says so) its granted locks are
// read, then the holder commits. Deterministic: each step waits for the state the next needs.
import { spawn } from "node:child_process";
import type { Connection } from "../sim/psql.ts";
import { reduceLocks, type Holds, type LockMode, type RelationLock, type StatementLocks } from "../../src/locks/index.ts";
import { setupOf, type LockCase } from "./corpus.ts";

interface Rel {
  oid: number;
  name: string;
  kind: string;
  file: number;
  parent: string | null;
}
interface After {
  locks: { oid: number; mode: string }[] | null;
  files: Record<string, number> | null;
  scans: Record<string, number> | null;
  indexes: { table: number; index: number; file: number }[] | null;
}
export interface Observed {
  readonly pre: readonly Rel[];
  readonly locks: readonly { oid: number; mode: LockMode }[];
  readonly holds: Holds;
  readonly error?: string;
}

const SCHEMAS = ["public", "sales", "archive", "reporting"];
const NSP = `(SELECT oid FROM pg_namespace WHERE nspname IN (${SCHEMAS.map((s) => `'${s}'`).join(", ")}))`;
const RESET = `${SCHEMAS.map((s) => `DROP SCHEMA IF EXISTS ${s} CASCADE;`).join(" ")} CREATE SCHEMA public;`;
const PRE = `SELECT json_build_object('pre', (SELECT json_agg(json_build_object('oid', c.oid, 'name', format('%I.%I', n.nspname, c.relname), 'kind', c.relkind, 'file', c.relfilenode,
  'parent', (SELECT format('%I.%I', tn.nspname, t.relname) FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace WHERE i.indexrelid = c.oid)))
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relnamespace IN ${NSP}));`;
const SCANS = `(SELECT json_object_agg(relid, seq_scan + coalesce(idx_scan, 0)) FROM pg_stat_xact_user_tables)`;
const AFTER = `SELECT json_build_object('after', json_build_object(
  'locks', (SELECT json_agg(json_build_object('oid', relation, 'mode', mode)) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'relation' AND granted),
  'files', (SELECT json_object_agg(oid, relfilenode) FROM pg_class WHERE relnamespace IN ${NSP}),
  'scans', ${SCANS},
  'indexes', (SELECT json_agg(json_build_object('table', i.indrelid, 'index', i.indexrelid, 'file', c.relfilenode)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace IN ${NSP})));`;

export const modeOf = (pg: string): LockMode =>
  pg
    .replace(/Lock$/u, "")
    .replace(/([a-z])([A-Z])/gu, "$1 $2")
    .toUpperCase() as LockMode;

interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
}

export function runPsql(conn: Connection, database: string, script: string, args: string[] = [], app = "ptah-lock-trace"): Promise<Run> {
  return new Promise((resolve) => {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      LC_ALL: "C",
      PGHOST: conn.host,
      PGPORT: String(conn.port),
      PGUSER: conn.user,
      PGDATABASE: database,
      PGAPPNAME: app,
      PGCONNECT_TIMEOUT: "5",
    };
    const child = spawn(conn.psql, ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=0", ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("close", (status) => resolve({ stdout, stderr, status }));
    child.stdin.end(script);
  });
}

const statementText = (sql: string) => `${sql.replace(/;\s*$/u, "")};`;

/** Runs the transaction cases in one psql session; one Observed per case, in order. */
export async function traceInTransaction(conn: Connection, database: string, cases: readonly LockCase[]): Promise<Observed[]> {
  const lines = ["SET client_min_messages = warning;", "SET lock_timeout = '10s';"];
  cases.forEach((k, i) => {
    lines.push(
      `\\echo @@case ${i}`,
      `\\warn @@case ${i}`,
      RESET,
      ...setupOf(k).map(statementText),
      PRE,
      "BEGIN;",
      `SELECT json_build_object('scans', ${SCANS});`,
      statementText(k.sql),
      AFTER,
      "ROLLBACK;",
    );
  });
  const run = await runPsql(conn, database, lines.join("\n"));
  const out = sections(run.stdout);
  const err = sections(run.stderr);
  return cases.map((_, i) => {
    // A statement's own output (a RETURNING row) is not one of the trace's JSON objects.
    const values = (out.get(i) ?? []).filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const pre = (values.find((v) => "pre" in v)?.pre ?? []) as Rel[];
    const scans = (values.find((v) => "scans" in v)?.scans ?? {}) as Record<string, number>;
    const after = values.find((v) => "after" in v)?.after as After | undefined;
    if (!after) return { pre, locks: [], holds: "catalog-only", error: (err.get(i) ?? []).join("\n") || "no result from PostgreSQL" };
    return { pre, locks: (after.locks ?? []).map((l) => ({ oid: l.oid, mode: modeOf(l.mode) })), holds: holdsOf(pre, scans, after) };
  });
}

function sections(text: string): Map<number, string[]> {
  const map = new Map<number, string[]>();
  let current = -1;
  for (const line of text.split("\n")) {
    const m = /^@@case (\d+)$/u.exec(line);
    if (m) current = Number(m[1]);
    else if (line.trim() !== "" && current >= 0) map.set(current, [...(map.get(current) ?? []), line]);
  }
  return map;
}

function holdsOf(pre: readonly Rel[], scansBefore: Record<string, number>, after: After): Holds {
  const tables = pre.filter((r) => r.kind === "r" || r.kind === "m");
  const files = after.files ?? {};
  if (tables.some((t) => files[t.oid] !== undefined && files[t.oid] !== t.file)) return "rewrite";
  // An index re-created on its old file (a type change PostgreSQL finds compatible keeps the
  // storage under a new oid) is not built: only a file no index had before is.
  const known = new Set(pre.filter((r) => r.kind === "i").map((r) => r.file));
  const ids = new Set(tables.map((t) => t.oid));
  if ((after.indexes ?? []).some((i) => ids.has(i.table) && !known.has(i.file))) return "build";
  const scans = after.scans ?? {};
  if (tables.some((t) => (scans[t.oid] ?? 0) > (scansBefore[t.oid] ?? 0))) return "scan";
  return "catalog-only";
}

/** A CONCURRENTLY case: its locks sampled from another session while it waits (see the top). */
export async function traceConcurrently(conn: Connection, database: string, k: LockCase, n: number): Promise<Observed> {
  const setup = await runPsql(conn, database, [RESET, ...setupOf(k).map(statementText), PRE].join("\n"), ["-v", "ON_ERROR_STOP=1"]);
  const pre = ((JSON.parse(setup.stdout.trim().split("\n").pop() ?? "{}") as { pre?: Rel[] }).pre ?? []) as Rel[];
  if (setup.status !== 0) return { pre, locks: [], holds: "catalog-only", error: `setup failed: ${setup.stderr}` };
  const indexesBefore = new Set(pre.filter((r) => r.kind === "i").map((r) => `${r.oid}:${r.file}`));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", PGHOST: conn.host, PGPORT: String(conn.port), PGUSER: conn.user, PGDATABASE: database, PGAPPNAME: "ptah-lock-holder" };
  const holder = spawn(conn.psql, ["-X", "-q", "-At"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let held = "";
  holder.stdout.on("data", (d: Buffer) => (held += d.toString("utf8")));
  holder.stdin.write(`BEGIN;\nLOCK TABLE ${k.concurrently!.waitsOn} IN ROW EXCLUSIVE MODE;\n\\echo locked\n`);
  try {
    await until(() => held.includes("locked"), "the holder's lock");
    const app = `ptah-lock-trace-${n}`;
    const statement = runPsql(conn, database, statementText(k.sql), ["-v", "ON_ERROR_STOP=1"], app);
    const waiting = `SELECT json_agg(json_build_object('oid', l.relation, 'mode', l.mode)) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE a.application_name = '${app}' AND l.locktype = 'relation' AND l.granted AND EXISTS (SELECT 1 FROM pg_stat_activity w WHERE w.application_name = '${app}' AND w.wait_event_type = 'Lock');`;
    let locks: { oid: number; mode: string }[] | undefined;
    await until(async () => {
      const r = await runPsql(conn, database, waiting);
      const v = r.stdout.trim();
      if (v !== "") locks = JSON.parse(v) as { oid: number; mode: string }[];
      return locks !== undefined;
    }, "the statement to wait for the holder");
    holder.stdin.end("COMMIT;\n");
    const done = await statement;
    if (done.status !== 0) return { pre, locks: [], holds: "catalog-only", error: done.stderr };
    const after = await runPsql(
      conn,
      database,
      `SELECT json_agg(json_build_object('table', i.indrelid, 'index', i.indexrelid, 'file', c.relfilenode)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace IN ${NSP} AND i.indisvalid;`,
    );
    const indexes = (JSON.parse(after.stdout.trim() || "null") ?? []) as { table: number; index: number; file: number }[];
    const tables = new Set(pre.filter((r) => r.kind === "r").map((r) => r.oid));
    const built = indexes.some((i) => tables.has(i.table) && !indexesBefore.has(`${i.index}:${i.file}`));
    return { pre, locks: (locks ?? []).map((l) => ({ oid: l.oid, mode: modeOf(l.mode) })), holds: built ? "build" : "catalog-only" };
  } finally {
    if (holder.exitCode === null) holder.stdin.end("ROLLBACK;\n");
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The differences between what PostgreSQL did and what the analyser said, as sentences; empty
 * when they agree. Compared: each relation's strongest modes (reduceLocks: what the locks block),
 * over the tables and views that existed before the statement and any relation the analyser
 * names (an index, a sequence). An index the analyser names without its table stands for that
 * table too: the server must lock the table in the index's mode. Then the hold (worst-case
 * cases: the analyser's may be longer, never shorter).
 */
/**
 * The locks PostgreSQL took, on the relations the comparison speaks of: tables, views, sequences
 * and partitions, the indexes the analyser names, and an index standing in for its table when the
 * analyser names the index and not the table.
 */
export function observedLocks(seen: Observed, said: StatementLocks): RelationLock[] {
  const byOid = new Map(seen.pre.map((r) => [r.oid, r]));
  const named = new Set(said.locks.map((l) => l.relation));
  const standIns = new Map<string, string>();
  for (const r of seen.pre) if (r.kind === "i" && r.parent !== null && named.has(r.name) && !named.has(r.parent)) standIns.set(r.parent, r.name);
  const observed: RelationLock[] = [];
  for (const l of seen.locks) {
    const r = byOid.get(l.oid);
    if (!r) continue;
    if (standIns.has(r.name)) observed.push({ relation: standIns.get(r.name)!, mode: l.mode });
    else if ("rpvmf".includes(r.kind) || named.has(r.name)) observed.push({ relation: r.name, mode: l.mode });
  }
  return observed;
}

export function compare(k: LockCase, seen: Observed, said: StatementLocks): string[] {
  if (seen.error !== undefined) return [`PostgreSQL refused or failed it: ${seen.error.trim()}`];
  if (said.notAnalysed !== undefined) return [`the analyser did not analyse it: ${said.notAnalysed}`];
  const want = reduceLocks(observedLocks(seen, said)).map((l) => `${l.mode} on ${l.relation}`);
  const got = said.locks.map((l) => `${l.mode} on ${l.relation}`);
  const out: string[] = [];
  if (want.join("; ") !== got.join("; ")) out.push(`locks: PostgreSQL took [${want.join("; ")}], the analyser says [${got.join("; ")}]`);
  const order: Holds[] = ["catalog-only", "scan", "build", "rewrite"];
  const ok = k.worstCase ? order.indexOf(said.holds) >= order.indexOf(seen.holds) : said.holds === seen.holds;
  if (!ok) out.push(`holds: PostgreSQL did a ${seen.holds}, the analyser says ${said.holds}`);
  return out;
}
