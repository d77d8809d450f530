// The statements beside tables, columns and indexes whose locks PostgreSQL 15 documents (the
// "Explicit Locking" chapter and each command's page), as the lab's server takes them:
//   CREATE TRIGGER                     SHARE ROW EXCLUSIVE on its table (or view);
//   CREATE/ALTER POLICY, CREATE RULE   ACCESS EXCLUSIVE on the table; a rule's actions open the
//                                      relations they write (ROW EXCLUSIVE) and read (ACCESS SHARE);
//   DROP TRIGGER/RULE/POLICY           ACCESS EXCLUSIVE on the table;
//   CREATE STATISTICS                  SHARE UPDATE EXCLUSIVE on the table;
//   ANALYZE                            SHARE UPDATE EXCLUSIVE on the table and every partition;
//   VACUUM                             the same (FULL: ACCESS EXCLUSIVE and a rewrite of each),
//                                      outside a transaction block only. An inheritance child
//                                      is taken no harder than ACCESS SHARE, but the plan's graph
//                                      does not tell it from a partition: it is said in the same
//                                      mode, never weaker;
//   REFRESH MATERIALIZED VIEW          ACCESS EXCLUSIVE on it and a rewrite (CONCURRENTLY: EXCLUSIVE
//                                      and a scan), ACCESS SHARE on what its query reads;
//   CREATE TABLE AS, SELECT INTO,
//   CREATE MATERIALIZED VIEW           ACCESS SHARE on what the query reads, which it scans;
//   CREATE/DROP DATABASE, TABLESPACE,
//   ALTER SYSTEM                       no table; outside a transaction block only.
import type { Verdict } from "./alter.ts";
import { dotted, list, names, rangeVar, text, unwrap, walk } from "./ast.ts";
import { finding } from "./findings.ts";
import { readsOf } from "./graph.ts";
import { readLocks, withRowChanges } from "./row-changes.ts";
import type { Known } from "./known.ts";
import type { Node } from "./parser.ts";
import type { LockMode, RelationLock, TransactionMode } from "./lock-types.ts";

const AE: LockMode = "ACCESS EXCLUSIVE";
const SUE: LockMode = "SHARE UPDATE EXCLUSIVE";
const skip = (why: string): Verdict => ({ locks: [], holds: "catalog-only", findings: [], notAnalysed: why });
const one = (relation: string | undefined, mode: LockMode, what: string): Verdict =>
  relation === undefined ? skip(`${what} without a table name the analyser could read`) : { locks: [{ relation, mode }], holds: "catalog-only", findings: [] };

/** Statements that cannot run inside a transaction block, by kind. */
const OUTSIDE_ONLY: Record<string, string> = {
  CreatedbStmt: "CREATE DATABASE",
  DropdbStmt: "DROP DATABASE",
  CreateTableSpaceStmt: "CREATE TABLESPACE",
  DropTableSpaceStmt: "DROP TABLESPACE",
  AlterSystemStmt: "ALTER SYSTEM",
};

/** The verdict for the kinds this module reads, or undefined for any other kind. */
export function moreLocks(kind: string, body: Node, known: Known, mode: TransactionMode): Verdict | undefined {
  const outside = OUTSIDE_ONLY[kind];
  if (outside !== undefined) return { locks: [], holds: "catalog-only", findings: mode === "none" ? [] : [finding.concurrentlyInTransaction(mode, outside)] };
  switch (kind) {
    case "CreateTrigStmt": {
      // A row trigger on a partitioned table is cloned onto every partition.
      const v = one(rangeVar(body.relation), "SHARE ROW EXCLUSIVE", "CREATE TRIGGER");
      for (const l of v.locks) known.graph.triggers.add(l.relation);
      if (body.row === true) for (const l of [...v.locks]) v.locks.push(...known.graph.descendants(l.relation).map((relation) => ({ relation, mode: l.mode })));
      return v;
    }
    case "CreatePolicyStmt":
    case "AlterPolicyStmt":
      return one(rangeVar(body.table), AE, "a policy");
    case "RuleStmt":
      return rule(body, known);
    case "CreateStatsStmt":
      return one(rangeVar(unwrap(list(body.relations)[0])?.[1]), SUE, "CREATE STATISTICS");
    case "VacuumStmt":
      return vacuum(body, mode, known);
    case "RefreshMatViewStmt":
      return refresh(body, known);
    case "CreateTableAsStmt":
      return createAs(rangeVar(isInto(body.into)), unwrap(body.query)?.[1], text(body.objtype) === "OBJECT_MATVIEW", body.into, known);
    default:
      return undefined;
  }
}

const isInto = (into: unknown): unknown => (typeof into === "object" && into !== null ? (into as Node).rel : undefined);

/** SELECT … INTO: a CREATE TABLE AS. */
export function selectInto(body: Node, known: Known): Verdict | undefined {
  return body.intoClause === undefined ? undefined : createAs(rangeVar(isInto(body.intoClause)), body, false, body.intoClause, known);
}

/** `select` is the query's SelectStmt (CREATE TABLE AS hands its wrapped query, SELECT INTO itself). */
function createAs(target: string | undefined, select: Node | undefined, matview: boolean, into: unknown, known: Known): Verdict {
  const reads = readsOf(select);
  if (target !== undefined && matview) known.graph.reads.set(target, reads);
  const noData = typeof into === "object" && into !== null && (into as Node).skipData === true;
  const own: Verdict = { locks: readLocks(reads, select, known), holds: reads.length > 0 && !noData ? "scan" : "catalog-only", findings: [] };
  return select === undefined ? own : withRowChanges(select, known, own);
}

function rule(body: Node, known: Known): Verdict {
  const table = rangeVar(body.relation);
  if (table === undefined) return skip("CREATE RULE without a table name the analyser could read");
  const locks: RelationLock[] = [{ relation: table, mode: AE }];
  const written = new Set<string>();
  walk(body.actions, (kind, node) => {
    if (kind === "InsertStmt" || kind === "UpdateStmt" || kind === "DeleteStmt") {
      const r = rangeVar(node.relation);
      if (r !== undefined) written.add(r);
    }
  });
  for (const r of written) locks.push({ relation: r, mode: "ROW EXCLUSIVE" });
  for (const r of known.graph.throughViews(readsOf(body.actions))) if (!written.has(r)) locks.push({ relation: r, mode: "ACCESS SHARE" });
  // A later row change on the table is rewritten with these actions and takes their locks.
  const actions = locks.slice(1) as { relation: string; mode: "ROW EXCLUSIVE" | "ACCESS SHARE" }[];
  known.graph.rules.set(table, [...(known.graph.rules.get(table) ?? []), ...actions]);
  return { locks, holds: "catalog-only", findings: [] };
}

function vacuum(body: Node, mode: TransactionMode, known: Known): Verdict {
  const options = list(body.options).map((o) => text(unwrap(o)?.[1].defname) ?? "");
  const full = options.includes("full");
  const named = list(body.rels).map((r) => rangeVar(unwrap(r)?.[1].relation));
  if (named.length === 0 || named.some((r) => r === undefined)) return skip("VACUUM or ANALYZE of every table in the database");
  const isVacuum = body.is_vacuumcmd === true;
  const what = isVacuum ? (full ? "VACUUM FULL" : "VACUUM") : "ANALYZE";
  const m: LockMode = isVacuum && full ? AE : SUE;
  // A partitioned table is processed partition by partition, each under the same lock.
  const rels: string[] = [];
  for (const r of named as string[]) for (const t of [r, ...known.graph.descendants(r)]) if (!rels.includes(t)) rels.push(t);
  const findings = isVacuum && mode !== "none" ? [finding.concurrentlyInTransaction(mode, what)] : [];
  if (isVacuum && full) for (const r of rels) findings.push(finding.tableRewrite(r, "VACUUM FULL"));
  for (const r of named as string[]) if (!known.has(r)) findings.push(finding.relatedUnknown(r, `if it is partitioned, ${what} takes each partition ${m} too`));
  return { locks: rels.map((relation) => ({ relation, mode: m })), holds: isVacuum && full ? "rewrite" : "scan", findings };
}

function refresh(body: Node, known: Known): Verdict {
  const view = rangeVar(body.relation);
  if (view === undefined) return skip("REFRESH MATERIALIZED VIEW without a name the analyser could read");
  const concurrent = body.concurrent === true;
  const locks: RelationLock[] = [{ relation: view, mode: concurrent ? "EXCLUSIVE" : AE }];
  const reads = known.graph.reads.get(view);
  for (const r of known.graph.throughViews(reads ?? [])) locks.push({ relation: r, mode: "ACCESS SHARE" });
  const findings = reads === undefined ? [finding.relatedUnknown(view, "the tables its query reads are each taken ACCESS SHARE and read in full")] : [];
  return { locks, holds: concurrent ? "scan" : "rewrite", findings };
}

/** DROP TRIGGER / RULE / POLICY: ACCESS EXCLUSIVE on the table named before the object's own name. */
export function dropOnTable(body: Node): Verdict {
  const locks: RelationLock[] = [];
  for (const obj of list(body.objects)) {
    const u = unwrap(obj);
    const parts = u?.[0] === "List" ? names(u[1].items) : [];
    const table = dotted(parts.slice(0, -1));
    if (table === undefined) return skip("DROP of a trigger, rule or policy without a table name the analyser could read");
    locks.push({ relation: table, mode: AE });
  }
  return { locks, holds: "catalog-only", findings: [] };
}
