// The lock-trace corpus's fixtures: the relations a case needs, each created with a few thousand
// rows before the case runs (test/locks/corpus.ts holds the cases).

export interface LockCase {
  readonly name: string;
  readonly sql: string;
  readonly fixtures: readonly Fixture[];
  /** The analyser sees the fixtures' DDL as earlier statements of the plan. */
  readonly knows?: boolean;
  /** Runs outside a transaction; its locks are sampled from another session while it waits on `waitsOn`. */
  readonly concurrently?: { readonly waitsOn: string };
  /** The analyser states the worst case here (it cannot know the column's type): its verdict may be longer than the server's. */
  readonly worstCase?: boolean;
  /** The statements that build the case's database, instead of the fixtures' (the generated oracle's cases). */
  readonly setup?: readonly string[];
}

export type Fixture =
  | "customers"
  | "orders"
  | "fk"
  | "fkNotValid"
  | "check"
  | "index"
  | "view"
  | "seq"
  | "sales"
  | "quoted"
  | "empty"
  | "uniqueIndex"
  | "matview"
  | "ledger"
  | "archive"
  | "checkNotValid"
  | "validated"
  | "unlogged";

const ROWS = 3000;

/** Each fixture's SQL, in dependency order (`fk` needs `customers` and `orders`). */
export const FIXTURES: Readonly<Record<Fixture, readonly string[]>> = {
  customers: [
    "CREATE TABLE customers (id bigint PRIMARY KEY, name text, email varchar(100), score int, note text)",
    `INSERT INTO customers SELECT g, 'n' || g, 'e' || g || '@example.com', g % 100, NULL FROM generate_series(1, ${ROWS}) g`,
  ],
  orders: [
    "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL, total numeric(10,2), status varchar(20), created_at timestamp, code char(4), net cidr, memo text)",
    `INSERT INTO orders SELECT g, g % ${ROWS} + 1, g, 'new', timestamp '2026-01-01' + g * interval '1 minute', 'ab', '10.0.0.0/8', NULL FROM generate_series(1, ${ROWS}) g`,
  ],
  fk: ["ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id)"],
  fkNotValid: ["ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID"],
  check: ["ALTER TABLE orders ADD CONSTRAINT orders_total_nn CHECK (total IS NOT NULL)"],
  checkNotValid: ["ALTER TABLE orders ADD CONSTRAINT orders_total_nn CHECK (total IS NOT NULL) NOT VALID"],
  validated: ["ALTER TABLE orders VALIDATE CONSTRAINT orders_total_nn"],
  index: ["CREATE INDEX orders_status_idx ON orders (status)"],
  uniqueIndex: ["CREATE UNIQUE INDEX orders_id_status_key ON orders (id, status)"],
  view: ["CREATE VIEW order_totals AS SELECT customer_id, sum(total) AS total FROM orders GROUP BY customer_id"],
  matview: ["CREATE MATERIALIZED VIEW order_counts AS SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id"],
  seq: ["CREATE SEQUENCE order_numbers"],
  sales: [
    "CREATE SCHEMA sales",
    "CREATE TABLE sales.orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL, total numeric(10,2), status varchar(20))",
    `INSERT INTO sales.orders SELECT g, g % ${ROWS} + 1, g, 'new' FROM generate_series(1, ${ROWS}) g`,
  ],
  quoted: ['CREATE TABLE "Order Items" ("Id" bigint PRIMARY KEY, "Qty" int, "Note" text)', `INSERT INTO "Order Items" SELECT g, g % 7, NULL FROM generate_series(1, ${ROWS}) g`],
  empty: ["CREATE TABLE empty_t (id bigint)"],
  archive: ["CREATE SCHEMA archive"],
  unlogged: ["CREATE UNLOGGED TABLE scratch (id bigint)", `INSERT INTO scratch SELECT g FROM generate_series(1, ${ROWS}) g`],
  ledger: ["CREATE TABLE ledger (id bigint, amount int)", `INSERT INTO ledger SELECT g, g FROM generate_series(1, ${ROWS}) g`],
};

/** The fixtures' SQL for a case, each once, in the order FIXTURES declares them. */
export function setupOf(kase: LockCase): string[] {
  if (kase.setup !== undefined) return [...kase.setup];
  const wanted = new Set(kase.fixtures);
  if (wanted.has("fk") || wanted.has("fkNotValid")) {
    wanted.add("customers");
    wanted.add("orders");
  }
  if (["check", "checkNotValid", "validated", "index", "uniqueIndex", "view", "matview"].some((f) => wanted.has(f as Fixture))) wanted.add("orders");
  return (Object.keys(FIXTURES) as Fixture[]).filter((f) => wanted.has(f)).flatMap((f) => FIXTURES[f]);
}
