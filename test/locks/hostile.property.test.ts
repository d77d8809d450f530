// Hostile statements: whatever a plan holds, the analyser answers with a row per statement, and a
// statement it cannot read is a `notAnalysed` row with the reason: never a throw, never a crash of
// the parser that would leave later statements unanalysed.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyseStatements, MAX_STATEMENT_BYTES, preloadParser } from "../../src/locks/index.ts";

beforeAll(() => preloadParser());

const AFTER = { sql: "ALTER TABLE orders ADD COLUMN c int" };

/** Analyses `sql` followed by a plain statement, which must still be analysed. */
async function withFollower(sql: unknown) {
  const r = await analyseStatements([{ sql } as { sql: string }, AFTER], { transactionMode: "all" }, "postgres");
  expect(r.statements).toHaveLength(2);
  expect(r.statements[1]!.notAnalysed).toBeUndefined();
  expect(r.statements[1]!.locks).toEqual([{ relation: "public.orders", mode: "ACCESS EXCLUSIVE" }]);
  return r.statements[0]!;
}

describe("hostile statements are rows, never throws", () => {
  it.each([
    ["empty", ""],
    ["blank", "  \n\t "],
    ["a comment only", "-- nothing here"],
    ["a syntax error", "ALTER TABLE"],
    ["a NUL character", "ALTER TABLE t ADD COLUMN c int\u0000; DROP TABLE t"],
    ["an unterminated string", "COMMENT ON TABLE t IS 'x"],
    ["an unterminated dollar quote", "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1"],
    ["deep nesting (bison's stack)", `SELECT ${"(".repeat(100_000)}1${")".repeat(100_000)}`],
    ["deep nesting in a default", `ALTER TABLE t ADD COLUMN c int DEFAULT ${"(".repeat(50_000)}1${")".repeat(50_000)}`],
    ["over the size limit", `COMMENT ON TABLE t IS '${"x".repeat(MAX_STATEMENT_BYTES)}'`],
    ["not text", 42],
    ["a lone surrogate", "COMMENT ON TABLE t IS '\ud800'"],
  ])("%s", async (_name, sql) => {
    const s = await withFollower(sql);
    expect(typeof s.notAnalysed === "string" || s.locks.length >= 0).toBe(true);
    if (s.notAnalysed !== undefined) expect(s.locks).toEqual([]);
  });

  it("a statement over the limit names the limit", async () => {
    const s = await withFollower(`COMMENT ON TABLE t IS '${"é".repeat(MAX_STATEMENT_BYTES / 2)}'`);
    expect(s.notAnalysed).toMatch(/over the 1048576-byte limit/u);
  });

  it("nesting the parser accepts but deep: analysed or not, no throw", async () => {
    const s = await withFollower(`CREATE VIEW v AS SELECT ${"(".repeat(900)}1${")".repeat(900)} FROM orders`);
    expect(s.notAnalysed === undefined ? s.locks : []).toEqual(s.notAnalysed === undefined ? [{ relation: "public.orders", mode: "ACCESS SHARE" }] : []);
  });

  it("several statements in one entry are analysed together (their locks united)", async () => {
    const s = await withFollower("CREATE INDEX i ON a (x); ALTER TABLE b ADD COLUMN y int");
    expect(s.locks.map((l) => `${l.mode} on ${l.relation}`)).toEqual(["SHARE on public.a", "ACCESS EXCLUSIVE on public.b"]);
    expect(s.holds).toBe("build");
  });

  it("random text and random mutations of real statements", async () => {
    const base = [
      "ALTER TABLE orders ADD COLUMN c int DEFAULT random()",
      "CREATE INDEX CONCURRENTLY i ON orders (a)",
      "ALTER TABLE o ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES c (id) NOT VALID",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: "binary", maxLength: 200 }),
          fc.tuple(fc.constantFrom(...base), fc.nat(80), fc.string({ maxLength: 12 })).map(([s, at, junk]) => s.slice(0, at) + junk + s.slice(at)),
        ),
        async (sql) => {
          const s = await withFollower(sql);
          if (s.notAnalysed !== undefined) expect(s.notAnalysed.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
