// The one-line lock impact (approve's header, Markdown), inbox's LOCKS cell, what a re-plan widens,
// and the schema's policy as the analyser reads it.
import { describe, expect, it } from "vitest";
import { analyseStatements } from "../../../src/locks/index.ts";
import { lockCell, lockImpactLine, lockPolicy, strongestLock } from "../../../src/commands/shared/lock-impact.ts";
import { diffLockSection, widenedLocks } from "../../../src/commands/shared/lock-markdown.ts";

const sql = (...s: string[]) => s.map((x) => ({ sql: x }));
const REWRITE = "ALTER TABLE orders ALTER COLUMN total TYPE numeric(12,2)";
const INDEX = "CREATE INDEX orders_placed_at_idx ON orders (placed_at)";
const COMMENT = "COMMENT ON TABLE orders IS 'x'";

describe("lockImpactLine", () => {
  it("names the strongest lock, its hold, until when, what it blocks and lockTimeout", async () => {
    const r = await analyseStatements(sql(INDEX, REWRITE), { transactionMode: "all", lockTimeout: "10s" }, "postgres");
    expect(lockImpactLine(r)).toBe("ACCESS EXCLUSIVE on public.orders (rewrite) until commit; blocks reads and writes; lockTimeout 10s");
    expect(lockCell(r)).toBe("ACCESS EXCLUSIVE (blocks reads and writes)");
  });

  it("says each statement's own commit under transactionMode none, and counts statements not analysed", async () => {
    const r = await analyseStatements(sql(INDEX, "CREATE EXTENSION pgcrypto"), { transactionMode: "none" }, "postgres");
    expect(lockImpactLine(r)).toBe("SHARE on public.orders (build) until its statement commits; blocks writes; lockTimeout 30s; 1 statement not analysed");
    expect(lockCell(r)).toBe("SHARE (blocks writes) (+1 not analysed)");
  });

  it("names every relation locked in the strongest mode", async () => {
    const r = await analyseStatements(sql("ALTER TABLE b DROP COLUMN x", "ALTER TABLE a DROP COLUMN y"), {}, "postgres");
    expect(strongestLock(r)).toMatchObject({ mode: "ACCESS EXCLUSIVE", relations: ["public.a", "public.b"] });
  });

  it("is one line for another dialect", async () => {
    const r = await analyseStatements(sql(REWRITE), {}, "mysql");
    expect(lockImpactLine(r)).toBe("not analysed (dialect mysql)");
    expect(lockCell(r)).toBe("not analysed (dialect mysql)");
  });
});

describe("what a re-plan widens", () => {
  it("names a stronger mode on a relation the old plan locked, and a relation it did not lock", async () => {
    const from = await analyseStatements(sql(COMMENT), {}, "postgres");
    const to = await analyseStatements(sql(REWRITE, "ALTER TABLE items ADD COLUMN n int"), {}, "postgres");
    expect(widenedLocks(from, to)).toEqual([
      { relation: "public.items", mode: "ACCESS EXCLUSIVE", blocks: "reads and writes" },
      { relation: "public.orders", mode: "ACCESS EXCLUSIVE", was: "SHARE UPDATE EXCLUSIVE", blocks: "reads and writes" },
    ]);
    const section = diffLockSection(from, to);
    expect(section).toContain("- `ACCESS EXCLUSIVE on public.orders` (blocks reads and writes; was SHARE UPDATE EXCLUSIVE)");
    expect(section).toContain("- `ACCESS EXCLUSIVE on public.items` (blocks reads and writes; not locked before)");
  });

  it("names nothing when the new plan locks less or the same (the same mode is no widening)", async () => {
    const from = await analyseStatements(sql(REWRITE), {}, "postgres");
    const to = await analyseStatements(sql(INDEX, COMMENT, REWRITE), {}, "postgres");
    expect(widenedLocks(from, to)).toEqual([]);
    expect(diffLockSection(from, to)).toContain("**Widens:** nothing");
  });
});

describe("lockPolicy", () => {
  it("reads transactionMode, lockTimeout and protectedTables, and leaves a value outside the enum to the default", () => {
    const spec = (policy: Record<string, unknown> | undefined) => ({ spec: { ...(policy ? { policy } : {}) } }) as never;
    expect(lockPolicy(spec({ transactionMode: "none", lockTimeout: "5s", protectedTables: ["orders"] }))).toEqual({
      transactionMode: "none",
      lockTimeout: "5s",
      protectedTables: ["orders"],
    });
    expect(lockPolicy(spec({ transactionMode: "sometimes" }))).toEqual({});
    expect(lockPolicy(spec(undefined))).toEqual({});
  });
});
