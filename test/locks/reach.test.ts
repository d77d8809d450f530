// The relations a statement reaches beyond the one it names, from what the plan declares: the
// other side of a foreign key, the indexes a type or collation change rebuilds, partitions and
// their DEFAULT partition, what a view reads; session settings stated as conditions; statements
// that cannot run in a transaction block; the kinds PostgreSQL documents beside tables. PostgreSQL's
// own verdicts are the generated oracle's (test/e2e/lock-oracle.e2e.test.ts); this pins the rules.
import { beforeAll, describe, expect, it } from "vitest";
import { preloadParser, type StatementLocks } from "../../src/locks/index.ts";
import { last } from "./analyse-last.ts";

beforeAll(() => preloadParser());

const shown = (s: StatementLocks) => ({
  locks: s.locks.map((l) => `${l.mode} on ${l.relation}`).join(", "),
  holds: s.holds,
  codes: s.findings.map((f) => f.code),
  notAnalysed: s.notAnalysed,
});

const KEYS = ['CREATE TABLE a (id int PRIMARY KEY, c text COLLATE "C", d varchar(10))', "CREATE INDEX a_c ON a (c)", "CREATE TABLE b (id int, a_id int REFERENCES a (id))"];
const PARTS = [
  "CREATE TABLE p (id int, k text) PARTITION BY RANGE (id)",
  "CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10)",
  "CREATE TABLE pd PARTITION OF p DEFAULT",
  "CREATE INDEX p_k ON p (k)",
];

type Row = [sql: string, before: string[], locks: string, holds: string, codes: string[]];

const TABLE: Row[] = [
  // A referenced key's type change: the referencing table too, its rows checked again.
  ["ALTER TABLE a ALTER COLUMN id TYPE bigint", KEYS, "ACCESS EXCLUSIVE on public.a, ACCESS EXCLUSIVE on public.b", "rewrite", ["type-change-rewrite", "related-relation"]],
  ["ALTER TABLE a ALTER COLUMN id TYPE int", KEYS, "ACCESS EXCLUSIVE on public.a, ACCESS EXCLUSIVE on public.b", "catalog-only", ["related-relation"]],
  ["ALTER TABLE b ALTER COLUMN a_id TYPE bigint", KEYS, "ACCESS EXCLUSIVE on public.a, ACCESS EXCLUSIVE on public.b", "rewrite", ["type-change-rewrite", "related-relation"]],
  // The keys follow a renamed table, whether the plan created it or not.
  [
    "ALTER TABLE a2 ALTER COLUMN id TYPE bigint",
    [...KEYS, "ALTER TABLE a RENAME TO a2"],
    "ACCESS EXCLUSIVE on public.a2, ACCESS EXCLUSIVE on public.b",
    "rewrite",
    ["type-change-rewrite", "related-relation"],
  ],
  [
    "ALTER TABLE x2 ALTER COLUMN id TYPE bigint",
    ["ALTER TABLE y ADD FOREIGN KEY (x_id) REFERENCES x (id)", "ALTER TABLE x RENAME TO x2"],
    "ACCESS EXCLUSIVE on public.x2, ACCESS EXCLUSIVE on public.y",
    "rewrite",
    ["type-change-rewrite", "related-relation"],
  ],
  // Dropping the column that carries a key: the referenced table too.
  ["ALTER TABLE b DROP COLUMN a_id", KEYS, "ACCESS EXCLUSIVE on public.a, ACCESS EXCLUSIVE on public.b", "catalog-only", ["related-relation"]],
  ["ALTER TABLE b DROP CONSTRAINT b_a_id_fkey", KEYS, "ACCESS EXCLUSIVE on public.a, ACCESS EXCLUSIVE on public.b", "catalog-only", []],
  // A collation change rebuilds the index on the column; a widening alone keeps it.
  ['ALTER TABLE a ALTER COLUMN c TYPE text COLLATE "POSIX"', KEYS, "ACCESS EXCLUSIVE on public.a", "build", ["related-relation"]],
  ['ALTER TABLE a ALTER COLUMN c TYPE text COLLATE "C"', KEYS, "ACCESS EXCLUSIVE on public.a", "catalog-only", []],
  ["ALTER TABLE a ALTER COLUMN c TYPE text", KEYS, "ACCESS EXCLUSIVE on public.a", "build", ["related-relation"]],
  ["ALTER TABLE a ALTER COLUMN d TYPE varchar(20)", KEYS, "ACCESS EXCLUSIVE on public.a", "catalog-only", []],
  // Partitions: recursion, the DEFAULT partition, ATTACH and DETACH in their own modes.
  ["ALTER TABLE p ADD COLUMN z int", PARTS, "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.p1, ACCESS EXCLUSIVE on public.pd", "catalog-only", []],
  [
    "ALTER TABLE p ALTER COLUMN k TYPE varchar(5)",
    PARTS,
    "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.p1, ACCESS EXCLUSIVE on public.pd",
    "rewrite",
    ["type-change-rewrite"],
  ],
  [
    'ALTER TABLE p ALTER COLUMN k TYPE text COLLATE "en-x-icu"',
    [...PARTS.slice(0, 3), "CREATE INDEX p1_k ON p1 (k)"],
    "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.p1, ACCESS EXCLUSIVE on public.pd",
    "build",
    ["related-relation"],
  ],
  ["CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20)", PARTS, "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.pd", "scan", []],
  [
    "ALTER TABLE p ATTACH PARTITION x FOR VALUES FROM (10) TO (20)",
    PARTS,
    "SHARE UPDATE EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.pd, ACCESS EXCLUSIVE on public.x",
    "build",
    [],
  ],
  ["ALTER TABLE p DETACH PARTITION p1", PARTS, "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.p1, ACCESS EXCLUSIVE on public.pd", "catalog-only", []],
  ["CREATE INDEX p_id ON p (id)", PARTS, "SHARE on public.p, SHARE on public.p1, SHARE on public.pd", "build", []],
  ["TRUNCATE p", PARTS, "ACCESS EXCLUSIVE on public.p, ACCESS EXCLUSIVE on public.p1, ACCESS EXCLUSIVE on public.pd", "rewrite", []],
  ["CREATE TABLE c (z int) INHERITS (a)", KEYS, "SHARE UPDATE EXCLUSIVE on public.a", "catalog-only", []],
  // Conditions: the session's TimeZone, the table's tablespace.
  ["ALTER TABLE t ALTER COLUMN at TYPE timestamptz", ["CREATE TABLE t (at timestamp)"], "ACCESS EXCLUSIVE on public.t", "rewrite", ["type-change-rewrite"]],
  ["ALTER TABLE t SET TABLESPACE pg_default", [], "ACCESS EXCLUSIVE on public.t", "rewrite", ["table-rewrite"]],
  // Kinds PostgreSQL documents beside tables.
  [
    "CREATE TRIGGER g BEFORE INSERT ON p FOR EACH ROW EXECUTE FUNCTION f()",
    PARTS,
    "SHARE ROW EXCLUSIVE on public.p, SHARE ROW EXCLUSIVE on public.p1, SHARE ROW EXCLUSIVE on public.pd",
    "catalog-only",
    [],
  ],
  ["DROP TRIGGER g ON s.t", [], "ACCESS EXCLUSIVE on s.t", "catalog-only", []],
  ["CREATE RULE r AS ON INSERT TO a DO ALSO INSERT INTO b (id) VALUES (1)", [], "ACCESS EXCLUSIVE on public.a, ROW EXCLUSIVE on public.b", "catalog-only", []],
  ["CREATE POLICY pol ON a USING (true)", [], "ACCESS EXCLUSIVE on public.a", "catalog-only", []],
  ["CREATE STATISTICS st ON id, c FROM a", [], "SHARE UPDATE EXCLUSIVE on public.a", "catalog-only", []],
  ["ANALYZE a", [], "SHARE UPDATE EXCLUSIVE on public.a", "scan", ["related-relation"]],
  ["ANALYZE a", ["CREATE TABLE a (id int)"], "SHARE UPDATE EXCLUSIVE on public.a", "scan", []],
  [
    "ANALYZE e",
    [
      "CREATE TABLE e (id int) PARTITION BY RANGE (id)",
      "CREATE TABLE e1 PARTITION OF e FOR VALUES FROM (0) TO (9) PARTITION BY LIST (id)",
      "CREATE TABLE e1a PARTITION OF e1 DEFAULT",
      "CREATE TABLE ed PARTITION OF e DEFAULT",
    ],
    "SHARE UPDATE EXCLUSIVE on public.e, SHARE UPDATE EXCLUSIVE on public.e1, SHARE UPDATE EXCLUSIVE on public.e1a, SHARE UPDATE EXCLUSIVE on public.ed",
    "scan",
    [],
  ],
  [
    "CREATE INDEX ON ONLY e (id)",
    ["CREATE TABLE e (id int) PARTITION BY RANGE (id)", "CREATE TABLE e1 PARTITION OF e FOR VALUES FROM (0) TO (9)"],
    "SHARE on public.e",
    "build",
    [],
  ],
  [
    "CREATE INDEX ON e (id)",
    ["CREATE TABLE e (id int) PARTITION BY RANGE (id)", "CREATE TABLE e1 PARTITION OF e FOR VALUES FROM (0) TO (9)"],
    "SHARE on public.e, SHARE on public.e1",
    "build",
    [],
  ],
  [
    "VACUUM FULL e",
    ["CREATE TABLE e (id int) PARTITION BY RANGE (id)", "CREATE TABLE e1 PARTITION OF e FOR VALUES FROM (0) TO (9)"],
    "ACCESS EXCLUSIVE on public.e, ACCESS EXCLUSIVE on public.e1",
    "rewrite",
    ["table-rewrite", "table-rewrite"],
  ],
  ["CREATE TABLE g AS SELECT * FROM v", ["CREATE VIEW v AS SELECT * FROM a"], "ACCESS SHARE on public.a, ACCESS SHARE on public.v", "scan", []],
  ["REFRESH MATERIALIZED VIEW m", ["CREATE MATERIALIZED VIEW m AS SELECT * FROM a"], "ACCESS SHARE on public.a, ACCESS EXCLUSIVE on public.m", "rewrite", []],
  ["REFRESH MATERIALIZED VIEW CONCURRENTLY m", ["CREATE MATERIALIZED VIEW m AS SELECT * FROM a"], "ACCESS SHARE on public.a, EXCLUSIVE on public.m", "scan", []],
  ["REFRESH MATERIALIZED VIEW m", [], "ACCESS EXCLUSIVE on public.m", "rewrite", ["related-relation"]],
  ["ALTER INDEX i SET (fillfactor = 50)", [], "SHARE UPDATE EXCLUSIVE on public.i", "catalog-only", []],
  ["ALTER INDEX i SET TABLESPACE pg_default", [], "ACCESS EXCLUSIVE on public.i", "build", []],
  // A data-modifying WITH: each row change in it as if alone, beside the statement's own.
  ["WITH d AS (DELETE FROM b WHERE id = 1 RETURNING id) SELECT count(*) FROM d", KEYS, "ROW EXCLUSIVE on public.b", "scan", []],
  [
    "WITH d AS (DELETE FROM a WHERE id = 1 RETURNING id) INSERT INTO c2 SELECT id FROM d",
    [...KEYS, "CREATE TABLE c2 (id int)"],
    "ROW EXCLUSIVE on public.a, ROW EXCLUSIVE on public.b, ROW EXCLUSIVE on public.c2",
    "scan",
    [],
  ],
  [
    "WITH i AS (INSERT INTO b (id, a_id) VALUES (1, 1) RETURNING id) UPDATE a SET c = 'x' WHERE id IN (SELECT id FROM i)",
    KEYS,
    "ROW EXCLUSIVE on public.a, ROW EXCLUSIVE on public.b",
    "scan",
    [],
  ],
  // A query: ACCESS SHARE on what it reads (through views); FOR UPDATE/SHARE anywhere in it, ROW SHARE.
  ["SELECT * FROM a", KEYS, "ACCESS SHARE on public.a", "scan", []],
  ["WITH s AS (SELECT id FROM a) SELECT * FROM s", KEYS, "ACCESS SHARE on public.a", "scan", []],
  ["SELECT * FROM v", [...KEYS, "CREATE VIEW v AS SELECT * FROM a"], "ACCESS SHARE on public.a, ACCESS SHARE on public.v", "scan", []],
  ["SELECT * FROM a FOR UPDATE", KEYS, "ROW SHARE on public.a", "scan", []],
  ["SELECT * FROM b JOIN a ON a.id = b.a_id FOR KEY SHARE OF b", KEYS, "ROW SHARE on public.a, ROW SHARE on public.b", "scan", []],
  ["SELECT * FROM b WHERE a_id IN (SELECT id FROM a FOR SHARE)", KEYS, "ROW SHARE on public.a, ROW SHARE on public.b", "scan", []],
  // The same for what a CREATE TABLE AS, a SELECT INTO or a row change reads (PostgreSQL 15: pg_locks).
  ["CREATE TABLE x AS WITH d AS (DELETE FROM a RETURNING id) SELECT * FROM d", KEYS, "ROW EXCLUSIVE on public.a, ROW EXCLUSIVE on public.b", "scan", []],
  ["SELECT id INTO TEMP t FROM a FOR UPDATE", KEYS, "ROW SHARE on public.a", "scan", []],
  ["CREATE TABLE y AS SELECT * FROM a FOR UPDATE", KEYS, "ROW SHARE on public.a", "scan", []],
  ["INSERT INTO c2 SELECT id FROM a FOR UPDATE", [...KEYS, "CREATE TABLE c2 (id int)"], "ROW SHARE on public.a, ROW EXCLUSIVE on public.c2", "scan", []],
  // COPY: FROM as an INSERT of its rows, TO as a read of its table or its query.
  ["COPY b FROM '/dev/null'", KEYS, "ROW SHARE on public.a, ROW EXCLUSIVE on public.b", "scan", []],
  ["COPY p FROM '/dev/null'", PARTS, "ROW EXCLUSIVE on public.p, ROW EXCLUSIVE on public.p1, ROW EXCLUSIVE on public.pd", "catalog-only", []],
  ["COPY a TO '/dev/null'", KEYS, "ACCESS SHARE on public.a", "scan", []],
  ["COPY (SELECT * FROM b) TO '/dev/null'", KEYS, "ACCESS SHARE on public.b", "scan", []],
  ["COPY (DELETE FROM b WHERE id = 1 RETURNING id) TO '/dev/null'", KEYS, "ROW EXCLUSIVE on public.b", "scan", []],
];

describe("reach beyond the named relation", () => {
  it.each(TABLE)("%s (after %j)", async (sql, before, locks, holds, codes) => {
    expect(shown(await last(sql, before))).toEqual({ locks, holds, codes, notAnalysed: undefined });
  });

  it("says what it cannot know of a table the plan did not create, naming the lock", async () => {
    const type = await last("ALTER TABLE t ALTER COLUMN id TYPE bigint");
    expect(type.findings[0]!.message).toContain("the table at the other end is taken ACCESS EXCLUSIVE");
    const drop = await last("ALTER TABLE t DROP COLUMN c");
    expect(drop.findings[0]!.message).toContain("if c carries a foreign key, the table it references is taken ACCESS EXCLUSIVE too");
    const part = await last("CREATE TABLE q1 PARTITION OF q FOR VALUES IN (1)");
    expect(part.findings[0]!.message).toContain("DEFAULT partition, that partition is taken ACCESS EXCLUSIVE");
    expect((await last("ANALYZE t")).findings[0]!.message).toContain("if it is partitioned, ANALYZE takes each partition SHARE UPDATE EXCLUSIVE too");
  });

  it("states the session and tablespace conditions in the finding", async () => {
    expect((await last("ALTER TABLE t ALTER COLUMN at TYPE timestamptz", ["CREATE TABLE t (at timestamp)"])).findings[0]!.message).toContain("unless the session TimeZone is UTC");
    expect((await last("ALTER TABLE t SET TABLESPACE pg_default")).findings[0]!.message).toContain("unless it is in tablespace pg_default already");
  });
});

describe("statements that cannot run inside a transaction block", () => {
  it.each(["VACUUM FULL a", "VACUUM a", "CREATE DATABASE d", "ALTER SYSTEM SET work_mem = '8MB'", "ALTER TABLE p DETACH PARTITION p1 CONCURRENTLY"])(
    "%s: a finding under all and file, none under none",
    async (sql) => {
      for (const mode of ["all", "file"] as const) expect((await last(sql, [], { transactionMode: mode })).findings.map((f) => f.code)).toContain("concurrently-in-transaction");
      expect((await last(sql, [], { transactionMode: "none" })).findings.map((f) => f.code)).not.toContain("concurrently-in-transaction");
    },
  );

  it("VACUUM FULL rewrites under ACCESS EXCLUSIVE", async () => {
    expect(shown(await last("VACUUM FULL a"))).toEqual({
      locks: "ACCESS EXCLUSIVE on public.a",
      holds: "rewrite",
      codes: ["table-rewrite", "related-relation"],
      notAnalysed: undefined,
    });
  });
});

describe("a plan that moves search_path off public", () => {
  it.each([
    [["SET search_path = s"], "after SET search_path = s, an unqualified name may be in another schema than public, where the analyser resolves it"],
    [["SET LOCAL search_path TO s, public"], "after SET search_path = s, public, an unqualified name may be in another schema than public, where the analyser resolves it"],
    [["SET search_path = public"], undefined],
    [["SET search_path = '$user', public"], undefined],
    [["SET search_path = s", "RESET search_path"], undefined],
    [["SET search_path = s", "SET search_path TO DEFAULT"], undefined],
  ])("after %j, a later statement's names: %s", async (before, notAnalysed) => {
    expect((await last("ANALYZE e", ["CREATE TABLE e (id int)", ...before])).notAnalysed).toBe(notAnalysed);
  });
});
