// Knowledge-base text for lock impact (`plan --locks`, approve's Lock impact line): one topic per
// PostgreSQL lock mode and one per finding code of the lock analyser. The codes are the
// analyser's (src/locks/findings.ts); test/explain/lock-topics.test.ts checks that every code and
// mode has its topic. The modes' conflicts are PostgreSQL's table-level lock table.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { LockConcept } from "../vocabulary.ts";

const LOCKS_NEXT = [{ command: "kubectl ptah plan <schema> --locks", purpose: "see each statement's locks, what they block and the findings" }] as const;

function mode(name: string, blocks: string, takenBy: string, conflicts: string): KindedTopicText {
  return {
    summary: `Lock mode ${name}: blocks ${blocks}`,
    appliesTo: ["PtahSchema"],
    aliases: [name.toLowerCase()],
    meaning: `${name} is a PostgreSQL table lock mode. It is taken by ${takenBy}. It conflicts with ${conflicts}, so while it is held it blocks ${blocks} on that table.`,
    why: "Ordinary reads take ACCESS SHARE and ordinary writes ROW EXCLUSIVE: a mode blocks reads when it conflicts with the first and writes when it conflicts with the second.",
    operatorNext:
      "The operator's apply takes the lock when the statement runs and, under spec.policy.transactionMode all or file, holds it until the plan's transaction commits. A request that waits queues every later conflicting request behind it, for up to spec.policy.lockTimeout.",
    userAction:
      "Read kubectl ptah plan --locks before approving: it names the relation, the mode and how long the lock is held (catalog-only, scan, build, rewrite). Verdicts were measured on PostgreSQL 15; the plugin knows nothing of table size or load.",
    next: LOCKS_NEXT,
    related: ["concept/plan", "concept/approval"],
  };
}

function rule(summary: string, meaning: string, userAction: string, aliases: readonly string[] = []): KindedTopicText {
  return {
    summary,
    appliesTo: ["PtahSchema"],
    aliases,
    meaning,
    why: "The plan is the exact SQL an approval binds, and the operator runs it against the live database: a lock it takes there blocks the application's sessions for as long as it is held.",
    operatorNext:
      "Nothing: a finding is the plugin's reading of the plan, not a condition the operator sets. The operator runs the plan as approved, under spec.policy.transactionMode and lockTimeout.",
    userAction,
    next: LOCKS_NEXT,
    related: ["concept/access-exclusive", "concept/plan"],
  };
}

export const LOCK_TOPICS = {
  "access-share": mode("ACCESS SHARE", "nothing", "SELECT, and a view's tables while the view is created", "ACCESS EXCLUSIVE only"),
  "row-share": mode("ROW SHARE", "nothing", "SELECT … FOR UPDATE, and the referenced table of VALIDATE CONSTRAINT on a foreign key", "EXCLUSIVE and ACCESS EXCLUSIVE"),
  "row-exclusive": mode("ROW EXCLUSIVE", "nothing", "INSERT, UPDATE, DELETE and MERGE", "SHARE and every stronger mode"),
  "share-update-exclusive": mode(
    "SHARE UPDATE EXCLUSIVE",
    "nothing",
    "CREATE INDEX CONCURRENTLY, VALIDATE CONSTRAINT, SET STATISTICS and COMMENT ON",
    "itself and every stronger mode",
  ),
  share: mode("SHARE", "writes", "CREATE INDEX (without CONCURRENTLY)", "ROW EXCLUSIVE, SHARE UPDATE EXCLUSIVE, SHARE ROW EXCLUSIVE, EXCLUSIVE and ACCESS EXCLUSIVE"),
  "share-row-exclusive": mode(
    "SHARE ROW EXCLUSIVE",
    "writes",
    "ADD FOREIGN KEY (on both tables), CREATE TABLE … REFERENCES (on the referenced one), DISABLE TRIGGER and ALTER SEQUENCE",
    "ROW EXCLUSIVE and every stronger mode but ROW SHARE",
  ),
  exclusive: mode("EXCLUSIVE", "writes", "REFRESH MATERIALIZED VIEW CONCURRENTLY", "every mode but ACCESS SHARE"),
  "access-exclusive": mode("ACCESS EXCLUSIVE", "reads and writes", "most ALTER TABLE forms, DROP, TRUNCATE, RENAME and DROP INDEX", "every mode"),
  "index-not-concurrent": rule(
    "CREATE INDEX without CONCURRENTLY blocks writes for the whole build",
    "CREATE INDEX takes SHARE on its table: inserts, updates and deletes wait until the index is built. Not raised for a table the same plan creates.",
    "Build it with CREATE INDEX CONCURRENTLY, in a plan applied with transactionMode none.",
  ),
  "drop-index-not-concurrent": rule(
    "DROP INDEX without CONCURRENTLY blocks reads and writes",
    "DROP INDEX takes ACCESS EXCLUSIVE on the index and on its table.",
    "Drop it with DROP INDEX CONCURRENTLY, in a plan applied with transactionMode none.",
  ),
  "concurrently-in-transaction": rule(
    "CONCURRENTLY inside the plan's transaction: the apply fails",
    "CREATE INDEX CONCURRENTLY, DROP INDEX CONCURRENTLY and REINDEX CONCURRENTLY cannot run inside a transaction block, and transactionMode all or file (the default) runs the plan in one.",
    "Apply this plan with spec.policy.transactionMode none.",
  ),
  "type-change-rewrite": rule(
    "ALTER COLUMN … TYPE rewrites the table under ACCESS EXCLUSIVE",
    "A column type change that is not a widening or binary-coercible one, has a USING expression, or changes a column whose type the plan does not show copies every row into a new file while reads and writes wait.",
    "Add a new column, backfill it in batches, and swap.",
  ),
  "volatile-default-rewrite": rule(
    "ADD COLUMN with a volatile default rewrites the table",
    "A default such as random(), clock_timestamp(), gen_random_uuid(), nextval, serial, identity or a stored generated column is computed per row: adding the column rewrites the table under ACCESS EXCLUSIVE.",
    "Add the column without the default, set the default after, and backfill in batches.",
  ),
  "table-rewrite": rule(
    "SET LOGGED/UNLOGGED, SET TABLESPACE or SET ACCESS METHOD rewrites",
    "These forms of ALTER TABLE copy the whole table under ACCESS EXCLUSIVE.",
    "Schedule the plan for a quiet window.",
  ),
  "set-not-null-scan": rule(
    "SET NOT NULL scans the table under ACCESS EXCLUSIVE",
    "SET NOT NULL reads every row to prove the column holds no null, with reads and writes blocked, unless a valid CHECK (column IS NOT NULL) already proves it.",
    "Add CHECK (column IS NOT NULL) NOT VALID, VALIDATE CONSTRAINT, then SET NOT NULL: it skips the scan.",
  ),
  "not-null-without-default": rule(
    "ADD COLUMN … NOT NULL without a default fails on a non-empty table",
    "Existing rows would hold null in the new column, which NOT NULL refuses: the statement fails unless the table is empty.",
    "Give the column a non-volatile DEFAULT.",
  ),
  "foreign-key-validates": rule(
    "A foreign key without NOT VALID blocks writes on both tables",
    "ADD FOREIGN KEY takes SHARE ROW EXCLUSIVE on the table and the referenced table while it checks every row.",
    "Add it NOT VALID, then VALIDATE CONSTRAINT in a later step (SHARE UPDATE EXCLUSIVE, which blocks neither reads nor writes).",
  ),
  "check-validates": rule(
    "A CHECK without NOT VALID scans under ACCESS EXCLUSIVE",
    "ADD CONSTRAINT … CHECK reads every row while reads and writes wait.",
    "Add it NOT VALID, then VALIDATE CONSTRAINT in a later step.",
  ),
  "constraint-builds-index": rule(
    "UNIQUE, PRIMARY KEY or EXCLUDE builds its index under ACCESS EXCLUSIVE",
    "The constraint's index is built while the table is locked against reads and writes.",
    "CREATE UNIQUE INDEX CONCURRENTLY first, then ADD CONSTRAINT … USING INDEX.",
  ),
  "held-through-later-step": rule(
    "A blocking lock stays held while a later statement does long work",
    "Under transactionMode all or file every lock is held until the plan commits: a lock one statement takes keeps blocking while a later statement scans, builds or rewrites.",
    "Put the long step in a plan (a transaction) of its own, or use transactionMode none where the statements allow it.",
  ),
  "related-relation": rule(
    "The statement also locks relations it does not name",
    "A column type change re-creates the foreign keys on the column, so the table at their other end is taken ACCESS EXCLUSIVE (and its rows checked again when the type changes); dropping a column or constraint that carries a foreign key takes ACCESS EXCLUSIVE on the referenced table; a collation change rebuilds the indexes on the column. For a relation the plan did not create, the finding names the lock it would be if such a key, index or DEFAULT partition exists.",
    "Review the other tables too: schedule the change for a quiet window, or split the key off first (drop it, change the column, add it back NOT VALID and VALIDATE it later).",
  ),
  "protected-table-lock": rule(
    "A lock that blocks reads or writes on a protected table",
    "The statement takes a blocking lock on a table listed in spec.policy.protectedTables.",
    "Review that the change is meant for that table.",
    ["protected table lock", "lock on a protected table"],
  ),
} satisfies Record<LockConcept, KindedTopicText>;
