// `plan --locks -o json|yaml`: the fields of the lock table (shared/lock-table.ts) as an object.
// Built from a verified plan only (the caller verified it first, as for every plan output).
import type { LockReport } from "../../locks/index.ts";
import { rowValuesField } from "../../plan/document.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import { LOCK_LIMIT } from "../shared/lock-impact.ts";

/** -o json|yaml with --locks: which plan, then the report's fields, then the limit. */
export function lockObject(v: VerifiedPlan, report: LockReport): Record<string, unknown> {
  return {
    schema: `${v.record.namespace}/${v.record.schemaName}`,
    plan: v.plan.object.metadata.name,
    fingerprint: v.fingerprint,
    ...rowValuesField(v.document),
    dialect: report.dialect,
    analysed: report.analysed,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    statements: report.statements.map((s) => ({
      number: s.index + 1,
      locks: s.locks,
      blocks: s.blocks,
      holds: s.holds,
      findings: s.findings,
      ...(s.notAnalysed !== undefined ? { notAnalysed: s.notAnalysed } : {}),
    })),
    transaction: report.transaction,
    findings: report.findings,
    notAnalysed: report.notAnalysed,
    limit: LOCK_LIMIT,
  };
}
