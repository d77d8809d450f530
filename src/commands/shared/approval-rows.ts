// The approval rows every view prints the same way: `approvals` (one table per kind), the
// Approval section of `status SCHEMA`, and the STATE of `ledger`. Rows come from
// approval/rows.ts; this file decides their columns and cells, once.
import type { ApprovalRow } from "../../approval/rows.ts";
import type { DerivedApprovalState } from "../../approval/state.ts";
import { formatAge } from "../../render/age.ts";
import { paintWord } from "../../render/color.ts";
import { labelCells, labelHeaders } from "../../render/columns.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";

/** The STATE cell: the derived state, with ", stale" when a consumed approval's plan moved on. */
export function approvalStateCell(d: Pick<DerivedApprovalState, "state" | "alsoStale">, color: boolean): string {
  return paintWord(d.state, color) + (d.state === "Consumed" && d.alsoStale ? ", stale" : "");
}

export interface ApprovalRowsOptions {
  readonly now: Date;
  readonly color: boolean;
  /** "NAME" in `approvals`, "APPROVAL" inside a schema's detail. */
  readonly nameHeader: "NAME" | "APPROVAL";
  /** The owner column (SCHEMA or MIGRATION); none where the owner is the page's subject. */
  readonly ownerHeader?: "SCHEMA" | "MIGRATION";
  /** A NAMESPACE column first (-A). */
  readonly namespaces?: boolean;
  /** `kind/` before each name when several kinds print. */
  readonly prefix?: string;
  /** -L and --show-labels. */
  readonly labels?: { readonly columns: readonly string[]; readonly show: boolean };
  readonly noHeaders?: boolean;
  readonly indent?: string;
}

export function renderApprovalRows(rows: readonly ApprovalRow<unknown, unknown>[], o: ApprovalRowsOptions): string {
  const labels = o.labels ?? { columns: [], show: false };
  const headers = [
    ...(o.namespaces ? ["NAMESPACE"] : []),
    o.nameHeader,
    ...(o.ownerHeader ? [o.ownerHeader] : []),
    "PLAN",
    "APPROVER",
    "STATE",
    "REASON",
    "AGE",
    ...labelHeaders(labels.columns, labels.show),
  ];
  const body = rows.map((r) => [
    ...(o.namespaces ? [sanitize(r.namespace)] : []),
    (o.prefix ?? "") + sanitize(r.name),
    ...(o.ownerHeader ? [sanitize(r.owner)] : []),
    sanitize(r.plan),
    sanitize(r.approver),
    approvalStateCell(r.state, o.color),
    sanitize(r.state.reason || "-"),
    formatAge(r.created, o.now),
    ...labelCells(r.labels, labels.columns, labels.show),
  ]);
  return renderTable(headers, body, { noHeaders: o.noHeaders, ...(o.indent !== undefined ? { indent: o.indent } : {}) });
}
