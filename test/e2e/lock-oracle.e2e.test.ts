// The generated lock oracle: statements drawn from a grammar (test/locks/generated.ts) over a
// schema with foreign keys, indexes, collations, partitions, views and triggers run on the lab's
// real PostgreSQL, each in a transaction rolled back (test/locks/trace.ts reads pg_locks of the
// backend, relfilenodes before and after, this transaction's scan counters). The analyser's verdict
// must never be weaker than what the server did (test/locks/never-weaker.ts): one under-report
// fails with the statement and the difference. Over-reports are counted and printed (docs/locks.md
// states a run's figures). A fixed seed gives the same cases every run; a random seed, printed,
// adds new ones (PTAH_LOCK_ORACLE_SEED replays it).
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseStatements } from "../../src/locks/index.ts";
import { generatedCase, planOf, SETUP_OK, toLockCase } from "../locks/generated.ts";
import { judge, type Judgement } from "../locks/never-weaker.ts";
import { runPsql, traceInTransaction } from "../locks/trace.ts";
import { connectionFromEnv, psql, type Connection } from "../sim/psql.ts";
import { labEnv, uniqueName } from "../support/lab.ts";

const skip = process.env.PTAH_E2E_SKIP;
const FIXED_SEED = 55;
const FIXED_RUNS = 450;
const RANDOM_RUNS = 100;
const randomSeed = Number(process.env.PTAH_LOCK_ORACLE_SEED ?? Math.floor(Math.random() * 2 ** 31));

interface Outcome {
  readonly seed: number;
  readonly before: readonly string[];
  readonly sql: string;
  readonly judgement: Judgement;
}

let conn: Connection;
let database = "";
const outcomes: Outcome[] = [];

describe.skipIf(skip)("the generated lock oracle on the lab's PostgreSQL", { timeout: 1_200_000 }, () => {
  beforeAll(async () => {
    const file = process.env.PTAH_LAB_POSTGRES ?? path.join(labEnv().labDir, "postgres.json");
    conn = connectionFromEnv({ PTAH_LAB_POSTGRES: file });
    expect((JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version).toMatch(/^15\./u);
    database = uniqueName("lock-oracle");
    await psql(conn, "postgres", `CREATE DATABASE ${JSON.stringify(database)};`);
    for (const [seed, runs] of [
      [FIXED_SEED, FIXED_RUNS],
      [randomSeed, RANDOM_RUNS],
    ] as const) {
      const cases = fc.sample(generatedCase, { seed, numRuns: runs });
      for (let i = 0; i < cases.length; i += 50) {
        const batch = cases.slice(i, i + 50);
        const observed = await traceInTransaction(
          conn,
          database,
          batch.map((g, j) => toLockCase(g, i + j)),
        );
        for (const [j, g] of batch.entries()) {
          const report = await analyseStatements(
            planOf(g).map((sql) => ({ sql })),
            { transactionMode: "all" },
            "postgres",
          );
          const seen = observed[j]!;
          const ran = seen.error !== undefined || seen.pre.some((r) => r.name === `public.${SETUP_OK}`);
          const judgement = ran ? judge(seen, report.statements[report.statements.length - 1]!) : { refused: "an earlier statement failed", under: [], over: [] };
          outcomes.push({ seed, ...g, judgement });
        }
      }
    }
  }, 1_200_000);

  afterAll(async () => {
    if (database) await runPsql(conn, "postgres", `DROP DATABASE IF EXISTS ${JSON.stringify(database)} WITH (FORCE);`);
  });

  it(`runs at least 500 cases (seeds ${FIXED_SEED} and ${randomSeed}), most of them accepted by PostgreSQL`, () => {
    const ran = outcomes.filter((o) => o.judgement.refused === undefined);
    const over = ran.filter((o) => o.judgement.over.length > 0);
    console.log(
      `lock oracle: seeds ${FIXED_SEED} and ${randomSeed}: ${outcomes.length} cases, ${ran.length} run by PostgreSQL (${outcomes.length - ran.length} refused), ` +
        `${ran.filter((o) => o.judgement.under.length > 0).length} under-reports, ${over.length} over-reports (${((100 * over.length) / Math.max(ran.length, 1)).toFixed(1)}%)`,
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(500);
    expect(ran.length).toBeGreaterThanOrEqual(outcomes.length / 2);
  });

  it("never says a statement is gentler than PostgreSQL found it", () => {
    const under = outcomes.filter((o) => o.judgement.under.length > 0);
    const lines = under.map((o) => `seed ${o.seed}: ${[...o.before, o.sql].join("; ")}\n    ${o.judgement.under.join("\n    ")}`);
    expect(lines, `${under.length} under-reports:\n${lines.join("\n")}`).toEqual([]);
  });
});
