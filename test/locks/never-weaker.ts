// The generated oracle's judgement: the analyser's verdict must never be weaker than what
// PostgreSQL did. An under-report is a relation PostgreSQL locked that the analyser does not name
// in a mode covering it (one that blocks at least as much), or work under the lock longer than the
// analyser says (catalog-only < scan < build < rewrite); an over-report is the other way round,
// counted, never a failure. The relations compared are trace.ts's observedLocks, as compare() there.
import { covers, reduceLocks, type Holds, type RelationLock, type StatementLocks } from "../../src/locks/index.ts";
import { observedLocks, type Observed } from "./trace.ts";

const ORDER: readonly Holds[] = ["catalog-only", "scan", "build", "rewrite"];

export interface Judgement {
  /** Why PostgreSQL's side could not be compared (it refused the statement); nothing else is set then. */
  readonly refused?: string;
  readonly under: readonly string[];
  readonly over: readonly string[];
}

export function judge(seen: Observed, said: StatementLocks): Judgement {
  if (seen.error !== undefined) return { refused: seen.error.trim().split("\n")[0] ?? "", under: [], over: [] };
  if (said.notAnalysed !== undefined) return { under: [`not analysed: ${said.notAnalysed}`], over: [] };
  const took = reduceLocks(observedLocks(seen, said));
  const under: string[] = [];
  const over: string[] = [];
  for (const o of took)
    if (!said.locks.some((s) => s.relation === o.relation && covers(s.mode, o.mode)))
      under.push(`PostgreSQL took ${o.mode} on ${o.relation}; the analyser says ${modesOn(said.locks, o.relation)}`);
  for (const s of said.locks)
    if (!took.some((o) => o.relation === s.relation && covers(o.mode, s.mode)))
      over.push(`the analyser says ${s.mode} on ${s.relation}; PostgreSQL took ${modesOn(took, s.relation)}`);
  const d = ORDER.indexOf(said.holds) - ORDER.indexOf(seen.holds);
  if (d < 0) under.push(`PostgreSQL did a ${seen.holds}; the analyser says ${said.holds}`);
  if (d > 0) over.push(`the analyser says ${said.holds}; PostgreSQL did a ${seen.holds}`);
  return { under, over };
}

const modesOn = (locks: readonly RelationLock[], relation: string): string => {
  const m = locks.filter((l) => l.relation === relation).map((l) => l.mode);
  return m.length > 0 ? m.join(" + ") : "nothing";
};
