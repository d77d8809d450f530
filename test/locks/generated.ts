// The generated lock oracle's grammar: a schema with foreign keys both ways, indexes (plain,
// expression, on a collated column), collations, a partitioned table with a DEFAULT partition, a
// view, a materialized view and a trigger; and statements drawn over it (fast-check), each case one
// to three statements: the last one is traced, the others run before it as part of the plan. The
// analyser is given the schema's DDL and the earlier statements as the plan's own statements, so
// what it may know it must use. test/e2e/lock-oracle.e2e.test.ts runs the cases on PostgreSQL.
import fc from "fast-check";
import type { LockCase } from "./corpus.ts";
import { rowChange, UNREFERENCED } from "./generated-rows.ts";

const ROWS = 400;

/** The schema every case starts from (its DDL is the start of the plan the analyser reads). */
export const SCHEMA: readonly string[] = [
  'CREATE TABLE customers (id int PRIMARY KEY, name text COLLATE "C", email varchar(100) UNIQUE, region text, since timestamp, score int)',
  "CREATE INDEX customers_name_idx ON customers (name)",
  "CREATE INDEX customers_lower_email_idx ON customers (lower(email))",
  "CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers (id), total numeric(10,2), status varchar(20), note text, placed timestamptz, code text COLLATE \"C\" CHECK (code <> ''))",
  "CREATE INDEX orders_status_idx ON orders (status)",
  "CREATE INDEX orders_code_idx ON orders (code) WHERE total > 0",
  "CREATE TABLE items (id int PRIMARY KEY, order_id int, qty int CHECK (qty > 0), sku text, CONSTRAINT items_order_fk FOREIGN KEY (order_id) REFERENCES orders (id))",
  "CREATE TABLE events (id int NOT NULL, kind text, at timestamp, payload text) PARTITION BY RANGE (id)",
  "CREATE TABLE events_1 PARTITION OF events FOR VALUES FROM (0) TO (1000)",
  "CREATE TABLE events_2 PARTITION OF events FOR VALUES FROM (1000) TO (2000)",
  "CREATE TABLE events_d PARTITION OF events DEFAULT",
  "CREATE INDEX events_kind_idx ON events (kind)",
  "CREATE TABLE loose (id int NOT NULL, kind text, at timestamp, payload text)",
  "CREATE TABLE notes (id int, body text, customer_id int, created timestamptz)",
  "CREATE VIEW big_orders AS SELECT id, customer_id FROM orders WHERE customer_id > 10",
  "CREATE MATERIALIZED VIEW region_counts AS SELECT region, count(*) AS n FROM customers GROUP BY region",
  "CREATE UNIQUE INDEX region_counts_key ON region_counts (region)",
  "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
  "CREATE TRIGGER items_touch BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION touch()",
];

/** The rows: every table holds some, so a scan or a rewrite is seen. */
const ROWS_SQL: readonly string[] = [
  `INSERT INTO customers SELECT g, 'n' || g, 'e' || g || '@x', 'r' || (g % 5), timestamp '2026-01-01' + g * interval '1 hour', g FROM generate_series(1, ${ROWS + UNREFERENCED}) g`,
  `INSERT INTO orders SELECT g, g % ${ROWS} + 1, g, 'new', 'n' || g, timestamptz '2026-01-01' + g * interval '1 hour', 'c' || g FROM generate_series(1, ${ROWS + UNREFERENCED}) g`,
  `INSERT INTO items SELECT g, g % ${ROWS} + 1, 1 + g % 3, 's' || g FROM generate_series(1, ${ROWS}) g`,
  `INSERT INTO events SELECT g * 5 % 2500, 'k' || (g % 4), timestamp '2026-01-01', 'p' FROM generate_series(1, ${ROWS}) g`,
  `INSERT INTO loose SELECT 5000 + g, 'k', timestamp '2026-01-01', 'p' FROM generate_series(1, ${ROWS}) g`,
  `INSERT INTO notes SELECT g, 'b' || g, g % ${ROWS} + 1, now() FROM generate_series(1, ${ROWS}) g`,
  "REFRESH MATERIALIZED VIEW region_counts",
];

type Family = "int" | "text" | "time" | "numeric";

interface Table {
  readonly name: string;
  readonly columns: Readonly<Record<string, Family>>;
}

const EVENTS: Table["columns"] = { id: "int", kind: "text", at: "time", payload: "text" };
const TABLES: readonly Table[] = [
  { name: "customers", columns: { id: "int", name: "text", email: "text", region: "text", since: "time", score: "int" } },
  { name: "orders", columns: { id: "int", customer_id: "int", total: "numeric", status: "text", note: "text", placed: "time", code: "text" } },
  { name: "items", columns: { id: "int", order_id: "int", qty: "int", sku: "text" } },
  { name: "events", columns: EVENTS },
  { name: "events_1", columns: EVENTS },
  { name: "loose", columns: EVENTS },
  { name: "notes", columns: { id: "int", body: "text", customer_id: "int", created: "time" } },
];
const INDEXES = ["customers_name_idx", "customers_lower_email_idx", "orders_status_idx", "orders_code_idx", "events_kind_idx", "region_counts_key"];
const CONSTRAINTS: Record<string, readonly string[]> = {
  customers: ["customers_pkey", "customers_email_key"],
  orders: ["orders_pkey", "orders_customer_id_fkey", "orders_code_check"],
  items: ["items_pkey", "items_order_fk", "items_qty_check"],
  notes: ["notes_gen_fk", "notes_gen_check"],
  loose: ["notes_gen_fk", "notes_gen_check"],
};

const TYPES: Readonly<Record<Family, readonly string[]>> = {
  int: ["int", "bigint", "numeric(12,2)", "numeric", "text"],
  numeric: ["numeric(12,2)", "numeric(10,2)", "numeric", "numeric(10,3)", "int"],
  text: ["text", "varchar(50)", "varchar(10)", "varchar", "varchar(200)"],
  time: ["timestamp", "timestamptz", "timestamptz(3)", "timestamp(3)", "timestamptz(6)"],
};
const COLLATIONS = ['"C"', '"POSIX"', '"en-x-icu"', '"default"'];

const table = fc.constantFrom(...TABLES);
const columnOf = (t: Table) => fc.constantFrom(...Object.keys(t.columns)).map((c) => ({ t: t.name, c, family: t.columns[c]! }));
const withColumn = table.chain(columnOf);
const referenced = fc.constantFrom("customers (id)", "orders (id)", "customers (email)", "items (id)");

/** A type change a column of its family allows (USING where the cast is not implicit). */
const typeChange = withColumn.chain(({ t, c, family }) =>
  fc
    .record({ type: fc.constantFrom(...TYPES[family]), collate: fc.option(fc.constantFrom(...COLLATIONS), { nil: undefined }), using: fc.boolean() })
    .map(({ type, collate, using }) => {
      const coll = collate !== undefined && family === "text" ? ` COLLATE ${collate}` : "";
      return `ALTER TABLE ${t} ALTER COLUMN ${c} TYPE ${type}${coll}${using || family === "int" ? ` USING ${c}::${type}` : ""}`;
    }),
);

const addColumn = fc.oneof(
  fc.constantFrom(
    "int",
    "text",
    "bigint DEFAULT 0",
    "text DEFAULT 'x'",
    "timestamptz DEFAULT now()",
    "float8 DEFAULT random()",
    "int NOT NULL DEFAULT 1",
    "serial",
    'text COLLATE "C"',
  ),
  referenced.map((r) => `int REFERENCES ${r.replace(" (email)", " (id)")}`),
  fc.constant("int CHECK (g_new > 0)"),
  fc.constant("text UNIQUE"),
);

/** What an earlier statement of the plan declares: keys, indexes, collated columns, partitions, views (chosen to run). */
export const declaration: fc.Arbitrary<string> = fc.oneof(
  withColumn.map(({ t, c }) => `CREATE INDEX g_pidx ON ${t} (${c})`),
  fc.constantFrom(
    "ALTER TABLE notes ADD CONSTRAINT notes_gen_fk FOREIGN KEY (customer_id) REFERENCES customers (id)",
    "ALTER TABLE notes ADD CONSTRAINT notes_gen_fk FOREIGN KEY (customer_id) REFERENCES orders (id) NOT VALID",
    "ALTER TABLE loose ADD CONSTRAINT notes_gen_fk FOREIGN KEY (id) REFERENCES items (id) NOT VALID",
    'ALTER TABLE notes ADD COLUMN g_pre text COLLATE "C"',
    "ALTER TABLE notes ADD CONSTRAINT notes_gen_check CHECK (body IS NOT NULL)",
    "CREATE TABLE events_3 PARTITION OF events FOR VALUES FROM (3000) TO (4000)",
    "ALTER TABLE events DETACH PARTITION events_d",
    "ALTER TABLE events ATTACH PARTITION loose FOR VALUES FROM (5000) TO (6000)",
    "CREATE TABLE g_ref (id int PRIMARY KEY, cid int REFERENCES customers (id), oid int REFERENCES orders)",
    "CREATE VIEW g_pview AS SELECT id, region FROM customers",
    "CREATE TABLE g_sub (id int) INHERITS (notes)",
    'CREATE INDEX g_pidx ON notes (body COLLATE "C")',
  ),
);

/** One statement over the schema. */
export const statement: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: rowChange },
  { weight: 6, arbitrary: typeChange },
  {
    weight: 2,
    arbitrary: fc
      .tuple(withColumn, fc.constantFrom(...COLLATIONS))
      .filter(([{ family }]) => family === "text")
      .map(([{ t, c }, coll]) => `ALTER TABLE ${t} ALTER COLUMN ${c} TYPE text COLLATE ${coll}`),
  },
  { weight: 3, arbitrary: withColumn.map(({ t, c }) => `ALTER TABLE ${t} DROP COLUMN ${c}`) },
  { weight: 3, arbitrary: fc.tuple(table, addColumn).map(([t, d]) => `ALTER TABLE ${t.name} ADD COLUMN g_new ${d}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(withColumn, fc.constantFrom("SET NOT NULL", "DROP NOT NULL", "SET DEFAULT 1", "DROP DEFAULT", "SET STATISTICS 100", "SET STORAGE EXTERNAL"))
      .map(([{ t, c }, a]) => `ALTER TABLE ${t} ALTER COLUMN ${c} ${a}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom("notes", "loose", "items"), fc.constantFrom("customer_id", "id"), referenced, fc.boolean())
      .map(([t, c, r, nv]) => `ALTER TABLE ${t} ADD CONSTRAINT notes_gen_fk FOREIGN KEY (${c}) REFERENCES ${r}${nv ? " NOT VALID" : ""}`),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(withColumn, fc.boolean()).map(([{ t, c }, nv]) => `ALTER TABLE ${t} ADD CONSTRAINT notes_gen_check CHECK (${c} IS NOT NULL)${nv ? " NOT VALID" : ""}`),
  },
  { weight: 2, arbitrary: table.chain((t) => fc.constantFrom(...(CONSTRAINTS[t.name] ?? ["notes_gen_fk"])).map((k) => `ALTER TABLE ${t.name} DROP CONSTRAINT ${k}`)) },
  { weight: 1, arbitrary: table.chain((t) => fc.constantFrom(...(CONSTRAINTS[t.name] ?? ["notes_gen_fk"])).map((k) => `ALTER TABLE ${t.name} VALIDATE CONSTRAINT ${k}`)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        table,
        fc.constantFrom(
          "SET TABLESPACE pg_default",
          "SET UNLOGGED",
          "SET LOGGED",
          "SET (fillfactor = 70)",
          "SET (autovacuum_enabled = false)",
          "ENABLE ROW LEVEL SECURITY",
          "DISABLE TRIGGER ALL",
          "REPLICA IDENTITY FULL",
          "OWNER TO CURRENT_USER",
        ),
      )
      .map(([t, a]) => `ALTER TABLE ${t.name} ${a}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(withColumn, fc.boolean(), fc.boolean())
      .map(([{ t, c }, only, unique]) => `CREATE ${unique ? "UNIQUE " : ""}INDEX g_idx ON ${only ? "ONLY " : ""}${t} (${c})`),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...INDEXES)
      .chain((i) =>
        fc.constantFrom(
          `DROP INDEX ${i}`,
          `ALTER INDEX ${i} SET (fillfactor = 50)`,
          `ALTER INDEX ${i} RENAME TO g_renamed`,
          `REINDEX INDEX ${i}`,
          `ALTER INDEX ${i} SET TABLESPACE pg_default`,
        ),
      ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "ALTER TABLE events ATTACH PARTITION loose FOR VALUES FROM (5000) TO (6000)",
      "ALTER TABLE events DETACH PARTITION events_2",
      "ALTER TABLE events DETACH PARTITION events_d",
      "CREATE TABLE events_3 PARTITION OF events FOR VALUES FROM (3000) TO (4000)",
      "CREATE TABLE events_child (extra int) INHERITS (loose)",
      "ALTER TABLE ONLY events ADD COLUMN g_new int",
      "TRUNCATE events",
      "TRUNCATE items",
      "DROP TABLE events",
      "DROP TABLE items",
      "DROP TABLE notes",
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(table, fc.constantFrom("BEFORE INSERT", "AFTER UPDATE", "BEFORE DELETE"))
      .chain(([t, when]) =>
        fc.constantFrom(
          `CREATE TRIGGER g_trig ${when} ON ${t.name} FOR EACH ROW EXECUTE FUNCTION touch()`,
          `CREATE POLICY g_pol ON ${t.name} USING (true)`,
          `CREATE RULE g_rule AS ON INSERT TO ${t.name} DO ALSO INSERT INTO notes (id) VALUES (1)`,
          `CREATE STATISTICS g_stats ON id, ${Object.keys(t.columns)[1]!} FROM ${t.name}`,
          `CREATE TABLE g_copy AS SELECT * FROM ${t.name}`,
          `CREATE VIEW g_view AS SELECT * FROM ${t.name}`,
          `ANALYZE ${t.name}`,
          `COMMENT ON TABLE ${t.name} IS 'x'`,
          `LOCK TABLE ${t.name} IN SHARE MODE`,
          `ALTER TABLE ${t.name} RENAME TO g_renamed`,
          `CLUSTER ${t.name} USING ${t.name}_pkey`,
        ),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "DROP TRIGGER items_touch ON items",
      "ALTER TABLE items DISABLE TRIGGER items_touch",
      "REFRESH MATERIALIZED VIEW region_counts",
      "REFRESH MATERIALIZED VIEW CONCURRENTLY region_counts",
      "CREATE MATERIALIZED VIEW g_mv AS SELECT * FROM big_orders",
      "CREATE TABLE g_copy AS SELECT * FROM big_orders",
      "CREATE OR REPLACE VIEW big_orders AS SELECT id, customer_id FROM orders WHERE customer_id > 20",
      "DROP VIEW big_orders",
      "DROP MATERIALIZED VIEW region_counts",
      "ALTER MATERIALIZED VIEW region_counts RENAME TO g_renamed",
      "CREATE TABLE g_new (id int REFERENCES orders (id), c int REFERENCES customers)",
    ),
  },
);

/** A case: up to two earlier statements of the plan (run before the trace; mostly declarations) and the traced one. */
export const generatedCase: fc.Arbitrary<{ before: string[]; sql: string }> = fc.record({
  before: fc.array(fc.oneof({ weight: 3, arbitrary: declaration }, { weight: 1, arbitrary: statement }), { maxLength: 2 }),
  sql: statement,
});

/** The corpus case a generated one runs as: the schema, its rows and the earlier statements, then the statement. */
export function toLockCase(g: { before: readonly string[]; sql: string }, n: number): LockCase {
  // An earlier statement PostgreSQL refuses would leave the database unlike the plan the analyser
  // reads: each runs in a block that drops the marker table when it fails (SETUP_OK then missing).
  const checked = g.before.map((sql) => `DO $g$ BEGIN EXECUTE $q$${sql}$q$; EXCEPTION WHEN OTHERS THEN DROP TABLE IF EXISTS ${SETUP_OK}; END $g$`);
  return { name: `generated ${n}`, sql: g.sql, fixtures: [], setup: [...SCHEMA, ...ROWS_SQL, `CREATE TABLE ${SETUP_OK} ()`, ...checked], worstCase: true };
}

/** Present in the database when every earlier statement of the case ran. */
export const SETUP_OK = "setup_ok";

/** The plan the analyser reads for a case: the schema's DDL, the earlier statements, the statement (rows are data, not DDL). */
export const planOf = (g: { before: readonly string[]; sql: string }): string[] => [...SCHEMA, ...g.before, g.sql];
