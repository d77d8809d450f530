// The ledger's views: a table (absolute RFC 3339 times, or ages with --relative), CSV with one
// column per field, and the entries themselves for -o json|yaml.
import type { LedgerEntry } from "../../approval/ledger.ts";
import { formatCsv } from "../../render/csv.ts";
import { formatAge, formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { approvalStateCell } from "./approval-rows.ts";

export interface LedgerRenderOptions {
  readonly now: Date;
  readonly relative: boolean;
  readonly color: boolean;
  readonly noHeaders: boolean;
  readonly allNamespaces: boolean;
  /** A fleet's ledger (--contexts): each entry's context, in a CONTEXT column first. */
  readonly contexts?: readonly string[];
}

const KIND_WORD: Readonly<Record<LedgerEntry["kind"], string>> = {
  PtahSchemaApproval: "ptahschemaapproval",
  PtahMigrationApproval: "ptahmigrationapproval",
  PtahMigrationRunAcknowledgment: "ptahmigrationrunacknowledgment",
};

/** "sha256:" and the first 12 hex digits: enough to tell plans apart on screen. */
export function shortFingerprint(fingerprint: string): string {
  const m = /^(sha256:[0-9a-f]{12})[0-9a-f]*$/u.exec(fingerprint);
  return m ? m[1]! : fingerprint;
}

/** `name@sha256:` and 12 hex digits, as shortFingerprint shortens a fingerprint. */
export function shortImage(image: string | undefined): string {
  const m = /^([^@\s]+@sha256:[0-9a-f]{12})[0-9a-f]*$/u.exec(image ?? "");
  return m ? m[1]! : (image ?? "");
}

/** The DISPATCHED BY cell: the manager's revision and image, then its runner image. */
export function dispatchedByCell(d: LedgerEntry["dispatchedBy"], jobUID?: string): string {
  const job = jobUID ? `, job ${jobUID}` : "";
  if (!d) return job ? `?${job}` : "-";
  return `${d.controllerRevision || "?"} ${shortImage(d.controllerImage) || "?"}, runner ${shortImage(d.runnerImage) || "?"}${job}`;
}

function owner(e: LedgerEntry): string {
  return e.ownerKind === "PtahMigration" ? `migration/${e.owner}` : e.owner;
}

export function renderLedgerTable(entries: readonly LedgerEntry[], o: LedgerRenderOptions): string {
  const when = (t: string | undefined): string => (t ? (o.relative ? formatAge(t, o.now) : formatTimestamp(t)) : "-");
  const mixed = new Set(entries.map((e) => e.kind)).size > 1;
  const endorsed = entries.some((e) => e.endorsers !== undefined);
  const outside = entries.some((e) => e.consumedOutsideWindow === true);
  const headers = [
    ...(o.contexts ? ["CONTEXT"] : []),
    ...(o.allNamespaces ? ["NAMESPACE"] : []),
    "APPROVAL",
    "OBJECT",
    "PLAN",
    "FINGERPRINT",
    "APPROVER",
    "GROUPS",
    "APPROVED",
    "RESERVED",
    "CONSUMED",
    "APPLIED",
    "DISPATCHED BY",
    "STALE",
    "STATE",
    // Only where the approval policies speak of an entry: who endorsed, and a consumption while closed.
    ...(endorsed ? ["ENDORSERS"] : []),
    ...(outside ? ["POLICY"] : []),
  ];
  const rows = entries.map((e, i) => [
    ...(o.contexts ? [sanitize(o.contexts[i] ?? "")] : []),
    ...(o.allNamespaces ? [sanitize(e.namespace)] : []),
    (mixed ? `${KIND_WORD[e.kind]}/` : "") + sanitize(e.name),
    sanitize(owner(e)),
    sanitize(e.plan || "-"),
    sanitize(shortFingerprint(e.fingerprint) || "-"),
    sanitize(e.approver || "-"),
    sanitize(e.groups.join(",") || "-"),
    when(e.approvedAt),
    e.reserved ? "yes" : "-",
    when(e.consumedAt),
    when(e.appliedAt),
    sanitize(dispatchedByCell(e.dispatchedBy, e.jobUID)),
    e.staleReason !== undefined ? `${sanitize(e.staleReason || "Stale")} ${when(e.staleAt)}` : "-",
    approvalStateCell(e, o.color),
    ...(endorsed ? [sanitize(e.endorsers?.join(",") || "-")] : []),
    ...(outside ? [e.consumedOutsideWindow ? "consumed outside the window" : "-"] : []),
  ]);
  return renderTable(headers, rows, { noHeaders: o.noHeaders });
}

const CSV_HEADERS = [
  "namespace",
  "kind",
  "name",
  "object",
  "plan",
  "fingerprint",
  "approver",
  "groups",
  "approvedAt",
  "reserved",
  "consumedAt",
  "appliedAt",
  "dispatchedByControllerImage",
  "dispatchedByControllerRevision",
  "dispatchedByRunnerImage",
  "staleReason",
  "staleAt",
  "state",
  "jobUID",
  "resolution",
  "endorsers",
  "consumedOutsideWindow",
];

/** CSV keeps full fingerprints and absolute times: it is a record, not a screen. A fleet's (contexts) gains a context column first. */
export function renderLedgerCsv(entries: readonly LedgerEntry[], contexts?: readonly string[]): string {
  const t = (s: string | undefined): string => (s ? formatTimestamp(s) : "");
  return formatCsv(
    contexts ? ["context", ...CSV_HEADERS] : CSV_HEADERS,
    entries.map((e, i) => [
      ...(contexts ? [contexts[i] ?? ""] : []),
      e.namespace,
      e.kind,
      e.name,
      owner(e),
      e.plan,
      e.fingerprint,
      e.approver,
      e.groups.join(";"),
      t(e.approvedAt),
      e.reserved ? "true" : "false",
      t(e.consumedAt),
      t(e.appliedAt),
      e.dispatchedBy?.controllerImage ?? "",
      e.dispatchedBy?.controllerRevision ?? "",
      e.dispatchedBy?.runnerImage ?? "",
      e.staleReason ?? "",
      t(e.staleAt),
      approvalStateCell(e, false),
      e.jobUID ?? "",
      e.resolution ?? "",
      (e.endorsers ?? []).join(";"),
      e.consumedOutsideWindow ? "true" : "",
    ]),
  );
}

/** -o json|yaml: the entries as data, in a kubectl-style List (they are not Kubernetes objects); a fleet's carry their context first. */
export function ledgerDocument(entries: readonly LedgerEntry[], contexts?: readonly string[]): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "List",
    items: entries.map((e, i) => ({
      ...(contexts ? { context: contexts[i] ?? "" } : {}),
      ...e,
      groups: [...e.groups],
      ...(e.dispatchedBy ? { dispatchedBy: { ...e.dispatchedBy } } : {}),
    })),
  };
}
