// `schema`'s text and -o json from the view model of commands/schema/schema-view.ts.
import { formatTimestamp } from "../../render/age.ts";
import { formatGoJson } from "../../render/formats.ts";
import { sanitize } from "../../errors.ts";
import type { SchemaView } from "./schema-view.ts";

const line = (label: string, value: string): string => `${`${sanitize(label)}:`.padEnd(18)}${sanitize(value)}`;

/**
 * Upstream's text layout: every line of the head, condition lines included, is a
 * label padded to 18 (a label of 18 or more gets no space); a finding line is the category padded
 * to 34, one space, the count right-aligned in 6, two spaces, the severity.
 */
export function renderSchemaViewText(v: SchemaView): string {
  const out: string[] = [line("Schema", `${v.namespace}/${v.schema}`)];
  if (v.phase) out.push(line("Phase", v.phase));
  if (v.suspended) out.push(line("Suspended", "true"));
  if (v.source?.reference) out.push(line("Artifact", v.source.reference));
  if (v.source?.verified) out.push(line("Verified", "true"));
  const o = v.observation;
  if (!o) out.push(line("Observed", "not yet"));
  else {
    // An observation (findings) without a time is "unknown", never "not yet".
    out.push(line("Observed", o.observedAt ? formatTimestamp(o.observedAt) : "unknown"));
    if (!o.drift) out.push(line("Drift", "none"));
    else {
      const categories = o.findings?.length ?? 0;
      out.push(line("Drift", `${o.findingCount ?? 0} in ${categories} categories, highest ${o.highestSeverity ?? ""}`));
      if (o.referenceData) {
        const r = o.referenceData;
        out.push(line("Reference data", `${r.inserts} to insert, ${r.updates} to update, ${r.deletes} to delete`));
      }
      if (o.findingsTruncated) out.push(line("Findings", "truncated; the count above covers the whole report"));
      for (const f of o.findings ?? []) out.push(`  ${sanitize(f.category).padEnd(34)} ${String(f.count).padStart(6)}  ${sanitize(f.severity)}`);
    }
  }
  for (const c of v.conditions ?? []) {
    // The parentheses are written even when the reason is empty, as upstream does.
    if (c.status === "True" || c.type === "Ready") out.push(line(c.type, `${c.status} (${c.reason ?? ""})`));
  }
  if (v.applied) out.push(line("Applied", `${v.applied.planName || v.applied.planFingerprint || ""} at ${formatTimestamp(v.applied.completedAt ?? undefined)}`));
  out.push("");
  if (!v.plan) out.push("No plan is published.");
  else {
    const n = v.plan.statementCount ?? 0;
    out.push(`Plan ${sanitize(v.plan.name)}, ${n} statement${n === 1 ? "" : "s"}, stored ${formatTimestamp(v.plan.createdAt ?? undefined)}`);
    if (v.plan.destructive) out.push("  destructive");
    if (!v.plan.approved) out.push("  not approved");
    else {
      const at = v.plan.approvedAt ? ` at ${formatTimestamp(v.plan.approvedAt)}` : "";
      const by = v.plan.approvalApprover ? ` by ${sanitize(v.plan.approvalApprover)}` : "";
      out.push(`  approved by ${sanitize(v.plan.approvalName ?? "")}${at}${by}`);
    }
    out.push("", "kubectl ptah plan prints the SQL this plan holds.");
  }
  return out.join("\n") + "\n";
}

/** Go's encoding/json with a two-space indent and HTML escaping on. */
export function renderSchemaViewJson(v: SchemaView): string {
  return formatGoJson(v);
}
