// Lock impact of a verified plan, as the commands show it (plan --locks, approve's header, the
// Markdown sections, inbox --locks): the analysis itself is src/locks/ (docs/locks.md); this is
// the policy it reads from the schema, the one-line summaries and the limit said under every view.
// The analyser (and PostgreSQL's parser, ~1 MB of WebAssembly) is imported here, inside the run
// path, never at start: `status`, `explain` and `--version` must not pay for it.
import type { Blocks, Holds, LockMode, LockPolicy, LockReport, TransactionMode } from "../../locks/index.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import type { VerifiedPlan } from "../../plan/load.ts";

/** Said under every lock table: what the verdicts rest on, and what the plugin cannot know. */
export const LOCK_LIMIT = "Lock modes as PostgreSQL 15 takes them; the plugin never connects to a database and knows nothing of table size or load.";

const MODES: readonly string[] = ["all", "file", "none"];

/** spec.policy's fields the analyser reads; a value outside the contract's enum is left to the default. */
export function lockPolicy(schema: Pick<PtahSchema, "spec">): LockPolicy {
  const p = schema.spec.policy;
  const mode = p?.transactionMode !== undefined && MODES.includes(p.transactionMode) ? (p.transactionMode as TransactionMode) : undefined;
  return {
    ...(mode ? { transactionMode: mode } : {}),
    ...(p?.lockTimeout ? { lockTimeout: p.lockTimeout } : {}),
    ...(p?.protectedTables ? { protectedTables: p.protectedTables } : {}),
  };
}

/** The verified plan's statements analysed under its schema's policy. Never rejects. */
export async function analysePlan(v: VerifiedPlan): Promise<LockReport> {
  const { analyseStatements } = await import("../../locks/index.ts");
  return analyseStatements(v.document.statements, lockPolicy(v.schema.object), v.plan.object.spec.dialect ?? "");
}

export interface StrongestLock {
  readonly mode: LockMode;
  /** Every relation locked in that mode, sorted. */
  readonly relations: readonly string[];
  /** The longest work done under it by a statement that takes it. */
  readonly holds: Holds;
  readonly blocks: Blocks;
}

const HOLDS: readonly Holds[] = ["catalog-only", "scan", "build", "rewrite"];
const LEVELS: readonly LockMode[] = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"];

/** The strongest mode any statement takes, on which relations, and for how long; undefined when none. */
export function strongestLock(report: LockReport): StrongestLock | undefined {
  let best: StrongestLock | undefined;
  for (const s of report.statements) {
    for (const l of s.locks) {
      const level = LEVELS.indexOf(l.mode);
      const bestLevel = best ? LEVELS.indexOf(best.mode) : -1;
      if (level < bestLevel) continue;
      if (level > bestLevel || !best) {
        best = { mode: l.mode, relations: [l.relation], holds: s.holds, blocks: s.blocks === "nothing" ? "nothing" : blocksOfMode(l.mode) };
        continue;
      }
      const relations = best.relations.includes(l.relation) ? best.relations : [...best.relations, l.relation].sort();
      best = { ...best, relations, holds: HOLDS.indexOf(s.holds) > HOLDS.indexOf(best.holds) ? s.holds : best.holds };
    }
  }
  return best;
}

/** What one mode blocks: reads and writes from ACCESS EXCLUSIVE, writes from SHARE up to EXCLUSIVE. */
export function blocksOfMode(mode: LockMode): Blocks {
  const level = LEVELS.indexOf(mode);
  return level === 7 ? "reads and writes" : level >= 4 ? "writes" : "nothing";
}

/** `ACCESS EXCLUSIVE on public.orders (rewrite) until commit; blocks reads and writes; lockTimeout 30s`. */
export function lockImpactLine(report: LockReport): string {
  if (!report.analysed) return report.reason ?? "not analysed";
  const timeout = `lockTimeout ${report.transaction.lockTimeout}`;
  const skipped = report.notAnalysed > 0 ? `; ${report.notAnalysed} statement${report.notAnalysed === 1 ? "" : "s"} not analysed` : "";
  const top = strongestLock(report);
  if (!top) return `no table lock; ${timeout}${skipped}`;
  const until = report.transaction.mode === "none" ? "until its statement commits" : "until commit";
  return `${top.mode} on ${top.relations.join(", ")} (${top.holds}) ${until}; blocks ${top.blocks}; ${timeout}${skipped}`;
}

/** inbox's LOCKS cell: the strongest mode and what it blocks, or why there is none. */
export function lockCell(report: LockReport): string {
  if (!report.analysed) return report.reason ?? "not analysed";
  const top = strongestLock(report);
  const skipped = report.notAnalysed > 0 ? ` (+${report.notAnalysed} not analysed)` : "";
  return top ? `${top.mode} (blocks ${top.blocks})${skipped}` : `none${skipped}`;
}
