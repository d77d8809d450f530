// The lock table of `plan --locks` and of the Markdown sections: each statement's locks (#, LOCKS,
// BLOCKS, HOLDS, FINDING), the transaction's summary, the findings counted, and the limit under it.
import type { LockReport, StatementLocks } from "../../locks/index.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { LOCK_LIMIT } from "./lock-impact.ts";

function rowsOf(s: StatementLocks): string[][] {
  const n = String(s.index + 1);
  if (s.notAnalysed !== undefined) return [[n, "not analysed", "", "", sanitize(s.notAnalysed)]];
  const locks = s.locks.length > 0 ? s.locks.map((l) => `${l.mode} on ${sanitize(l.relation)}`).join(", ") : "<none>";
  const findings = s.findings.length > 0 ? s.findings.map((f) => `${f.code}: ${sanitize(f.message)}`) : ["<none>"];
  // One finding a row: a statement with several keeps its first row and adds rows under it.
  return findings.map((f, i) => (i === 0 ? [n, locks, s.blocks, s.holds, f] : ["", "", "", "", f]));
}

/** The table, the summary and the limit; a plan of another dialect is one line. */
export function renderLockTable(report: LockReport, width = 0): string {
  if (!report.analysed) return `${sanitize(report.reason ?? "not analysed")}\n`;
  const table = lockRows(report, width);
  const counts = `${report.findings} finding${report.findings === 1 ? "" : "s"}, ${report.notAnalysed} not analysed`;
  return `${table}\nTransaction: ${sanitize(report.transaction.summary)}\nFindings:    ${counts}\n${LOCK_LIMIT}\n`;
}

/** The table alone (the Markdown section says the summary as list items). */
export function lockRows(report: LockReport, width = 0): string {
  return renderTable(
    ["#", "LOCKS", "BLOCKS", "HOLDS", "FINDING"],
    report.statements.flatMap((s) => rowsOf(s)),
    { maxWidth: width },
  );
}
