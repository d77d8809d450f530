// `kubectl ptah status <schema>`: one schema in detail — Ready first, every condition with
// generation lag flagged, the last spec writer, the current plan, the approval state, the last
// apply, and Next.
import { writerWords } from "../../approval/four-eyes.ts";
import { schemaApprovalRows } from "../../approval/rows.ts";
import { bindsSchema, findCondition, newestUsedApproval } from "../../approval/state.ts";
import type { PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { lastSpecWriter } from "../../model/spec-writer.ts";
import { pinnedBindings, recordCopies } from "../../plan/record-bindings.ts";
import { formatAge, formatTimestamp } from "../../render/age.ts";
import { paint, paintWord } from "../../render/color.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { renderApprovalRows } from "../shared/approval-rows.ts";
import { schemaNextStep } from "../shared/next-step.ts";
import { managerWords, schemaPending, type PendingItem } from "../shared/pending.ts";
import type { SchemaPolicyView } from "../shared/policy-readback.ts";
import { lagLines } from "../shared/status-lag.ts";

/** The pending records, each as its fact and, indented under it, what happens next. */
export function renderPending(items: readonly PendingItem[], indent = "  "): string[] {
  return items.flatMap((i) => [`${indent}${field(i.label, sanitize(i.fact))}`, `${indent}${" ".repeat(15)}next: ${sanitize(i.next)}`]);
}

export interface SchemaDetailInput {
  readonly schema: PtahSchema;
  readonly approvals: readonly PtahSchemaApproval[];
  /** Why the approvals could not be listed (403), shown in the Approval section instead of them. */
  readonly approvalsNotShown?: string | undefined;
  readonly now: Date;
  readonly color: boolean;
  readonly nsFlag: string;
  /** The bound approval policies' word on this schema (commands/shared/policy-readback.ts). */
  readonly policy?: SchemaPolicyView;
}

function field(label: string, value: string): string {
  return `${`${label}:`.padEnd(15)}${value}`;
}

/** Which bindings the record repeats, each of which `plan` and `approve` compare with the plan. */
function pins(copies: ReturnType<typeof recordCopies>): string {
  const names = pinnedBindings(copies);
  return names.length > 0 ? names.join(", ") : "none repeated in the record (an older operator); the plan's fingerprint still binds them";
}

function when(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return "-";
  return `${formatTimestamp(timestamp)} (${formatAge(timestamp, now)} ago)`;
}

export function renderSchemaDetail(input: SchemaDetailInput): string {
  const { schema, now, color } = input;
  const s = schema.status;
  const generation = schema.metadata.generation;
  const out: string[] = [];
  out.push(field("Name", `${sanitize(schema.metadata.namespace ?? "")}/${sanitize(schema.metadata.name)}`));
  out.push(field("Phase", s.phase ? paintWord(s.phase, color) : "-"));
  const ready = findCondition(s.conditions, "Ready");
  out.push(
    field(
      "Ready",
      ready
        ? `${paintWord(ready.status, color)}${ready.reason ? ` (${sanitize(ready.reason)})` : ""}${ready.message ? ` ${sanitize(ready.message)}` : ""}`
        : "- (no Ready condition yet)",
    ),
  );
  for (const line of lagLines("PtahSchema", schema, now)) out.push(field("Newer", line));
  out.push(field("Desired", sanitize(schema.spec.desired?.ociRef ?? "-")));
  out.push(field("Resolved", sanitize(s.source?.digest ?? "-")));
  out.push(field("Suspended", schema.spec.suspend ? "true" : "false"));
  // Four-eyes: who created the schema or last changed its spec, as admission recorded it.
  const writer = lastSpecWriter(schema.metadata);
  out.push(`Last spec writer: ${writer ? writerWords(writer) : "none recorded"}`);
  if (s.observedGeneration !== undefined && generation !== undefined && s.observedGeneration < generation) {
    out.push(field("Observed", `generation ${s.observedGeneration} of ${generation}: the operator has not caught up with the latest spec`));
  }
  out.push("");

  out.push("Conditions:");
  if (s.conditions.length === 0) out.push("  none yet");
  else {
    const ordered = [...s.conditions].sort((a, b) => (a.type === "Ready" ? -1 : b.type === "Ready" ? 1 : 0));
    const rows = ordered.map((c) => {
      const lag = c.observedGeneration !== undefined && generation !== undefined && c.observedGeneration < generation;
      return [sanitize(c.type) + (lag ? "*" : ""), paintWord(c.status, color), sanitize(c.reason ?? "-"), formatAge(c.lastTransitionTime, now), sanitize(c.message ?? "")];
    });
    out.push(renderTable(["TYPE", "STATUS", "REASON", "AGE", "MESSAGE"], rows, { indent: "  " }).trimEnd());
    if (ordered.some((c) => c.observedGeneration !== undefined && generation !== undefined && c.observedGeneration < generation)) {
      out.push(`  * observed at an older generation than ${generation}: not yet re-evaluated for the latest spec`);
    }
  }
  out.push("");

  const plan = s.plan;
  out.push("Current plan:");
  if (!plan?.name) out.push("  none published");
  else {
    out.push(`  ${field("Name", sanitize(plan.name))}`);
    out.push(`  ${field("Fingerprint", sanitize(plan.fingerprint ?? "-"))}`);
    out.push(`  ${field("Statements", plan.statementCount !== undefined ? String(plan.statementCount) : "-")}`);
    out.push(`  ${field("Destructive", plan.destructive ? paint("red", "true", color) : "false")}`);
    out.push(`  ${field("Privileges", plan.privilegeChanges && plan.privilegeChanges.length > 0 ? plan.privilegeChanges.map(sanitize).join(", ") : "none")}`);
    out.push(`  ${field("Pins", pins(recordCopies("current", plan)))}`);
    out.push(`  ${field("Created", when(plan.createdAt, now))}`);
  }
  out.push("");

  out.push("Approval:");
  const recorded = plan?.approval;
  if (recorded?.name) {
    out.push(`  Recorded:      ${sanitize(recorded.name)} by ${sanitize(recorded.approver?.username ?? "<unknown>")} at ${formatTimestamp(recorded.approvedAt) || "-"}`);
  } else if (findCondition(s.conditions, "ApprovalRequired")?.status === "True") {
    out.push(`  Recorded:      none; waiting for an approval bound to ${sanitize(plan?.fingerprint ?? "the current plan")}`);
  } else {
    out.push("  Recorded:      none");
  }
  const binding = input.approvals.filter((a) => bindsSchema(a, schema));
  if (input.approvalsNotShown !== undefined) out.push(`  Approvals:     not shown: ${sanitize(input.approvalsNotShown)}`);
  if (binding.length > 0) {
    const rows = schemaApprovalRows(binding, [schema]);
    out.push(renderApprovalRows(rows, { now, color, nameHeader: "APPROVAL", indent: "  " }).trimEnd());
  }
  const policy = input.policy;
  if (policy?.endorsed !== undefined) out.push(`  ${field("Endorsed", policy.endorsed === "-" ? "not needed: the policy finds the current plan not risky" : policy.endorsed)}`);
  if (policy?.window !== undefined) out.push(`  ${field("Window", policy.window)}`);
  if (policy?.unread !== undefined) out.push(`  ${field("Policies", `not read: ${sanitize(policy.unread)}`)}`);
  out.push("");

  const applied = s.applied;
  out.push("Last applied:");
  if (!applied?.planFingerprint && !applied?.completedAt) out.push("  never");
  else {
    out.push(`  ${field("Plan", sanitize(applied.planRef?.name ?? "-"))}`);
    out.push(`  ${field("Fingerprint", sanitize(applied.planFingerprint ?? "-"))}`);
    out.push(`  ${field("Pins", pins(recordCopies("applied", applied)))}`);
    const by = managerWords(applied.dispatchedBy);
    if (by) out.push(`  ${field("Dispatched by", sanitize(by))}`);
    out.push(`  ${field("Completed", when(applied.completedAt, now))}`);
  }
  out.push("");
  const pending = schemaPending(schema, now);
  if (pending.length > 0) out.push("Pending:", ...renderPending(pending), "");
  out.push(`Next: ${schemaNextStep(schema, input.nsFlag, newestUsedApproval(schema, input.approvals))}`);
  return out.join("\n") + "\n";
}
