// The lock-trace oracle: PostgreSQL itself says what each statement of the corpus locks and how
// long it works under the lock, and the analyser (src/locks/) must say the same. Every case runs
// on the lab's real PostgreSQL in a database of its own (test/locks/trace.ts says how: pg_locks of
// the session, relfilenode before and after, this transaction's scan counters; CONCURRENTLY cases
// sampled from another session while they wait). A mismatch fails and names the statement, what
// the server did and what the analyser said.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseStatements, type StatementLocks } from "../../src/locks/index.ts";
import { CORPUS, setupOf, type LockCase } from "../locks/corpus.ts";
import { compare, runPsql, traceConcurrently, traceInTransaction, type Observed } from "../locks/trace.ts";
import { connectionFromEnv, psql, type Connection } from "../sim/psql.ts";
import { labEnv, uniqueName } from "../support/lab.ts";

const skip = process.env.PTAH_E2E_SKIP;

let conn: Connection;
let database = "";
let version = "";
const seen = new Map<LockCase, Observed>();

async function said(k: LockCase): Promise<StatementLocks> {
  const statements = [...(k.knows ? setupOf(k) : []), k.sql].map((sql) => ({ sql }));
  const report = await analyseStatements(statements, { transactionMode: k.concurrently ? "none" : "all" }, "postgres");
  return report.statements[report.statements.length - 1]!;
}

describe.skipIf(skip)("the lock-trace oracle on the lab's PostgreSQL", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const file = path.join(labEnv().labDir, "postgres.json");
    conn = connectionFromEnv({ PTAH_LAB_POSTGRES: file });
    version = (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
    database = uniqueName("lock-trace");
    await psql(conn, "postgres", `CREATE DATABASE ${JSON.stringify(database)};`);
    const inTransaction = CORPUS.filter((k) => !k.concurrently);
    // Batches keep one psql session's script and output small; each batch is one session.
    for (let i = 0; i < inTransaction.length; i += 60) {
      const batch = inTransaction.slice(i, i + 60);
      const observed = await traceInTransaction(conn, database, batch);
      batch.forEach((k, j) => seen.set(k, observed[j]!));
    }
    let n = 0;
    for (const k of CORPUS.filter((c) => c.concurrently)) seen.set(k, await traceConcurrently(conn, database, k, n++));
  }, 600_000);

  afterAll(async () => {
    if (database) await runPsql(conn, "postgres", `DROP DATABASE IF EXISTS ${JSON.stringify(database)} WITH (FORCE);`);
  });

  it("runs on PostgreSQL 15 (the major docs/locks.md names) and holds at least 150 statements, each named once", () => {
    expect(version).toMatch(/^15\./u);
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((k) => k.name)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((k) => [`${k.name}: ${k.sql}`, k] as const))("%s", async (_name, k) => {
    const observed = seen.get(k)!;
    const differences = compare(k, observed, await said(k));
    expect(differences, `${k.sql}\n  ${differences.join("\n  ")}`).toEqual([]);
  });
});
