// The plan's locks as the operator's transaction holds them (spec.policy.transactionMode):
//   all   one transaction: every lock is held until the last statement commits, so the plan's
//         lock set is the union and it lasts as long as the longest step (and all the others);
//   file  one transaction per file. A schema plan's document has no file boundary (its
//         statements are one list), so the whole plan is one file: the same spans as `all`
//         (docs/locks.md says so);
//   none  each statement commits on its own: its locks end with it.
// Beside it, lockTimeout: a statement waiting for its lock queues every later request on that
// table behind it (readers too, behind an ACCESS EXCLUSIVE request) for up to that long.
import { finding } from "./findings.ts";
import { blocksOf, HOLDS_ORDER, longer, reduceLocks, type Holds, type StatementLocks, type TransactionMode, type TransactionSpan, type TransactionView } from "./lock-types.ts";

/** The operator's default when spec.policy names no lockTimeout. */
export const DEFAULT_LOCK_TIMEOUT = "30s";

export function transactionView(statements: readonly StatementLocks[], mode: TransactionMode, lockTimeout: string | undefined): TransactionView {
  const spans: TransactionSpan[] = [];
  const groups: StatementLocks[][] = mode === "none" ? statements.map((s) => [s]) : statements.length > 0 ? [[...statements]] : [];
  for (const group of groups) {
    const locks = reduceLocks(group.flatMap((s) => s.locks));
    let longest: Holds = "catalog-only";
    for (const s of group) longest = longer(longest, s.holds);
    spans.push({ first: group[0]!.index, last: group[group.length - 1]!.index, locks, blocks: blocksOf(locks.map((l) => l.mode)), longest });
  }
  const timeout = lockTimeout ?? DEFAULT_LOCK_TIMEOUT;
  return { mode, lockTimeout: timeout, spans, summary: summary(mode, spans, timeout, statements.length) };
}

function summary(mode: TransactionMode, spans: readonly TransactionSpan[], timeout: string, count: number): string {
  const queue = `lockTimeout ${timeout}: a statement waiting for its lock queues every later request on that table behind it for up to ${timeout}`;
  if (count === 0) return `no statements; ${queue}`;
  if (mode === "none") {
    const worst = [...spans].sort((a, b) => HOLDS_ORDER.indexOf(b.longest) - HOLDS_ORDER.indexOf(a.longest))[0]!;
    return `transactionMode none: each statement's locks end when it commits; the longest step is statement ${worst.first + 1} (${worst.longest}); ${queue}`;
  }
  const span = spans[0]!;
  const held = span.locks.filter((l) => blocksOf([l.mode]) !== "nothing").map((l) => `${l.mode} on ${l.relation}`);
  const what = held.length > 0 ? `${held.join(", ")} held until the plan commits; blocks ${span.blocks}` : "no lock that blocks reads or writes";
  const file = mode === "file" ? " (a schema plan is one file)" : "";
  return `transactionMode ${mode}${file}: one transaction for statements 1-${count}; ${what}; the longest step is a ${span.longest}; ${queue}`;
}

/**
 * Under one transaction, a blocking lock taken by one statement is still held while a later
 * statement scans, builds or rewrites: a finding on the statement that took it, naming the step.
 */
export function heldThroughLaterSteps(statements: StatementLocks[], mode: TransactionMode): StatementLocks[] {
  if (mode === "none") return statements;
  // Each statement's next long step, found from the end in one pass: a plan of thousands of
  // statements must not scan the rest of the plan once per statement.
  const nextLong: (StatementLocks | undefined)[] = new Array<StatementLocks | undefined>(statements.length);
  let seen: StatementLocks | undefined;
  for (let i = statements.length - 1; i >= 0; i--) {
    nextLong[i] = seen;
    if (statements[i]!.holds !== "catalog-only") seen = statements[i];
  }
  return statements.map((s, i) => {
    const later = nextLong[i];
    if (!later) return s;
    const extra = s.locks
      .filter((l) => blocksOf([l.mode]) !== "nothing" && !later.locks.some((o) => o.relation === l.relation && o.mode === l.mode))
      .map((l) => finding.heldThroughLaterStep(l.mode, l.relation, later.index, later.holds));
    return extra.length === 0 ? s : { ...s, findings: [...s.findings, ...extra] };
  });
}
