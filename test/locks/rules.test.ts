// The analyser's rules as a table: each statement (with what the plan said before it) and the
// locks, what they block, how long they hold, and the findings' codes. PostgreSQL's own verdicts
// for these statements are the lock-trace oracle's (test/e2e/lock-trace.e2e.test.ts); this table
// pins the findings and the parts the oracle does not see (the transaction view, dialects).
import { beforeAll, describe, expect, it } from "vitest";
import { analyseStatements, blocksOf, FINDING_CODES, preloadParser, reduceLocks, type LockPolicy } from "../../src/locks/index.ts";
import { last } from "./analyse-last.ts";

beforeAll(() => preloadParser());

const ORDERS = "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL, total numeric(10,2), status varchar(20), memo text)";

// c ← o ← i: o references c (ON DELETE CASCADE), i references o.
const SHOP = [
  "CREATE TABLE c (id int PRIMARY KEY)",
  "CREATE TABLE o (id int PRIMARY KEY, c_id int REFERENCES c ON DELETE CASCADE)",
  "CREATE TABLE i (id int, o_id int REFERENCES o)",
];
const EVENTS = ["CREATE TABLE e (id int) PARTITION BY RANGE (id)", "CREATE TABLE e1 PARTITION OF e FOR VALUES FROM (0) TO (10)"];

type Row = [sql: string, before: string[], locks: string, blocks: string, holds: string, codes: string[]];

const TABLE: Row[] = [
  ["CREATE INDEX i ON orders (status)", [], "SHARE on public.orders", "writes", "build", ["index-not-concurrent"]],
  ["CREATE INDEX CONCURRENTLY i ON orders (status)", [], "SHARE UPDATE EXCLUSIVE on public.orders", "nothing", "build", []],
  ["DROP INDEX i", [], "ACCESS EXCLUSIVE on public.i", "reads and writes", "catalog-only", ["drop-index-not-concurrent"]],
  ["DROP INDEX i", ["CREATE INDEX CONCURRENTLY i ON s.orders (status)"], "ACCESS EXCLUSIVE on public.i", "reads and writes", "catalog-only", ["drop-index-not-concurrent"]],
  [
    "DROP INDEX s.i",
    ["CREATE INDEX CONCURRENTLY i ON s.orders (status)"],
    "ACCESS EXCLUSIVE on s.i, ACCESS EXCLUSIVE on s.orders",
    "reads and writes",
    "catalog-only",
    ["drop-index-not-concurrent"],
  ],
  ["DROP INDEX CONCURRENTLY i", [], "SHARE UPDATE EXCLUSIVE on public.i", "nothing", "catalog-only", []],
  ["ALTER TABLE orders ADD COLUMN c int", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ADD COLUMN c int DEFAULT 7", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ADD COLUMN c timestamptz DEFAULT now()", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ADD COLUMN c float8 DEFAULT random()", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["volatile-default-rewrite"]],
  ["ALTER TABLE orders ADD COLUMN c int DEFAULT my_func()", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["volatile-default-rewrite"]],
  ["ALTER TABLE orders ADD COLUMN c bigserial", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["volatile-default-rewrite"]],
  ["ALTER TABLE orders ADD COLUMN c int NOT NULL", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "scan", ["not-null-without-default"]],
  ["ALTER TABLE orders ALTER COLUMN status TYPE varchar(40)", [ORDERS], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ALTER COLUMN status TYPE text", [ORDERS], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ALTER COLUMN status TYPE varchar(10)", [ORDERS], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["type-change-rewrite"]],
  ["ALTER TABLE orders ALTER COLUMN status TYPE text", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["type-change-rewrite"]],
  ["ALTER TABLE orders ALTER COLUMN customer_id TYPE int", [ORDERS], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["type-change-rewrite"]],
  ["ALTER TABLE orders ALTER COLUMN total SET NOT NULL", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "scan", ["set-not-null-scan"]],
  [
    "ALTER TABLE orders ALTER COLUMN total SET NOT NULL",
    [ORDERS, "ALTER TABLE orders ADD CONSTRAINT t_nn CHECK (total IS NOT NULL)"],
    "ACCESS EXCLUSIVE on public.orders",
    "reads and writes",
    "catalog-only",
    [],
  ],
  [
    "ALTER TABLE orders ALTER COLUMN total SET NOT NULL",
    [ORDERS, "ALTER TABLE orders ADD CONSTRAINT t_nn CHECK (total IS NOT NULL) NOT VALID"],
    "ACCESS EXCLUSIVE on public.orders",
    "reads and writes",
    "scan",
    ["set-not-null-scan"],
  ],
  [
    "ALTER TABLE orders ALTER COLUMN total SET NOT NULL",
    [ORDERS, "ALTER TABLE orders ADD CONSTRAINT t_nn CHECK (total IS NOT NULL) NOT VALID", "ALTER TABLE orders VALIDATE CONSTRAINT t_nn"],
    "ACCESS EXCLUSIVE on public.orders",
    "reads and writes",
    "catalog-only",
    [],
  ],
  [
    "ALTER TABLE orders ALTER COLUMN total SET NOT NULL",
    // A CHECK passes when its expression is NULL: `total > 0` proves nothing, and PostgreSQL scans.
    [ORDERS, "ALTER TABLE orders ADD CONSTRAINT t_pos CHECK (total > 0)"],
    "ACCESS EXCLUSIVE on public.orders",
    "reads and writes",
    "scan",
    ["set-not-null-scan"],
  ],
  [
    "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers (id)",
    [],
    "SHARE ROW EXCLUSIVE on public.customers, SHARE ROW EXCLUSIVE on public.orders",
    "writes",
    "scan",
    ["foreign-key-validates"],
  ],
  [
    "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID",
    [],
    "SHARE ROW EXCLUSIVE on public.customers, SHARE ROW EXCLUSIVE on public.orders",
    "writes",
    "catalog-only",
    [],
  ],
  [
    "ALTER TABLE orders VALIDATE CONSTRAINT fk",
    [ORDERS, "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID"],
    "ROW SHARE on public.customers, SHARE UPDATE EXCLUSIVE on public.orders",
    "nothing",
    "scan",
    [],
  ],
  ["ALTER TABLE orders ADD CONSTRAINT c CHECK (total > 0)", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "scan", ["check-validates"]],
  ["ALTER TABLE orders ADD CONSTRAINT c CHECK (total > 0) NOT VALID", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  ["ALTER TABLE orders ADD CONSTRAINT u UNIQUE (status)", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "build", ["constraint-builds-index"]],
  ["ALTER TABLE orders ADD CONSTRAINT u UNIQUE USING INDEX u_idx", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "catalog-only", []],
  [
    "ALTER TABLE orders ALTER COLUMN status SET STATISTICS 100, ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES c (id) NOT VALID",
    [],
    "SHARE ROW EXCLUSIVE on public.c, SHARE ROW EXCLUSIVE on public.orders",
    "writes",
    "catalog-only",
    [],
  ],
  ["ALTER TABLE orders SET (fillfactor = 70)", [], "SHARE UPDATE EXCLUSIVE on public.orders", "nothing", "catalog-only", []],
  ["ALTER TABLE orders DISABLE TRIGGER ALL", [], "SHARE ROW EXCLUSIVE on public.orders", "writes", "catalog-only", []],
  ["ALTER TABLE orders SET UNLOGGED", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", ["table-rewrite"]],
  ['ALTER TABLE "Sales"."Orders" RENAME COLUMN a TO b', [], 'ACCESS EXCLUSIVE on "Sales"."Orders"', "reads and writes", "catalog-only", []],
  ["ALTER TABLE SALES.ORDERS DROP COLUMN a", [], "ACCESS EXCLUSIVE on sales.orders", "reads and writes", "catalog-only", ["related-relation"]],
  ["CREATE TABLE payments (id bigint, order_id bigint REFERENCES orders (id))", [], "SHARE ROW EXCLUSIVE on public.orders", "writes", "catalog-only", []],
  ['CREATE TABLE "invoices" ("id" bigint NOT NULL, PRIMARY KEY ("id"))', [], "", "nothing", "catalog-only", []],
  [
    "DROP TABLE orders",
    [ORDERS, "CREATE TABLE customers (id bigint PRIMARY KEY)", "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID"],
    "ACCESS EXCLUSIVE on public.customers, ACCESS EXCLUSIVE on public.orders",
    "reads and writes",
    "catalog-only",
    [],
  ],
  ["TRUNCATE orders", [], "ACCESS EXCLUSIVE on public.orders", "reads and writes", "rewrite", []],
  ["LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE", [], "SHARE ROW EXCLUSIVE on public.orders", "writes", "catalog-only", []],
  [
    "CREATE VIEW v AS WITH r AS (SELECT * FROM orders) SELECT * FROM r JOIN customers USING (id)",
    [],
    "ACCESS SHARE on public.customers, ACCESS SHARE on public.orders",
    "nothing",
    "catalog-only",
    [],
  ],
  ["COMMENT ON COLUMN orders.status IS 'x'", [], "SHARE UPDATE EXCLUSIVE on public.orders", "nothing", "catalog-only", []],
  ['CREATE SCHEMA "reporting"', [], "", "nothing", "catalog-only", []],
  ['DROP SCHEMA "reporting"', [], "", "nothing", "catalog-only", []],
  // Row changes: the target, what is read, both sides of the plan's keys, rules and triggers.
  ["INSERT INTO c VALUES (1)", SHOP, "ROW EXCLUSIVE on public.c", "nothing", "catalog-only", []],
  ["INSERT INTO o VALUES (1, 1)", SHOP, "ROW SHARE on public.c, ROW EXCLUSIVE on public.o", "nothing", "scan", []],
  ["DELETE FROM c WHERE id = 1", SHOP, "ROW EXCLUSIVE on public.c, ROW EXCLUSIVE on public.i, ROW EXCLUSIVE on public.o", "nothing", "scan", []],
  ["UPDATE o SET c_id = 2", SHOP, "ROW SHARE on public.c, ROW EXCLUSIVE on public.i, ROW EXCLUSIVE on public.o", "nothing", "scan", []],
  ["DELETE FROM ONLY i", SHOP, "ROW EXCLUSIVE on public.i", "nothing", "scan", []],
  [
    "MERGE INTO c USING s ON c.id = s.id WHEN MATCHED THEN DELETE",
    [...SHOP, "CREATE TABLE s (id int)"],
    "ROW EXCLUSIVE on public.c, ROW EXCLUSIVE on public.i, ROW EXCLUSIVE on public.o, ACCESS SHARE on public.s",
    "nothing",
    "scan",
    [],
  ],
  ["INSERT INTO e VALUES (1)", EVENTS, "ROW EXCLUSIVE on public.e, ROW EXCLUSIVE on public.e1", "nothing", "catalog-only", []],
  ["UPDATE ONLY e SET id = 2", EVENTS, "ROW EXCLUSIVE on public.e", "nothing", "scan", []],
  [
    "INSERT INTO e SELECT id FROM v",
    [...EVENTS, "CREATE VIEW v AS SELECT id FROM c", ...SHOP],
    "ACCESS SHARE on public.c, ROW EXCLUSIVE on public.e, ROW EXCLUSIVE on public.e1, ACCESS SHARE on public.v",
    "nothing",
    "scan",
    [],
  ],
  [
    "INSERT INTO c VALUES (1)",
    [...SHOP, "CREATE TRIGGER t BEFORE INSERT ON c FOR EACH ROW EXECUTE FUNCTION f()"],
    "ROW EXCLUSIVE on public.c",
    "nothing",
    "catalog-only",
    ["related-relation"],
  ],
  [
    "INSERT INTO c VALUES (1)",
    [...SHOP, "CREATE TABLE l (id int)", "CREATE RULE r AS ON INSERT TO c DO ALSO INSERT INTO l VALUES (NEW.id)"],
    "ROW EXCLUSIVE on public.c, ROW EXCLUSIVE on public.l",
    "nothing",
    "scan",
    [],
  ],
  ["INSERT INTO countries VALUES ('DE')", [], "ROW EXCLUSIVE on public.countries", "nothing", "scan", ["related-relation"]],
];

describe("each rule", () => {
  it.each(TABLE)("%s (after %j)", async (sql, before, locks, blocks, holds, codes) => {
    const s = await last(sql, before);
    expect(s.notAnalysed).toBeUndefined();
    expect(s.locks.map((l) => `${l.mode} on ${l.relation}`).join(", ")).toBe(locks);
    expect(s.blocks).toBe(blocks);
    expect(s.holds).toBe(holds);
    expect(s.findings.map((f) => f.code)).toEqual(codes);
    for (const f of s.findings) expect(FINDING_CODES).toContain(f.code);
  });
});

describe("what is not analysed is said, with the reason", () => {
  it.each([
    ["ALTER TABLE orders INHERIT q", /AddInherit/u],
    ["DROP TABLE orders CASCADE", /CASCADE/u],
    ["VACUUM", /VACUUM or ANALYZE of every table/u],
    ["ALTER INDEX i ATTACH PARTITION j", /ALTER INDEX AttachPartition/u],
    ["CREATE EXTENSION pgcrypto", /CreateExtension/u],
    ["SELEC 1", /parser refused it: syntax error/u],
  ])("%s", async (sql, why) => {
    const s = await last(sql);
    expect(s.notAnalysed).toMatch(why);
    expect(s.locks).toEqual([]);
  });

  it("another dialect: one reason for the whole plan", async () => {
    const r = await analyseStatements([{ sql: "ALTER TABLE t ADD COLUMN c int" }], {}, "mysql");
    expect(r).toMatchObject({ analysed: false, reason: "not analysed (dialect mysql)", statements: [], notAnalysed: 1 });
  });
});

describe("findings that depend on the policy", () => {
  it("CONCURRENTLY under transactionMode all or file (the default) cannot run; under none it can", async () => {
    for (const mode of ["all", "file", undefined] as const) {
      expect((await last("CREATE INDEX CONCURRENTLY i ON orders (a)", [], { transactionMode: mode })).findings.map((f) => f.code)).toEqual(["concurrently-in-transaction"]);
    }
    expect((await last("DROP INDEX CONCURRENTLY i", [], { transactionMode: "all" })).findings.map((f) => f.code)).toEqual(["concurrently-in-transaction"]);
    expect((await last("CREATE INDEX CONCURRENTLY i ON orders (a)", [], { transactionMode: "none" })).findings).toEqual([]);
  });

  it("a protected table: a finding when the lock blocks anything, none when it blocks nothing", async () => {
    const policy: LockPolicy = { transactionMode: "none", protectedTables: ["Orders"] };
    expect((await last("ALTER TABLE orders ADD COLUMN c int", [], policy)).findings.map((f) => f.code)).toEqual(["protected-table"]);
    expect((await last("ALTER TABLE public.orders SET (fillfactor = 50)", [], policy)).findings).toEqual([]);
    expect((await last("ALTER TABLE sales.orders ADD COLUMN c int", [], policy)).findings).toEqual([]);
    expect((await last("ALTER TABLE sales.orders ADD COLUMN c int", [], { protectedTables: ["sales.orders"], transactionMode: "none" })).findings.map((f) => f.code)).toEqual([
      "protected-table",
    ]);
  });
});

describe("the transaction view", () => {
  const plan = ["ALTER TABLE orders ADD COLUMN c int", "CREATE INDEX i ON customers (email)", "ALTER TABLE orders ALTER COLUMN status SET STATISTICS 10"].map((sql) => ({ sql }));

  it("all: one span, the union of the locks, the longest step; a blocking lock held through a later build is a finding", async () => {
    const r = await analyseStatements(plan, { transactionMode: "all", lockTimeout: "5s" }, "postgres");
    expect(r.transaction.spans).toHaveLength(1);
    expect(r.transaction.spans[0]).toMatchObject({ first: 0, last: 2, blocks: "reads and writes", longest: "build" });
    expect(r.transaction.spans[0]!.locks.map((l) => `${l.mode} on ${l.relation}`)).toEqual(["SHARE on public.customers", "ACCESS EXCLUSIVE on public.orders"]);
    expect(r.transaction.lockTimeout).toBe("5s");
    expect(r.transaction.summary).toContain("ACCESS EXCLUSIVE on public.orders");
    expect(r.transaction.summary).toContain("lockTimeout 5s");
    expect(r.statements[0]!.findings.map((f) => f.code)).toEqual(["held-through-later-step"]);
    expect(r.findings).toBe(2);
  });

  it("file: a schema plan is one file, so the same one span; none: one span per statement, nothing held past its commit", async () => {
    const file = await analyseStatements(plan, {}, "postgres");
    expect(file.transaction.mode).toBe("file");
    expect(file.transaction.spans).toHaveLength(1);
    expect(file.transaction.lockTimeout).toBe("30s");
    const none = await analyseStatements(plan, { transactionMode: "none" }, "postgres");
    expect(none.transaction.spans.map((s) => [s.first, s.last, s.longest])).toEqual([
      [0, 0, "catalog-only"],
      [1, 1, "build"],
      [2, 2, "catalog-only"],
    ]);
    expect(none.statements.flatMap((s) => s.findings.map((f) => f.code))).toEqual(["index-not-concurrent"]);
  });
});

describe("the mode table", () => {
  it("what each mode blocks, and which held modes cover others", () => {
    expect(blocksOf(["ACCESS SHARE"])).toBe("nothing");
    expect(blocksOf(["ROW EXCLUSIVE"])).toBe("nothing");
    expect(blocksOf(["SHARE UPDATE EXCLUSIVE"])).toBe("nothing");
    expect(blocksOf(["SHARE"])).toBe("writes");
    expect(blocksOf(["SHARE ROW EXCLUSIVE"])).toBe("writes");
    expect(blocksOf(["EXCLUSIVE"])).toBe("writes");
    expect(blocksOf(["ACCESS EXCLUSIVE"])).toBe("reads and writes");
    const t = "public.t";
    expect(
      reduceLocks([
        { relation: t, mode: "ACCESS SHARE" },
        { relation: t, mode: "SHARE ROW EXCLUSIVE" },
      ]),
    ).toEqual([{ relation: t, mode: "SHARE ROW EXCLUSIVE" }]);
    expect(
      reduceLocks([
        { relation: t, mode: "ROW EXCLUSIVE" },
        { relation: t, mode: "SHARE" },
      ]),
    ).toEqual([
      { relation: t, mode: "ROW EXCLUSIVE" },
      { relation: t, mode: "SHARE" },
    ]);
  });
});
