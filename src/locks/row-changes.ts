// Row changes (INSERT, UPDATE, DELETE, MERGE), as PostgreSQL 15's "Explicit Locking" chapter and
// its referential-integrity triggers take them:
//   the target                  ROW EXCLUSIVE, with its partitions and children (an INSERT routes
//                               rows to partitions, an UPDATE or DELETE not ONLY opens them all), and
//                               through a view the tables the view writes;
//   what the statement reads    ACCESS SHARE (sub-selects, FROM, USING, MERGE's source, through views);
//   a foreign key of the target each new or changed row is checked with SELECT … FOR KEY SHARE on the
//                               referenced table: ROW SHARE there, read through its key;
//   a key referencing the target an UPDATE or DELETE runs the key's action on the referencing
//                               table: CASCADE, SET NULL and SET DEFAULT write it (ROW EXCLUSIVE),
//                               NO ACTION and RESTRICT only check it (ROW SHARE). The plan's keys do
//                               not always say which action the server has, and a written table's own
//                               referencing tables are written in turn, so every referencing table is
//                               reported ROW EXCLUSIVE, transitively: never weaker than the server;
//   a rule on the target        its actions' locks (the statement is rewritten with them);
//   a trigger on the target     its function is not read: a finding says it may lock more;
//   a data-modifying WITH       each row change in it, as if it stood alone (it runs to completion).
// COPY FROM is an INSERT of its rows; COPY TO reads its table (ACCESS SHARE) or runs its query.
// A table the plan did not create may have keys, rules and triggers: a finding names the locks.
import type { Verdict } from "./alter.ts";
import { isOnly, rangeVar, unwrap, walk } from "./ast.ts";
import { finding } from "./findings.ts";
import { readsOf } from "./graph.ts";
import type { Known } from "./known.ts";
import type { Node } from "./parser.ts";
import { longer, type Finding, type Holds, type LockMode, type RelationLock } from "./lock-types.ts";

const RE: LockMode = "ROW EXCLUSIVE";

const VERB: Record<string, string> = { InsertStmt: "INSERT", UpdateStmt: "UPDATE", DeleteStmt: "DELETE", MergeStmt: "MERGE" };

/**
 * The verdict of a row change, or undefined for any other kind. A data-modifying WITH (INSERT,
 * UPDATE, DELETE or MERGE inside it) runs to completion beside the statement, whatever the statement
 * reads of it: each is a row change of its own, joined to the statement's.
 */
export function rowChange(kind: string, body: Node, known: Known): Verdict | undefined {
  const alone = rowChangeAlone(kind, body, known);
  return alone && withRowChanges(body, known, alone);
}

/** The row changes a WITH holds (PostgreSQL allows them only in the top-level WITH, so none nest). */
function modifyingCtes(body: Node): Array<[string, Node]> {
  const out: Array<[string, Node]> = [];
  walk(body.withClause, (kind, node) => {
    if (kind !== "CommonTableExpr") return;
    const u = unwrap(node.ctequery);
    if (u !== undefined && VERB[u[0]] !== undefined) out.push(u);
  });
  return out;
}

/** `own` joined with the verdict of each data-modifying CTE of `body`: never analysed if one is not. */
export function withRowChanges(body: Node, known: Known, own: Verdict): Verdict {
  const parts = [own, ...modifyingCtes(body).map(([kind, cte]) => rowChangeAlone(kind, cte, known)!)];
  if (parts.length === 1) return own;
  const missing = parts.find((p) => p.notAnalysed !== undefined);
  if (missing) return missing;
  return { locks: parts.flatMap((p) => p.locks), holds: parts.map((p) => p.holds).reduce(longer), findings: parts.flatMap((p) => p.findings) };
}

/**
 * COPY, as PostgreSQL 15 takes it: FROM writes the table as an INSERT does (ROW EXCLUSIVE, rows
 * routed to partitions, keys checked, triggers fired); TO reads a table (ACCESS SHARE; PostgreSQL
 * refuses a view or a partitioned one) or runs its query, which may itself change rows.
 */
export function copy(body: Node, known: Known): Verdict {
  const table = rangeVar(body.relation);
  if (body.is_from === true) {
    if (table === undefined) return { locks: [], holds: "catalog-only", findings: [], notAnalysed: "COPY FROM without a table name the analyser could read" };
    return rowChangeAlone("InsertStmt", { relation: body.relation }, known)!;
  }
  if (table !== undefined) return { locks: [{ relation: table, mode: "ACCESS SHARE" }], holds: "scan", findings: [] };
  const copied = unwrap(body.query);
  if (copied === undefined) return { locks: [], holds: "catalog-only", findings: [], notAnalysed: "COPY TO without a table or a query the analyser could read" };
  return rowChange(copied[0], copied[1], known) ?? query(copied[1], known);
}

/** A query (SELECT, VALUES, a plain WITH): what it reads, and what its WITH changes. */
export function query(body: Node, known: Known): Verdict {
  return withRowChanges(body, known, { locks: readLocks(readsOf(body), body, known), holds: "scan", findings: [] });
}

/**
 * What a statement takes on the relations it reads, as PostgreSQL 15 documents it: ACCESS SHARE,
 * through views; with FOR UPDATE, NO KEY UPDATE, SHARE or KEY SHARE anywhere in the statement, ROW
 * SHARE, said of everything it reads (never weaker than naming only the locked ones).
 */
export function readLocks(reads: readonly string[], statement: unknown, known: Known): RelationLock[] {
  let locking = false;
  walk(statement, (kind) => (kind === "LockingClause" ? (locking = true) : undefined));
  const mode: LockMode = locking ? "ROW SHARE" : "ACCESS SHARE";
  return known.graph.throughViews(reads).map((relation) => ({ relation, mode }));
}

function rowChangeAlone(kind: string, body: Node, known: Known): Verdict | undefined {
  const verb = VERB[kind];
  if (verb === undefined) return undefined;
  const target = rangeVar(body.relation);
  if (target === undefined) return { locks: [], holds: "catalog-only", findings: [], notAnalysed: `${verb} without a table name the analyser could read` };
  const g = known.graph;
  const checks = verb !== "DELETE";
  const actions = verb !== "INSERT";
  // UPDATE ONLY / DELETE FROM ONLY leave the children alone.
  const only = isOnly(body.relation);
  const written = only ? [target, ...(g.views.has(target) ? g.throughViews([target]).slice(1) : [])] : g.throughViews([target]);
  const locks: RelationLock[] = written.map((relation) => ({ relation, mode: RE }));
  for (const l of g.rules.get(target) ?? []) {
    locks.push(l);
    if (l.mode === RE) written.push(...g.throughViews([l.relation]).filter((r) => !written.includes(r)));
  }
  const reads = readLocks(
    readsOf(body).filter((r) => r !== target),
    body,
    known,
  );
  locks.push(...reads);
  let keyed = false;
  // Each written table's keys: the referenced side checked, the referencing side acted on.
  for (let i = 0; i < written.length; i++) {
    const t = written[i]!;
    if (checks)
      for (const k of g.keysOn(t)) {
        keyed = true;
        for (const relation of g.throughViews([k.to])) locks.push({ relation, mode: "ROW SHARE" });
      }
    if (actions)
      for (const k of g.keysReferencing(t)) {
        keyed = true;
        for (const relation of g.throughViews([k.from])) {
          locks.push({ relation, mode: RE });
          if (!written.includes(relation)) written.push(relation);
        }
      }
  }
  const findings: Finding[] = [];
  const fired = written.filter((t) => g.triggers.has(t));
  if (fired.length > 0) findings.push(finding.triggersFire(fired, verb));
  const unknown = written.filter((t) => !known.has(t) && !g.views.has(t));
  for (const t of unknown) findings.push(finding.relatedUnknown(t, unknownReach(verb)));
  // A VALUES-only INSERT into a table whose keys, rules and triggers the plan shows reads nothing;
  // anything else reads: a WHERE through an index counts as a read of the table, as every key check does.
  const quiet = verb === "INSERT" && reads.length === 0 && !keyed && unknown.length === 0 && body.onConflictClause === undefined && !g.rules.has(target);
  const holds: Holds = quiet ? "catalog-only" : "scan";
  return { locks, holds, findings };
}

function unknownReach(verb: string): string {
  const checks = "each foreign key it has is checked with ROW SHARE on the referenced table, read through its key";
  const acts = "each table whose foreign key references it is taken ROW EXCLUSIVE and read (ROW SHARE for a NO ACTION key)";
  const more = "a rule or trigger on it may lock and write other tables";
  if (verb === "INSERT") return `${checks}; ${more}`;
  if (verb === "DELETE") return `${acts}; ${more}`;
  return `${checks}; ${acts}; ${more}`;
}
