// The findings: a stable code and one sentence a person acts on. docs/locks.md lists each code
// with what it means and what to do; `explain` has a topic per code (src/explain/topics/lock-topics.ts).
import type { FindingCode } from "./finding-codes.ts";
import type { Finding, LockMode } from "./lock-types.ts";

const f = (code: FindingCode, message: string): Finding => ({ code, message });

export const finding = {
  indexNotConcurrent: (table: string) =>
    f("index-not-concurrent", `Building this index takes SHARE on ${table}, which blocks every write to it until the build ends; build it with CREATE INDEX CONCURRENTLY.`),
  dropIndexNotConcurrent: (index: string) =>
    f("drop-index-not-concurrent", `DROP INDEX takes ACCESS EXCLUSIVE on ${index} and its table, which blocks reads and writes; drop it with DROP INDEX CONCURRENTLY.`),
  concurrentlyInTransaction: (mode: string, what = "CONCURRENTLY") =>
    f(
      "concurrently-in-transaction",
      `${what} cannot run inside a transaction block and transactionMode ${mode} runs the plan in one, so this statement will fail; apply it with transactionMode none.`,
    ),
  relatedLocks: (what: string, tables: readonly string[], more: string) =>
    f("related-relation", `${what} also takes ACCESS EXCLUSIVE on ${tables.join(", ")}${more}; review those tables too.`),
  relatedUnknown: (table: string, what: string) => f("related-relation", `${table} is not created by the plan, so what reaches beyond it is unknown: ${what}.`),
  triggersFire: (tables: readonly string[], verb: string) =>
    f("related-relation", `This ${verb} fires the triggers the plan puts on ${tables.join(", ")}; what their functions lock and write is not analysed, review them too.`),
  collationRebuild: (table: string, column: string) =>
    f("related-relation", `Changing the collation of ${column} rebuilds the indexes on it under ACCESS EXCLUSIVE on ${table}, reading every row.`),
  typeChangeRewrite: (table: string, column: string, why: string) =>
    f("type-change-rewrite", `Changing the type of ${column} rewrites ${table} under ACCESS EXCLUSIVE (${why}); add a new column, backfill it in batches and swap instead.`),
  volatileDefaultRewrite: (table: string, column: string) =>
    f(
      "volatile-default-rewrite",
      `The default of ${column} is volatile (or not known to be otherwise), so adding it rewrites ${table} under ACCESS EXCLUSIVE; add the column without it, then set the default and backfill in batches.`,
    ),
  tableRewrite: (table: string, what: string) =>
    f("table-rewrite", `${what} rewrites ${table} under ACCESS EXCLUSIVE, which blocks reads and writes for the whole copy; schedule it for a quiet window.`),
  setNotNullScan: (table: string, column: string) =>
    f(
      "set-not-null-scan",
      `SET NOT NULL on ${column} scans ${table} under ACCESS EXCLUSIVE; first add CHECK (${column} IS NOT NULL) NOT VALID and VALIDATE it, then SET NOT NULL skips the scan.`,
    ),
  notNullWithoutDefault: (table: string, column: string) =>
    f("not-null-without-default", `Adding ${column} as NOT NULL without a default fails unless ${table} is empty; give it a non-volatile DEFAULT.`),
  foreignKeyValidates: (table: string, referenced: string) =>
    f(
      "foreign-key-validates",
      `This foreign key locks ${table} and ${referenced} in SHARE ROW EXCLUSIVE (blocking their writes) while it checks every row; add it NOT VALID, then VALIDATE CONSTRAINT in a later step.`,
    ),
  checkValidates: (table: string) =>
    f(
      "check-validates",
      `This CHECK constraint scans ${table} under ACCESS EXCLUSIVE; add it NOT VALID, then VALIDATE CONSTRAINT in a later step, which blocks neither reads nor writes.`,
    ),
  constraintBuildsIndex: (table: string) =>
    f(
      "constraint-builds-index",
      `This constraint builds its index under ACCESS EXCLUSIVE on ${table}; build a unique index CONCURRENTLY first and add the constraint USING INDEX.`,
    ),
  heldThroughLaterStep: (mode: LockMode, table: string, later: number, holds: string) =>
    f("held-through-later-step", `The ${mode} lock on ${table} stays held until commit, through statement ${later + 1}'s ${holds}; put that step in a transaction of its own.`),
  protectedTable: (table: string, mode: LockMode, blocks: string) =>
    f("protected-table", `${table} is a protected table and this statement takes ${mode} on it, which blocks ${blocks}; review that the change is meant for it.`),
};
