// The lock-trace corpus: every statement kind the simulator's planner writes (test/sim/catalog.ts
// diff), a hand table of the analyser's rules with and without their safe forms, and generated
// variants (quoting, schema qualification, case, several clauses in one ALTER TABLE). Each case
// names the relations it needs (fixtures, created with a few thousand rows before it runs) and
// whether the analyser is told about them: `knows` feeds the fixtures' DDL to the analyser as the
// plan's earlier statements (how it learns a column's type or a CHECK constraint); without it the
// analyser sees the statement alone, as for a table the plan did not create.
// test/e2e/lock-trace.e2e.test.ts runs each case on PostgreSQL; the squawk cross-check reads the same.

import { setupOf, type Fixture, type LockCase } from "./corpus-fixtures.ts";

export { setupOf, type LockCase };

const O: Fixture[] = ["orders"];
const CO: Fixture[] = ["customers", "orders"];
const c = (name: string, sql: string, fixtures: readonly Fixture[] = O, extra: Partial<LockCase> = {}): LockCase => ({ name, sql, fixtures, ...extra });

/** What the simulator's planner writes (test/sim/catalog.ts: schemas, tables, columns). */
const PLANNER: LockCase[] = [
  c("planner: create schema", 'CREATE SCHEMA "reporting"', []),
  c("planner: drop schema", 'DROP SCHEMA "archive"', ["archive"]),
  c("planner: create table", 'CREATE TABLE "invoices" ("id" bigint NOT NULL, "customer_id" bigint NOT NULL, PRIMARY KEY ("id"))', []),
  c(
    "planner: create table, several types",
    'CREATE TABLE "products" ("id" bigint NOT NULL, "sku" text NOT NULL, "price" numeric(12,2), "created" timestamptz, PRIMARY KEY ("id"))',
    [],
  ),
  c("planner: add nullable column", 'ALTER TABLE "orders" ADD COLUMN "due_on" date'),
  c("planner: add text column", 'ALTER TABLE "orders" ADD COLUMN "status_note" text'),
  c("planner: add NOT NULL column (empty table)", 'ALTER TABLE "empty_t" ADD COLUMN "total_cents" bigint NOT NULL', ["empty"]),
  c("planner: drop column", 'ALTER TABLE "orders" DROP COLUMN "memo"'),
  c("planner: drop table", 'DROP TABLE "orders"'),
  c("planner: drop empty table", 'DROP TABLE "empty_t"', ["empty"]),
];

/** The rules, each with its safe form beside it. */
const RULES: LockCase[] = [
  // Indexes
  c("create index", "CREATE INDEX orders_customer_idx ON orders (customer_id)"),
  c("create unique index", "CREATE UNIQUE INDEX orders_id_key ON orders (id)"),
  c("create partial index", "CREATE INDEX orders_open_idx ON orders (created_at) WHERE status = 'new'"),
  c("create expression index", "CREATE INDEX orders_lower_status_idx ON orders (lower(status))"),
  c("create index if not exists", "CREATE INDEX IF NOT EXISTS orders_total_idx ON orders (total)"),
  c("create index concurrently", "CREATE INDEX CONCURRENTLY orders_customer_idx ON orders (customer_id)", O, { concurrently: { waitsOn: "orders" } }),
  c("create unique index concurrently", "CREATE UNIQUE INDEX CONCURRENTLY orders_id_key ON orders (id)", O, { concurrently: { waitsOn: "orders" } }),
  c("drop index", "DROP INDEX orders_status_idx", ["orders", "index"]),
  c("drop index if exists", "DROP INDEX IF EXISTS public.orders_status_idx", ["orders", "index"]),
  c("drop index, known", "DROP INDEX orders_status_idx", ["orders", "index"], { knows: true }),
  c("drop index concurrently", "DROP INDEX CONCURRENTLY orders_status_idx", ["orders", "index"], { concurrently: { waitsOn: "orders" } }),
  c("rename index", "ALTER INDEX orders_status_idx RENAME TO orders_state_idx", ["orders", "index"]),
  c("reindex table", "REINDEX TABLE orders"),
  c("reindex table concurrently", "REINDEX TABLE CONCURRENTLY orders", O, { concurrently: { waitsOn: "orders" } }),
  // ADD COLUMN
  c("add column, constant default", "ALTER TABLE orders ADD COLUMN priority int DEFAULT 0"),
  c("add column, constant default NOT NULL", "ALTER TABLE orders ADD COLUMN priority int NOT NULL DEFAULT 0"),
  c("add column, text default", "ALTER TABLE orders ADD COLUMN channel text DEFAULT 'web'"),
  c("add column, now() default", "ALTER TABLE orders ADD COLUMN seen_at timestamptz DEFAULT now()"),
  c("add column, current_timestamp default", "ALTER TABLE orders ADD COLUMN seen_at timestamptz DEFAULT CURRENT_TIMESTAMP"),
  c("add column, expression default", "ALTER TABLE orders ADD COLUMN bucket int DEFAULT 2 * 21"),
  c("add column, random() default", "ALTER TABLE orders ADD COLUMN sample float8 DEFAULT random()"),
  c("add column, clock_timestamp() default", "ALTER TABLE orders ADD COLUMN seen_at timestamptz DEFAULT clock_timestamp()"),
  c("add column, gen_random_uuid() default", "ALTER TABLE orders ADD COLUMN ref uuid DEFAULT gen_random_uuid()"),
  c("add column, nextval default", "ALTER TABLE orders ADD COLUMN number bigint DEFAULT nextval('order_numbers')", ["orders", "seq"]),
  c("add column serial", "ALTER TABLE orders ADD COLUMN line serial"),
  c("add column bigserial", "ALTER TABLE orders ADD COLUMN line bigserial"),
  c("add column identity", "ALTER TABLE orders ADD COLUMN line bigint GENERATED ALWAYS AS IDENTITY"),
  c("add column stored generated", "ALTER TABLE orders ADD COLUMN total_x2 numeric GENERATED ALWAYS AS (total * 2) STORED"),
  c("add column with check", "ALTER TABLE orders ADD COLUMN qty int CHECK (qty > 0)"),
  c("add column with check not valid", "ALTER TABLE orders ADD COLUMN qty int, ADD CONSTRAINT orders_qty_positive CHECK (qty > 0) NOT VALID"),
  c("add column references", "ALTER TABLE orders ADD COLUMN referrer_id bigint REFERENCES customers (id)", CO),
  c("add column unique", "ALTER TABLE orders ADD COLUMN external_id bigint UNIQUE"),
  c("add column NOT NULL, no default (empty table)", "ALTER TABLE empty_t ADD COLUMN code text NOT NULL", ["empty"]),
  // ALTER COLUMN TYPE
  c("type: varchar widened", "ALTER TABLE orders ALTER COLUMN status TYPE varchar(50)", O, { knows: true }),
  c("type: varchar to unbounded varchar", "ALTER TABLE orders ALTER COLUMN status TYPE varchar", O, { knows: true }),
  c("type: varchar to text", "ALTER TABLE orders ALTER COLUMN status TYPE text", O, { knows: true }),
  c("type: varchar narrowed", "ALTER TABLE orders ALTER COLUMN status TYPE varchar(10)", O, { knows: true }),
  c("type: text to varchar(n)", "ALTER TABLE orders ALTER COLUMN memo TYPE varchar(200)", O, { knows: true }),
  c("type: text to varchar", "ALTER TABLE orders ALTER COLUMN memo TYPE varchar", O, { knows: true }),
  c("type: numeric widened", "ALTER TABLE orders ALTER COLUMN total TYPE numeric(12,2)", O, { knows: true }),
  c("type: numeric to unbounded", "ALTER TABLE orders ALTER COLUMN total TYPE numeric", O, { knows: true }),
  c("type: numeric scale changed", "ALTER TABLE orders ALTER COLUMN total TYPE numeric(12,3)", O, { knows: true }),
  c("type: bigint to int", "ALTER TABLE orders ALTER COLUMN customer_id TYPE int", O, { knows: true }),
  c("type: int to bigint", "ALTER TABLE customers ALTER COLUMN score TYPE bigint", ["customers"], { knows: true }),
  c("type: char widened", "ALTER TABLE orders ALTER COLUMN code TYPE char(8)", O, { knows: true }),
  c("type: cidr to inet", "ALTER TABLE orders ALTER COLUMN net TYPE inet", O, { knows: true }),
  c("type: timestamp precision", "ALTER TABLE orders ALTER COLUMN created_at TYPE timestamp(3)", O, { knows: true }),
  c("type: same type", "ALTER TABLE orders ALTER COLUMN status TYPE varchar(20)", O, { knows: true }),
  c("type: USING cast to itself", "ALTER TABLE orders ALTER COLUMN status TYPE text USING status::text", O, { knows: true }),
  c("type: USING expression", "ALTER TABLE orders ALTER COLUMN status TYPE text USING upper(status)", O, { knows: true }),
  c("type: int to bigint, unknown", "ALTER TABLE customers ALTER COLUMN score TYPE bigint", ["customers"]),
  c("type: varchar to text, unknown (worst case)", "ALTER TABLE orders ALTER COLUMN status TYPE text", O, { worstCase: true }),
  // NOT NULL
  c("set not null", "ALTER TABLE orders ALTER COLUMN total SET NOT NULL"),
  c("set not null, known without check", "ALTER TABLE orders ALTER COLUMN total SET NOT NULL", O, { knows: true }),
  c("set not null with a valid check", "ALTER TABLE orders ALTER COLUMN total SET NOT NULL", ["orders", "check"], { knows: true }),
  c("set not null on a NOT NULL column", "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL", O, { knows: true }),
  c("drop not null", "ALTER TABLE orders ALTER COLUMN customer_id DROP NOT NULL"),
  // Defaults
  c("set default", "ALTER TABLE orders ALTER COLUMN status SET DEFAULT 'new'"),
  c("set volatile default", "ALTER TABLE orders ALTER COLUMN created_at SET DEFAULT clock_timestamp()"),
  c("drop default", "ALTER TABLE orders ALTER COLUMN status DROP DEFAULT"),
  // Foreign keys
  c("add foreign key", "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id)", CO),
  c("add foreign key not valid", "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID", CO),
  c("add foreign key, on delete cascade", "ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers ON DELETE CASCADE", CO),
  c("validate foreign key", "ALTER TABLE orders VALIDATE CONSTRAINT orders_customer_fk", ["customers", "orders", "fkNotValid"], { knows: true }),
  c("drop foreign key", "ALTER TABLE orders DROP CONSTRAINT orders_customer_fk", ["customers", "orders", "fk"], { knows: true }),
  c("drop table with a foreign key", "DROP TABLE orders", ["customers", "orders", "fk"], { knows: true }),
  c("create table with a foreign key", "CREATE TABLE payments (id bigint PRIMARY KEY, order_id bigint REFERENCES orders (id))"),
  c("create table with a table foreign key", "CREATE TABLE payments (id bigint PRIMARY KEY, order_id bigint, FOREIGN KEY (order_id) REFERENCES orders (id) NOT VALID)"),
  c("create table like", "CREATE TABLE orders_archive (LIKE orders INCLUDING DEFAULTS)"),
  // CHECK
  c("add check", "ALTER TABLE orders ADD CONSTRAINT orders_total_positive CHECK (total > 0)"),
  c("add check not valid", "ALTER TABLE orders ADD CONSTRAINT orders_total_positive CHECK (total > 0) NOT VALID"),
  c("validate check", "ALTER TABLE orders VALIDATE CONSTRAINT orders_total_nn", ["orders", "checkNotValid"]),
  c("validate check, known valid already", "ALTER TABLE orders VALIDATE CONSTRAINT orders_total_nn", ["orders", "check"], { knows: true }),
  c("validate check, known not valid", "ALTER TABLE orders VALIDATE CONSTRAINT orders_total_nn", ["orders", "checkNotValid"], { knows: true }),
  c("set not null after a validated check", "ALTER TABLE orders ALTER COLUMN total SET NOT NULL", ["orders", "checkNotValid", "validated"], { knows: true }),
  c("add column references, with a default", "ALTER TABLE orders ADD COLUMN referrer_id bigint DEFAULT 1 REFERENCES customers (id)", CO),
  c("drop check", "ALTER TABLE orders DROP CONSTRAINT orders_total_nn", ["orders", "check"]),
  // UNIQUE / PRIMARY KEY
  c("add unique", "ALTER TABLE orders ADD CONSTRAINT orders_customer_status_key UNIQUE (id, status)"),
  c("add unique using index", "ALTER TABLE orders ADD CONSTRAINT orders_id_status_key UNIQUE USING INDEX orders_id_status_key", ["orders", "uniqueIndex"]),
  c("add primary key", "ALTER TABLE ledger ADD PRIMARY KEY (id)", ["ledger"]),
  c("add primary key, known NOT NULL", "ALTER TABLE ledger ALTER COLUMN id SET NOT NULL, ADD PRIMARY KEY (id)", ["ledger"]),
  // Other ALTER TABLE parts
  c("rename column", "ALTER TABLE orders RENAME COLUMN memo TO remark"),
  c("rename table", "ALTER TABLE orders RENAME TO purchase_orders"),
  c("rename constraint", "ALTER TABLE orders RENAME CONSTRAINT orders_pkey TO orders_pk"),
  c("set statistics", "ALTER TABLE orders ALTER COLUMN status SET STATISTICS 500"),
  c("set storage parameter", "ALTER TABLE orders SET (fillfactor = 80)"),
  c("set autovacuum parameter", "ALTER TABLE orders SET (autovacuum_vacuum_scale_factor = 0.01)"),
  c("set logged parameter", "ALTER TABLE orders SET (user_catalog_table = true)"),
  c("set unlogged", "ALTER TABLE orders SET UNLOGGED"),
  c("disable trigger", "ALTER TABLE orders DISABLE TRIGGER ALL"),
  c("owner to", "ALTER TABLE orders OWNER TO CURRENT_USER"),
  c("set schema", "ALTER TABLE orders SET SCHEMA archive", ["orders", "archive"]),
  c("replica identity", "ALTER TABLE orders REPLICA IDENTITY FULL"),
  c("enable row level security", "ALTER TABLE orders ENABLE ROW LEVEL SECURITY"),
  c("cluster on", "ALTER TABLE orders CLUSTER ON orders_status_idx", ["orders", "index"]),
  // Other statements
  c("truncate", "TRUNCATE orders"),
  c("truncate two", "TRUNCATE orders, customers", CO),
  c("lock table", "LOCK TABLE orders IN SHARE MODE"),
  c("lock table default mode", "LOCK orders"),
  c("create view", "CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100"),
  c("create view of two tables", "CREATE VIEW order_names AS SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id", CO),
  c("create view with a CTE", "CREATE VIEW recent AS WITH r AS (SELECT * FROM orders) SELECT * FROM r"),
  c("replace view", "CREATE OR REPLACE VIEW order_totals AS SELECT customer_id, sum(total) AS total FROM orders GROUP BY customer_id", ["orders", "view"]),
  c("drop view", "DROP VIEW order_totals", ["orders", "view"]),
  c("rename view", "ALTER VIEW order_totals RENAME TO totals", ["orders", "view"]),
  c("create sequence", "CREATE SEQUENCE invoice_numbers", []),
  c("alter sequence", "ALTER SEQUENCE order_numbers RESTART WITH 100", ["seq"]),
  c("drop sequence", "DROP SEQUENCE order_numbers", ["seq"]),
  c("comment on table", "COMMENT ON TABLE orders IS 'every order'"),
  c("comment on column", "COMMENT ON COLUMN orders.status IS 'lifecycle'"),
  c("comment on schema", "COMMENT ON SCHEMA public IS 'the app'", []),
  c("create function", "CREATE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 1'", []),
  c("create type", "CREATE TYPE mood AS ENUM ('ok', 'sad')", []),
  c("drop materialized view", "DROP MATERIALIZED VIEW order_counts", ["orders", "matview"]),
  c("cluster", "CLUSTER orders USING orders_pkey"),
  c("reindex index", "REINDEX INDEX orders_status_idx", ["orders", "index"]),
  c("comment on index", "COMMENT ON INDEX orders_status_idx IS 'by state'", ["orders", "index"]),
  c("comment on constraint", "COMMENT ON CONSTRAINT orders_pkey ON orders IS 'the key'"),
  c("add exclusion constraint", "ALTER TABLE orders ADD CONSTRAINT orders_id_excl EXCLUDE USING btree (id WITH =)"),
  c("add identity to a column", "ALTER TABLE orders ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY"),
  c("set storage", "ALTER TABLE orders ALTER COLUMN memo SET STORAGE EXTERNAL"),
  c("set compression", "ALTER TABLE orders ALTER COLUMN memo SET COMPRESSION pglz"),
  c("set column n_distinct", "ALTER TABLE orders ALTER COLUMN status SET (n_distinct = 5)"),
  c("reset storage parameter", "ALTER TABLE orders RESET (fillfactor)"),
  c("set without cluster", "ALTER TABLE orders SET WITHOUT CLUSTER"),
  c("force row level security", "ALTER TABLE orders FORCE ROW LEVEL SECURITY"),
  c("set access method, the same one (worst case)", "ALTER TABLE orders SET ACCESS METHOD heap", O, { worstCase: true }),
  c("set logged, logged already (worst case)", "ALTER TABLE orders SET LOGGED", O, { worstCase: true }),
  c("set logged, an unlogged table", "ALTER TABLE scratch SET LOGGED", ["unlogged"]),
  c("enable trigger", "ALTER TABLE orders ENABLE TRIGGER ALL"),
  c("rename sequence", "ALTER SEQUENCE order_numbers RENAME TO invoice_numbers", ["seq"]),
  c("lock table access exclusive", "LOCK TABLE orders IN ACCESS EXCLUSIVE MODE"),
  c("lock table share update exclusive", "LOCK TABLE orders, customers IN SHARE UPDATE EXCLUSIVE MODE", CO),
  c("drop two tables", "DROP TABLE orders, customers", CO),
  c("drop table if exists", "DROP TABLE IF EXISTS orders"),
  c("drop view if exists", "DROP VIEW IF EXISTS order_totals", ["orders", "view"]),
  c("create unlogged table", "CREATE UNLOGGED TABLE scratch (id bigint)", []),
  c("create table if not exists", "CREATE TABLE IF NOT EXISTS orders_copy (id bigint PRIMARY KEY)", []),
  c("create type, a composite", "CREATE TYPE money_pair AS (a numeric, b numeric)", []),
  c("create domain", "CREATE DOMAIN positive AS int CHECK (VALUE > 0)", []),
];

// Generated: the same statements with the table written every way PostgreSQL reads as the same
// relation (quoted, qualified, upper case), in another schema, and a table whose name needs quotes.
const TABLE_FORMS: ReadonlyArray<readonly [string, string, string, readonly Fixture[]]> = [
  ["bare", "orders", "customers", CO],
  ["quoted", '"orders"', '"customers"', CO],
  ["qualified", "public.orders", "public.customers", CO],
  ["quoted qualified", '"public"."orders"', '"public"."customers"', CO],
  ["upper case", "ORDERS", "Customers", CO],
  ["mixed case qualified", "Public.Orders", "PUBLIC.customers", CO],
  ["other schema", "sales.orders", "customers", ["customers", "sales"]],
  ["other schema quoted", '"sales".orders', "public.customers", ["customers", "sales"]],
];

const TEMPLATES: ReadonlyArray<readonly [string, string]> = [
  ["add column", "ALTER TABLE {t} ADD COLUMN v_col int"],
  ["add column, volatile default", "ALTER TABLE {t} ADD COLUMN v_col float8 DEFAULT random()"],
  ["create index", "CREATE INDEX v_idx ON {t} (status)"],
  ["set not null", "ALTER TABLE {t} ALTER COLUMN total SET NOT NULL"],
  ["check not valid", "ALTER TABLE {t} ADD CONSTRAINT v_chk CHECK (total > 0) NOT VALID"],
  ["foreign key", "ALTER TABLE {t} ADD CONSTRAINT v_fk FOREIGN KEY (customer_id) REFERENCES {c} (id)"],
  ["foreign key not valid", "ALTER TABLE {t} ADD CONSTRAINT v_fk FOREIGN KEY (customer_id) REFERENCES {c} (id) NOT VALID"],
  ["drop table", "DROP TABLE {t}"],
  ["truncate", "TRUNCATE {t}"],
  ["comment", "COMMENT ON TABLE {t} IS 'x'"],
  ["rename column", "ALTER TABLE {t} RENAME COLUMN status TO state"],
  ["lock row exclusive", "LOCK TABLE {t} IN ROW EXCLUSIVE MODE"],
  ["set statistics", "ALTER TABLE {t} ALTER COLUMN status SET STATISTICS 100"],
];

const VARIANTS: LockCase[] = TABLE_FORMS.flatMap(([form, t, cust, fixtures]) =>
  TEMPLATES.map(([what, sql]) => c(`variant (${form}): ${what}`, sql.replaceAll("{t}", t).replaceAll("{c}", cust), fixtures)),
);

const QUOTED: LockCase[] = [
  c("quoted table: add column", 'ALTER TABLE "Order Items" ADD COLUMN "Price" numeric', ["quoted"]),
  c("quoted table: create index", 'CREATE INDEX "Order Items Qty" ON "Order Items" ("Qty")', ["quoted"]),
  c("quoted table: set not null", 'ALTER TABLE public."Order Items" ALTER COLUMN "Qty" SET NOT NULL', ["quoted"]),
  c("quoted table: foreign key to it", 'ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES "Order Items" ("Id") NOT VALID', ["orders", "quoted"]),
  c("quoted table: drop", 'DROP TABLE "Order Items"', ["quoted"]),
  c("quoted table: type change", 'ALTER TABLE "Order Items" ALTER COLUMN "Qty" TYPE bigint', ["quoted"]),
];

// Several clauses in one ALTER TABLE: one lock for all, the strongest; the longest work.
const CLAUSES: ReadonlyArray<readonly [string, string]> = [
  ["add column", "ADD COLUMN m_col int"],
  ["set statistics", "ALTER COLUMN status SET STATISTICS 200"],
  ["foreign key not valid", "ADD CONSTRAINT m_fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID"],
  ["set default", "ALTER COLUMN status SET DEFAULT 'x'"],
  ["drop column", "DROP COLUMN memo"],
  ["fillfactor", "SET (fillfactor = 70)"],
  ["check", "ADD CONSTRAINT m_chk CHECK (total > 0)"],
  ["type change", "ALTER COLUMN code TYPE char(8)"],
  ["disable triggers", "DISABLE TRIGGER ALL"],
];

const COMBINED: LockCase[] = CLAUSES.flatMap(([a, sa], i) => CLAUSES.slice(i + 1).map(([b, sb]) => c(`combined: ${a} + ${b}`, `ALTER TABLE orders ${sa}, ${sb}`, CO)));

export const CORPUS: readonly LockCase[] = [...PLANNER, ...RULES, ...VARIANTS, ...QUOTED, ...COMBINED];
