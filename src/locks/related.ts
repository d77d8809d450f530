// The relations an ALTER TABLE reaches beyond the table it names, from what the plan declares
// (graph.ts), as PostgreSQL 15 does it:
//   a column type change re-creates every foreign key on the column, both ways: ACCESS EXCLUSIVE on
//     the table at the other end, and its rows are checked again when the type really changes;
//     it rebuilds the indexes on the column when the type or the collation changes, and checks
//     the CHECK constraints that read the column again;
//   dropping a column that carries a foreign key drops the key's triggers on the referenced table
//     (ACCESS EXCLUSIVE there);
//   most ALTER TABLE forms recurse to every partition and inheritance child, in the same mode.
// A table the plan did not create may have any of these: the finding says which lock it would be.
import { finding } from "./findings.ts";
import type { Known } from "./known.ts";
import type { Finding, Holds, LockMode, RelationLock } from "./lock-types.ts";

const AE: LockMode = "ACCESS EXCLUSIVE";

export interface Reach {
  locks: RelationLock[];
  holds: Holds;
  findings: Finding[];
  /** What would be locked beyond a table the plan did not create (a clause for the type change's finding). */
  unknown?: string;
}

/** What changing `column`'s type (or only its collation) does beyond `table`. */
export function typeChangeReach(table: string, column: string, change: { sameType: boolean; collationChanges: boolean }, known: Known): Reach {
  const locks: RelationLock[] = [];
  const others = new Set<string>();
  const g = known.graph;
  for (const k of [...g.keysReferencing(table, column), ...g.keysOn(table, column)]) {
    const other = k.from === table ? k.to : k.from;
    if (other !== table) others.add(other);
  }
  for (const o of others) locks.push({ relation: o, mode: AE });
  let holds: Holds = "catalog-only";
  const findings: Finding[] = [];
  // The keys are added back; their rows are checked again unless the type stays the same.
  if (others.size > 0 && !change.sameType) holds = "scan";
  if (others.size > 0) findings.push(finding.relatedLocks(`Changing the type of ${column}`, [...others], change.sameType ? "" : " and checks their rows again"));
  const t = known.table(table);
  if (t !== undefined) {
    for (const c of t.constraints.values()) if (c.kind === "check" && (c.columns === undefined || c.columns.has(column))) holds = "scan";
    // The change recurses to every partition and child, and rebuilds their indexes on the column too.
    const indexes = [table, ...g.descendants(table)].flatMap((d) => g.indexesOn(d, column));
    const keyed = [...t.constraints.values()].some((c) => (c.kind === "primary" || c.kind === "unique") && (c.columns === undefined || c.columns.has(column)));
    if ((indexes.length > 0 || keyed) && change.collationChanges) {
      holds = "build";
      findings.push(finding.collationRebuild(table, column));
    } else if (indexes.some((i) => i.expressions) || (indexes.length > 0 && g.descendants(table).length > 0)) {
      // An expression or partial index is never kept, nor a partitioned table's: they are built again.
      holds = "build";
    }
  }
  // A table the plan did not create: its type-change finding (the worst case already) names what
  // would be locked beyond it.
  const unknown =
    t === undefined
      ? `; if another table's foreign key references ${column}, or ${column} carries one, the table at the other end is taken ACCESS EXCLUSIVE and its rows checked again`
      : undefined;
  return { locks, holds, findings, unknown };
}

/** Dropping `column` drops its foreign keys' triggers on the referenced tables. */
export function dropColumnReach(table: string, column: string, known: Known): Reach {
  const refs = new Set(known.graph.keysOn(table, column).map((k) => k.to));
  refs.delete(table);
  const locks = [...refs].map((relation) => ({ relation, mode: AE }));
  const findings: Finding[] = [];
  if (refs.size > 0) findings.push(finding.relatedLocks(`Dropping ${column}`, [...refs], ", dropping its foreign key's triggers there"));
  else if (!known.has(table)) findings.push(finding.relatedUnknown(table, `if ${column} carries a foreign key, the table it references is taken ACCESS EXCLUSIVE too`));
  return { locks, holds: "catalog-only", findings };
}

/** The partitions and inheritance children an ALTER TABLE recurses to, each in the same mode. */
export function descendantLocks(table: string, mode: LockMode, recurse: boolean, known: Known): Reach {
  if (!recurse) return { locks: [], holds: "catalog-only", findings: [] };
  return { locks: known.graph.descendants(table).map((relation) => ({ relation, mode })), holds: "catalog-only", findings: [] };
}

/** Dropping a foreign key also drops its triggers on the referenced table, under ACCESS EXCLUSIVE there. */
export function droppedForeignKey(table: string, name: string | undefined, known: Known): RelationLock[] | undefined {
  const c = name === undefined ? undefined : known.table(table)?.constraints.get(name);
  const refs = new Set(
    known.graph
      .keysOn(table)
      .filter((k) => k.name !== undefined && k.name === name)
      .map((k) => k.to),
  );
  if (c?.kind === "foreign" && c.references !== undefined) refs.add(c.references);
  refs.delete(table);
  return refs.size > 0 ? [...refs].map((relation) => ({ relation, mode: AE })) : undefined;
}
