// Partitions and inheritance, as PostgreSQL 15 locks them:
//   CREATE TABLE … PARTITION OF   ACCESS EXCLUSIVE on the parent; its DEFAULT partition ACCESS
//                                 EXCLUSIVE and scanned (no row of it may belong to the new one);
//   CREATE TABLE … INHERITS       SHARE UPDATE EXCLUSIVE on each parent;
//   ATTACH PARTITION              SHARE UPDATE EXCLUSIVE on the parent, ACCESS EXCLUSIVE on the
//                                 table attached, scanned unless a constraint proves its bound, and
//                                 the DEFAULT partition as above;
//   DETACH PARTITION              ACCESS EXCLUSIVE on the parent, the partition and the DEFAULT
//                                 partition; CONCURRENTLY: SHARE UPDATE EXCLUSIVE on both, outside
//                                 a transaction block only.
// The partitions the parent has are the plan's (graph.ts); a parent the plan did not create may have
// a DEFAULT partition, which the finding names as what it would be.
import { list, rangeVar, unwrap } from "./ast.ts";
import { finding } from "./findings.ts";
import type { Known } from "./known.ts";
import { isNode, type Node } from "./parser.ts";
import type { Finding, Holds, LockMode, RelationLock } from "./lock-types.ts";

const AE: LockMode = "ACCESS EXCLUSIVE";
const SUE: LockMode = "SHARE UPDATE EXCLUSIVE";

export interface PartitionPart {
  mode: LockMode;
  holds: Holds;
  other: RelationLock[];
  findings: Finding[];
  notAnalysed?: string;
}

/** The parent's DEFAULT partition: locked and scanned when the plan shows it; named as a condition when the parent is unknown. */
function defaultPartition(parent: string, except: string | undefined, known: Known, other: RelationLock[], findings: Finding[]): Holds {
  const d = known.graph.defaults.get(parent);
  if (d !== undefined && d !== except) {
    other.push({ relation: d, mode: AE });
    return "scan";
  }
  if (!known.has(parent)) findings.push(finding.relatedUnknown(parent, "if it has a DEFAULT partition, that partition is taken ACCESS EXCLUSIVE and scanned too"));
  return "catalog-only";
}

/** The locks a CREATE TABLE … PARTITION OF or INHERITS takes on its parents, learning them. */
export function createChild(table: string, body: Node, known: Known): { locks: RelationLock[]; holds: Holds; findings: Finding[] } {
  const locks: RelationLock[] = [];
  const findings: Finding[] = [];
  let holds: Holds = "catalog-only";
  const partition = body.partbound !== undefined;
  for (const p of list(body.inhRelations)) {
    const parent = rangeVar(unwrap(p)?.[1]);
    if (parent === undefined) continue;
    locks.push({ relation: parent, mode: partition ? AE : SUE });
    known.graph.addChild(parent, table);
    if (!partition) continue;
    if (isNode(body.partbound) && body.partbound.is_default === true) known.graph.defaults.set(parent, table);
    else holds = defaultPartition(parent, undefined, known, locks, findings);
    // The parent's foreign keys are cloned onto the partition: their referenced tables too.
    for (const k of known.graph.keysOn(parent)) if (k.to !== table) locks.push({ relation: k.to, mode: "SHARE ROW EXCLUSIVE" });
  }
  return { locks, holds, findings };
}

/** ALTER TABLE parent ATTACH / DETACH PARTITION child. */
export function partitionCommand(parent: string, attach: boolean, def: Node | undefined, known: Known, mode: string): PartitionPart {
  const child = isNode(def) ? rangeVar(def.name) : undefined;
  if (child === undefined) return { mode: AE, holds: "catalog-only", other: [], findings: [], notAnalysed: "a partition command without a partition name" };
  const other: RelationLock[] = [];
  const findings: Finding[] = [];
  if (attach) {
    other.push({ relation: child, mode: AE }, ...known.graph.descendants(child).map((relation) => ({ relation, mode: AE })));
    const isDefault = isNode(def!.bound) && def!.bound.is_default === true;
    defaultPartition(parent, child, known, other, findings);
    known.graph.addChild(parent, child);
    if (isDefault) known.graph.defaults.set(parent, child);
    // Every row of the table attached is checked against its bound (a CHECK proving it is not read:
    // the worst case), and the parent's indexes are built on it unless it has a matching one.
    return { mode: SUE, holds: "build", other, findings };
  }
  const concurrent = def!.concurrent === true;
  other.push({ relation: child, mode: concurrent ? SUE : AE });
  if (!concurrent) defaultPartition(parent, child, known, other, findings);
  else if (mode !== "none") findings.push(finding.concurrentlyInTransaction(mode, "DETACH PARTITION … CONCURRENTLY"));
  known.graph.removeChild(parent, child);
  return { mode: concurrent ? SUE : AE, holds: "catalog-only", other, findings };
}
