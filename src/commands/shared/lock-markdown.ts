// The lock-impact sections of `plan -o markdown` and `diff -o markdown`: the strongest lock in one
// line, the transaction's summary and the lock table in a fenced block (so no cluster string can
// add Markdown), and for a diff what the new plan widens: a relation the old plan did not lock, or
// a stronger mode on one it did.
import type { LockMode, LockReport } from "../../locks/index.ts";
import { code, fence, item } from "../../render/markdown.ts";
import { blocksOfMode, LOCK_LIMIT, lockImpactLine } from "./lock-impact.ts";
import { lockRows } from "./lock-table.ts";

const LEVELS: readonly LockMode[] = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"];

/** One relation the new plan locks harder than the old: `was` is absent when the old did not lock it. */
export interface Widening {
  readonly relation: string;
  readonly mode: LockMode;
  readonly was?: LockMode;
  readonly blocks: string;
}

function strongestByRelation(report: LockReport): Map<string, LockMode> {
  const by = new Map<string, LockMode>();
  for (const s of report.statements) {
    for (const l of s.locks) {
      const had = by.get(l.relation);
      if (!had || LEVELS.indexOf(l.mode) > LEVELS.indexOf(had)) by.set(l.relation, l.mode);
    }
  }
  return by;
}

/** What `to` locks that `from` did not, or locks in a stronger mode; sorted by relation. */
export function widenedLocks(from: LockReport, to: LockReport): Widening[] {
  const before = strongestByRelation(from);
  const out: Widening[] = [];
  for (const [relation, mode] of strongestByRelation(to)) {
    const was = before.get(relation);
    if (was !== undefined && LEVELS.indexOf(mode) <= LEVELS.indexOf(was)) continue;
    out.push({ relation, mode, ...(was !== undefined ? { was } : {}), blocks: blocksOfMode(mode) });
  }
  return out.sort((a, b) => (a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0));
}

/** `### Lock impact` for one plan. */
export function lockSection(report: LockReport): string {
  let out = "### Lock impact\n\n" + item("Strongest lock", code(lockImpactLine(report)));
  if (!report.analysed) return out + "\n";
  out += item("Findings", `${report.findings}${report.notAnalysed > 0 ? `; ${report.notAnalysed} statement${report.notAnalysed === 1 ? "" : "s"} not analysed` : ""}`);
  out += item("Transaction", code(report.transaction.summary));
  return out + "\n" + fence("text", lockRows(report)) + `\n_${LOCK_LIMIT}_\n\n`;
}

/** The diff's section: the new plan's impact, then what it widens (undefined `from`: the old plan is gone). */
export function diffLockSection(from: LockReport | undefined, to: LockReport): string {
  let out = lockSection(to);
  if (!to.analysed) return out;
  if (!from) return out + "**Widens:** not compared: the from plan is gone, and its SQL is stored nowhere else.\n\n";
  if (!from.analysed) return out + `**Widens:** not compared: the from plan was ${code(from.reason ?? "not analysed")}.\n\n`;
  const widened = widenedLocks(from, to);
  if (widened.length === 0) return out + "**Widens:** nothing: every relation it locks, the old plan locked in the same mode or a stronger one.\n\n";
  out += "**Widens:**\n\n";
  for (const w of widened) out += `- ${code(`${w.mode} on ${w.relation}`)} (blocks ${w.blocks}; ${w.was ? `was ${w.was}` : "not locked before"})\n`;
  return out + "\n";
}
