// The generated oracle's row changes over its schema (generated.ts): INSERT … VALUES into every
// kind of table (a partitioned one, a table with foreign keys both ways, one with a trigger),
// INSERT … SELECT (through a view too), UPDATE with and without WHERE, DELETE of rows no other row
// references (customers and orders above ROWS have none), MERGE, data-modifying WITHs, queries
// (with FOR UPDATE/SHARE too) and COPY (FROM and TO a server file, a table or a query). Each is meant to succeed on
// the schema's rows, so PostgreSQL's key checks and actions really run.
import fc from "fast-check";

/** Customers and orders ids above it are referenced by no order and no item. */
export const UNREFERENCED = 10;

export const rowChange: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "INSERT INTO customers (id, name, email) VALUES (9001, 'new', 'new@x')",
    "INSERT INTO orders (id, customer_id, total, code) VALUES (9001, 7, 1, 'c')",
    "INSERT INTO items VALUES (9001, 7, 1, 's')",
    "INSERT INTO events VALUES (10, 'k', now(), 'p')",
    "INSERT INTO events VALUES (1500, 'k', now(), 'p'), (2600, 'k', now(), 'p')",
    "INSERT INTO loose VALUES (9001, 'k', now(), 'p') RETURNING id",
    "INSERT INTO notes (id, customer_id) VALUES (9001, 3)",
    "INSERT INTO customers (id, name) VALUES (7, 'again') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
  ),
  fc.constantFrom(
    "INSERT INTO loose SELECT id + 10000, kind, at, payload FROM events",
    "INSERT INTO notes SELECT id + 1000, name, id, now() FROM customers WHERE region = 'r1'",
    "INSERT INTO loose (id, kind) SELECT id + 20000, 'o' FROM big_orders",
    "INSERT INTO items SELECT id + 1000, id, 1, 'x' FROM orders WHERE id < 50",
    "INSERT INTO events SELECT id + 3000, kind, at, payload FROM loose WHERE id < 5100",
  ),
  fc.constantFrom(
    "UPDATE customers SET score = score + 1 WHERE id = 5",
    "UPDATE customers SET score = 0",
    "UPDATE orders SET status = 'paid'",
    "UPDATE orders SET customer_id = 9 WHERE id = 12",
    "UPDATE items SET order_id = 5 WHERE id < 20",
    "UPDATE events SET kind = 'z' WHERE id = 10",
    "UPDATE events SET payload = 'q'",
    "UPDATE ONLY loose SET kind = 'z'",
    "UPDATE notes SET body = 'b' FROM customers WHERE customers.id = notes.customer_id AND customers.region = 'r2'",
    "UPDATE orders SET note = 'x' WHERE customer_id IN (SELECT id FROM customers WHERE score < 10) RETURNING id",
  ),
  fc.constantFrom(
    "DELETE FROM customers WHERE id = 405",
    "DELETE FROM customers WHERE id > 400",
    "DELETE FROM orders WHERE id = 407",
    "DELETE FROM items WHERE id = 3",
    "DELETE FROM events WHERE kind = 'k1'",
    "DELETE FROM loose",
    "DELETE FROM notes USING customers WHERE customers.id = notes.customer_id AND customers.score > 390",
  ),
  fc.constantFrom(
    "MERGE INTO customers c USING (VALUES (405, 'm'), (9002, 'n')) v(id, name) ON c.id = v.id WHEN MATCHED THEN UPDATE SET name = v.name WHEN NOT MATCHED THEN INSERT (id, name) VALUES (v.id, v.name)",
    "MERGE INTO orders o USING customers c ON o.id = c.id WHEN MATCHED THEN UPDATE SET total = 1",
    "MERGE INTO loose l USING events e ON l.id = e.id WHEN NOT MATCHED THEN INSERT VALUES (e.id + 30000, e.kind, e.at, e.payload)",
    "MERGE INTO events e USING loose l ON e.id = l.id WHEN NOT MATCHED THEN INSERT VALUES (l.id, l.kind, l.at, l.payload)",
    "MERGE INTO customers c USING (VALUES (406)) v(id) ON c.id = v.id WHEN MATCHED THEN DELETE",
  ),
  // A data-modifying WITH: its row change runs beside the statement, whatever the statement reads of it.
  fc.constantFrom(
    "WITH d AS (DELETE FROM items WHERE id = 3 RETURNING order_id) SELECT count(*) FROM d",
    "WITH d AS (DELETE FROM loose WHERE id < 5010 RETURNING id, kind, at, payload) INSERT INTO events SELECT id - 3000, kind, at, payload FROM d",
    "WITH u AS (UPDATE customers SET score = score + 1 WHERE id = 5 RETURNING id) INSERT INTO notes (id, customer_id) SELECT id + 9100, id FROM u",
    "WITH i AS (INSERT INTO loose VALUES (9002, 'k', now(), 'p') RETURNING id) UPDATE orders SET note = 'y' WHERE id IN (SELECT id - 9000 FROM i)",
    "WITH d AS (DELETE FROM customers WHERE id = 405 RETURNING id) UPDATE notes SET body = 'gone' WHERE customer_id IN (SELECT id FROM d)",
  ),
  // A query: it reads, or with FOR UPDATE/SHARE locks the rows it reads.
  fc.constantFrom(
    "SELECT * FROM customers WHERE id = 5",
    "SELECT count(*) FROM big_orders",
    "SELECT * FROM events WHERE kind = 'k1'",
    "SELECT * FROM orders WHERE id < 5 FOR UPDATE",
    "SELECT * FROM events WHERE id < 100 FOR SHARE",
    "SELECT * FROM items JOIN orders ON orders.id = items.order_id WHERE items.id < 3 FOR KEY SHARE OF items",
    // What a SELECT INTO, a CREATE TABLE AS and a row change read, locked or changed the same way.
    "SELECT id INTO TEMP picked FROM orders WHERE id < 5 FOR SHARE",
    "CREATE TABLE gone AS WITH d AS (DELETE FROM loose WHERE id < 5005 RETURNING id) SELECT * FROM d",
    "INSERT INTO notes SELECT id + 2000, name, id, now() FROM customers WHERE id < 5 FOR UPDATE",
  ),
  // COPY, from and to a server file the lab's superuser may read and write.
  fc.constantFrom(
    "COPY loose TO '/dev/null'",
    "COPY customers FROM '/dev/null'",
    "COPY events FROM '/dev/null'",
    "COPY items FROM '/dev/null'",
    "COPY (SELECT * FROM big_orders) TO '/dev/null'",
    "COPY (DELETE FROM loose WHERE id < 5003 RETURNING id) TO '/dev/null'",
  ),
);
