// Upstream's `kubectl ptah schema` view (go-client §1.5): labels padded to 18 columns,
// drift summary, reference-data line, True/Ready conditions, applied record, plan block.
import type { PtahSchema } from "../model/kinds.ts";
import { formatTimestamp } from "../render/age.ts";
import { formatJson } from "../render/formats.ts";
import { sanitize } from "../render/sanitize.ts";

export interface SchemaView {
  namespace: string;
  schema: string;
  phase?: string;
  suspended?: boolean;
  source?: { reference?: string; digest?: string; verified?: boolean };
  observation?: {
    observedAt?: string;
    drift: boolean;
    highestSeverity?: string;
    findingCount?: number;
    findingsTruncated?: boolean;
    findings?: { category: string; count: number; severity: string }[];
    referenceData?: { inserts: number; updates: number; deletes: number };
  };
  plan?: {
    name: string;
    fingerprint?: string;
    statementCount?: number;
    destructive?: boolean;
    privilegeChanges?: string[];
    createdAt?: string;
    approved: boolean;
    approvedAt?: string;
    approvalName?: string;
    approvalApprover?: string;
  };
  applied?: { planName?: string; planFingerprint?: string; ptahVersion?: string; completedAt?: string };
  conditions: { type: string; status: string; reason?: string; message?: string }[];
}

function prune<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export function buildSchemaView(schema: PtahSchema): SchemaView {
  const s = schema.status;
  const view: SchemaView = {
    namespace: schema.metadata.namespace ?? "",
    schema: schema.metadata.name,
    conditions: s.conditions.map((c) => prune({ type: c.type, status: c.status, reason: c.reason, message: c.message })),
  };
  if (s.phase) view.phase = s.phase;
  if (schema.spec.suspend) view.suspended = true;
  if (s.source?.resolvedReference || s.source?.digest || s.source?.verified) {
    view.source = prune({ reference: s.source.resolvedReference, digest: s.source.digest, verified: s.source.verified || undefined });
  }
  const t = s.target;
  const findings = t?.driftFindings ?? [];
  if (t?.lastObservedAt || findings.length > 0) {
    const rows = new Map(findings.map((f) => [f.category, f.count ?? 0]));
    const hasRows = ["data_rows_inserted", "data_rows_updated", "data_rows_deleted"].some((c) => rows.has(c));
    view.observation = prune({
      observedAt: t?.lastObservedAt,
      drift: Boolean(t?.highestDriftSeverity),
      highestSeverity: t?.highestDriftSeverity || undefined,
      findingCount: t?.driftFindingCount || undefined,
      findingsTruncated: t?.driftFindingsTruncated || undefined,
      findings: findings.length > 0 ? [...findings].sort((a, b) => a.category.localeCompare(b.category)).map((f) => ({ category: f.category, count: f.count ?? 0, severity: f.severity ?? "" })) : undefined,
      referenceData: hasRows
        ? { inserts: rows.get("data_rows_inserted") ?? 0, updates: rows.get("data_rows_updated") ?? 0, deletes: rows.get("data_rows_deleted") ?? 0 }
        : undefined,
    });
  }
  const p = s.plan;
  if (p?.name) {
    view.plan = prune({
      name: p.name,
      fingerprint: p.fingerprint,
      statementCount: p.statementCount,
      destructive: p.destructive || undefined,
      privilegeChanges: p.privilegeChanges && p.privilegeChanges.length > 0 ? p.privilegeChanges : undefined,
      createdAt: p.createdAt,
      approved: Boolean(p.approval?.name),
      approvedAt: p.approval?.approvedAt,
      approvalName: p.approval?.name,
      approvalApprover: p.approval?.approver?.username,
    });
  }
  const a = s.applied;
  if (a && (a.planFingerprint || a.completedAt || a.planRef?.name)) {
    view.applied = prune({ planName: a.planRef?.name, planFingerprint: a.planFingerprint, ptahVersion: a.ptahVersion, completedAt: a.completedAt });
  }
  return view;
}

const line = (label: string, value: string): string => `${`${label}:`.padEnd(18)}${sanitize(value)}`;

export function renderSchemaViewText(v: SchemaView): string {
  const out: string[] = [line("Schema", `${v.namespace}/${v.schema}`)];
  if (v.phase) out.push(line("Phase", v.phase));
  if (v.suspended) out.push(line("Suspended", "true"));
  if (v.source?.reference) out.push(line("Artifact", v.source.reference));
  if (v.source?.verified) out.push(line("Verified", "true"));
  const o = v.observation;
  if (!o) out.push(line("Observed", "not yet"));
  else {
    if (o.observedAt) out.push(line("Observed", formatTimestamp(o.observedAt)));
    if (!o.drift) out.push(line("Drift", "none"));
    else {
      const categories = o.findings?.length ?? 0;
      out.push(line("Drift", `${o.findingCount ?? 0} in ${categories} categories, highest ${o.highestSeverity ?? ""}`));
    }
    if (o.referenceData) {
      const r = o.referenceData;
      out.push(line("Reference data", `${r.inserts} to insert, ${r.updates} to update, ${r.deletes} to delete`));
    }
    if (o.findingsTruncated) out.push(line("Findings", "truncated; the count above covers the whole report"));
    for (const f of o.findings ?? []) out.push(`  ${sanitize(f.category).padEnd(34)}${String(f.count).padStart(6)}  ${sanitize(f.severity)}`);
  }
  for (const c of v.conditions) {
    if (c.status === "True" || c.type === "Ready") out.push(`${sanitize(c.type)}: ${sanitize(c.status)} (${sanitize(c.reason ?? "")})`);
  }
  if (v.applied) out.push(line("Applied", `${v.applied.planName ?? v.applied.planFingerprint ?? ""} at ${formatTimestamp(v.applied.completedAt)}`));
  out.push("");
  if (!v.plan) out.push("No plan is published.");
  else {
    const n = v.plan.statementCount ?? 0;
    out.push(`Plan ${sanitize(v.plan.name)}, ${n} statement${n === 1 ? "" : "s"}, stored ${formatTimestamp(v.plan.createdAt)}`);
    if (v.plan.destructive) out.push("  destructive");
    out.push(
      v.plan.approved
        ? `  approved by ${sanitize(v.plan.approvalName ?? "")} at ${formatTimestamp(v.plan.approvedAt)} by ${sanitize(v.plan.approvalApprover ?? "")}`
        : "  not approved",
    );
    out.push("", "kubectl ptah plan prints the SQL this plan holds.");
  }
  return out.join("\n") + "\n";
}

export function renderSchemaViewJson(v: SchemaView): string {
  return formatJson(v, 2);
}
