// plan's text: the header with 16-column labels over the SQL, and our additions,
// the `--statements` table and the `--verify` report (the SQL and JSON rules are commands/shared/plan-view.ts).
import { rowValueTables, type PlanDocument } from "../../plan/document.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import type { PlanRecord } from "../../plan/select.ts";
import { trimSpace } from "../../plan/trim-space.ts";
import type { CheckResult } from "../../plan/verify.ts";
import { formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { formatPrivileges, labelLines, renderPlanSql, sanitizeSqlForTerminal } from "../shared/plan-view.ts";

function planLine(record: PlanRecord, planName: string): string {
  return `${record.selection} (${planName})`;
}

export interface PlanTextOptions {
  /** Adds the `--statements` table between the header and the SQL. */
  readonly statements: boolean;
  /** On a terminal, its width: a long first line of SQL is cut to fit, ending in `…`. */
  readonly width?: number;
  /** `--locks`: the lock table, summary and limit, after the statements table. */
  readonly locks?: string;
}

/** The header fields, in upstream's order. */
export function planHeader(v: VerifiedPlan): string {
  const plan = v.plan.object;
  const spec = plan.spec;
  const c = (s: string | undefined): string => sanitize(s ?? "");
  return labelLines([
    ["Schema", c(`${v.record.namespace}/${v.record.schemaName}`)],
    ["Plan", c(planLine(v.record, plan.metadata.name))],
    ["Fingerprint", c(spec.fingerprint)],
    ["Content digest", c(spec.contentDigest)],
    ["Dialect", c(spec.dialect)],
    ["Statements", String(v.document.statements.length)],
    // The plan's own spec.destructive only; what the SQL reads as destructive is
    // in the --statements table's severities.
    ["Destructive", spec.destructive === true ? "true" : "false"],
    ["Privileges", c(formatPrivileges(spec.privilegeChanges ?? [], v.document.privilegeKindsRead))],
    ["Row values", c(rowValuesLine(v.document))],
    ["Stored", c(formatTimestamp(plan.metadata.creationTimestamp))],
    ["Applied", v.record.selection === "applied" ? c(formatTimestamp(v.record.completedAt)) : ""],
  ]);
}

/** Our addition to the header, only for a declarative-data plan: its SQL holds the rows' values. */
export function rowValuesLine(doc: PlanDocument): string {
  const tables = rowValueTables(doc);
  return tables.length === 0 ? "" : `this plan carries row values (${tables.join(", ")}); reading it is reading that data`;
}

/** `-o text`: the header, a blank line, optionally the statements table, then the SQL. */
export function renderPlanText(v: VerifiedPlan, options: PlanTextOptions): string {
  let out = planHeader(v) + "\n";
  if (options.statements) out += renderStatementsTable(v.document, options.width) + "\n";
  if (options.locks !== undefined) out += options.locks + "\n";
  out += sanitizeSqlForTerminal(renderPlanSql(v.document));
  return out;
}

/** `--statements`: #, SEVERITY, REASON and the first line of each statement's SQL. */
export function renderStatementsTable(doc: PlanDocument, width = 0): string {
  const rows = doc.statements.map((s, i) => {
    const firstLine = trimSpace(s.sql).split("\n")[0] ?? "";
    return [String(i + 1), sanitize(s.severity), sanitize(s.reason) || "<none>", sanitize(trimSpace(firstLine))];
  });
  return renderTable(["#", "SEVERITY", "REASON", "SQL"], rows, { maxWidth: width });
}

export interface VerifyReportInput {
  readonly namespace: string;
  readonly schemaName: string;
  readonly selection: string;
  /** What the verdict calls the plan; default "<selection> plan" ("current plan"). */
  readonly subject?: string;
  readonly checks: readonly CheckResult[];
}

/**
 * `plan --verify`: one row per check, in the order they were made, then a verdict. The SQL is
 * never part of it. On a refusal the same report (ending with the failed check) is printed too, on
 * stdout, and the refusal's one error line on stderr.
 */
export function renderVerifyReport(input: VerifyReportInput): string {
  const rows = input.checks.map((c) => [c.check, c.ok ? "ok" : "FAILED", sanitize(c.detail)]);
  const failed = input.checks.some((c) => !c.ok);
  const where = sanitize(`${input.namespace}/${input.schemaName}`);
  const subject = sanitize(input.subject ?? `${input.selection} plan`);
  const verdict = failed
    ? `The ${subject} of ${where} did not verify; nothing from it was printed.\n`
    : `The ${subject} of ${where} verified: ${input.checks.length} checks held.\n`;
  return renderTable(["CHECK", "RESULT", "DETAIL"], rows) + "\n" + verdict;
}
