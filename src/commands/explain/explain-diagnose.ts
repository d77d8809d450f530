// Live diagnosis (`explain <schema>`, `explain approval <name>`, `explain migration <name>`):
// from the object and what it references, a few lines saying why it is in its state and what
// to do, each citing a knowledge-base topic.
import { runAuditLines } from "../shared/run-audit.ts";
import { bindsSchema, deriveMigrationApprovalState, deriveSchemaApprovalState, findCondition, newestUsedApproval } from "../../approval/state.ts";
import { fillPlaceholders, phaseWordAsReason, topicForPhase, topicForReason, type KnowledgeEntry } from "../../explain/knowledge.ts";
import type { KubeEvent, PtahMigration, PtahMigrationApproval, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import type { Condition } from "../../model/meta.ts";
import { formatAge } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { migrationNextStep, schemaNextStep } from "../shared/next-step.ts";
import { migrationPending, schemaPending } from "../shared/pending.ts";
import { approvalInUse, lagLines, lagsThePhase, type LagKind } from "../shared/status-lag.ts";

function condWords(c: Condition | undefined): string {
  if (!c) return "-";
  return `${sanitize(c.type)}=${sanitize(c.status)}${c.reason ? ` ${sanitize(c.reason)}` : ""}`;
}

function see(entries: readonly (KnowledgeEntry | undefined)[]): string {
  const titles = [...new Set(entries.filter((e): e is KnowledgeEntry => e !== undefined).map((e) => e.title))];
  return titles.length > 0 ? `See also:   ${titles.map((t) => `kubectl ptah explain ${t}`).join(", ")}` : "";
}

/**
 * The condition that holds a schema or migration: Ready when False, else the first False/Unknown
 * gate; a condition the phase has overtaken holds nothing.
 */
function holdingCondition(all: readonly Condition[], kind: LagKind, o: PtahSchema | PtahMigration): Condition | undefined {
  const conditions = all.filter((c) => !lagsThePhase(kind, o, c));
  const ready = findCondition(conditions, "Ready");
  if (ready && ready.status !== "True") return ready;
  return conditions.find(
    (c) =>
      c.status !== "True" &&
      ["Blocked", "ApprovalRequired"].includes(c.type) === false &&
      c.type !== "Suspended" &&
      c.type !== "InSync" &&
      c.type !== "DriftDetected" &&
      c.type !== "Applying" &&
      c.type !== "ReconciliationFailed" &&
      c.type !== "Progressing",
  );
}

/** A reason that is a phase word (Ready=False Observing) is told as the phase: an operation is running. */
function phaseReasonLine(kind: "PtahSchema" | "PtahMigration", reason: string | undefined): string[] {
  const phase = reason ? phaseWordAsReason(kind, reason) : undefined;
  return phase ? [`Reason:     ${phase.title} is a phase word, not a condition reason: an operation is running (phase ${phase.title}: ${phase.summary}).`] : [];
}

/** While the operator uses an approval there is nothing to approve, whatever a condition still asks. */
function inUseToDo(kind: LagKind, o: PtahSchema | PtahMigration): string | undefined {
  const name = approvalInUse(kind, o);
  return name ? `Nothing to approve: approval ${sanitize(name)} is in use.` : undefined;
}

export interface SchemaDiagnosisInput {
  readonly schema: PtahSchema;
  readonly approvals: readonly PtahSchemaApproval[];
  readonly now: Date;
  readonly nsFlag: string;
}

export function diagnoseSchema(i: SchemaDiagnosisInput): string {
  const s = i.schema.status;
  const name = `${sanitize(i.schema.metadata.namespace ?? "")}/${sanitize(i.schema.metadata.name)}`;
  const phase = s.phase ?? "unknown";
  const hold = holdingCondition(s.conditions, "PtahSchema", i.schema);
  const reasonTopic = hold?.reason ? topicForReason(hold.reason) : undefined;
  const phaseTopic = topicForPhase("PtahSchema", phase);
  const out: string[] = [`ptahschema ${name} is ${sanitize(phase)}${hold ? `, held by ${condWords(hold)}` : ""}.`];
  if (hold?.message) out.push(`Operator:   ${sanitize(hold.message)}`);
  out.push(...phaseReasonLine("PtahSchema", hold?.reason));
  out.push(...lagLines("PtahSchema", i.schema, i.now).map((l) => `Newer:      ${l}`));
  const topic = reasonTopic ?? phaseTopic;
  if (topic) out.push(`Means:      ${topic.summary}`, `Why:        ${topic.why}`);
  const generation = i.schema.metadata.generation;
  if (hold?.observedGeneration !== undefined && generation !== undefined && hold.observedGeneration < generation) {
    out.push(`Note:       this condition was observed at generation ${hold.observedGeneration}; the spec is at ${generation}, so the operator has not re-evaluated it yet.`);
  }
  const plan = s.plan;
  if (plan?.name) {
    out.push(
      `Plan:       ${sanitize(plan.name)} (${sanitize(plan.fingerprint ?? "no fingerprint")}), ${plan.statementCount ?? "?"} statement${plan.statementCount === 1 ? "" : "s"}${plan.destructive ? ", DESTRUCTIVE" : ""}`,
    );
    if (plan.approval?.name) out.push(`Approval:   ${sanitize(plan.approval.name)} is reserved for it (approved by ${sanitize(plan.approval.approver?.username ?? "unknown")})`);
  }
  const binding = i.approvals.filter((a) => bindsSchema(a, i.schema));
  for (const a of binding) {
    const d = deriveSchemaApprovalState(a, i.schema);
    const names = a.spec.planRef?.name === plan?.name ? "the current plan" : `${sanitize(a.spec.planRef?.name ?? "?")}, not the current plan`;
    out.push(
      `Approval:   ${sanitize(a.metadata.name)} is ${d.state}${d.alsoStale && d.state === "Consumed" ? " and stale" : ""}${d.reason ? ` (${sanitize(d.reason)})` : ""}; it names ${names}`,
    );
  }
  for (const p of schemaPending(i.schema, i.now)) out.push(`Pending:    ${sanitize(p.field)}: ${sanitize(p.fact)}.`, `            Next: ${sanitize(p.next)}`);
  const userAction = inUseToDo("PtahSchema", i.schema) ?? reasonTopic?.userAction ?? phaseTopic?.userAction;
  if (userAction) out.push(`To do:      ${userAction}`);
  out.push(`Next:       ${schemaNextStep(i.schema, i.nsFlag, newestUsedApproval(i.schema, i.approvals), "explain")}`);
  const also = see([reasonTopic, phaseTopic]);
  if (also) out.push(also);
  return out.join("\n") + "\n";
}

export interface ApprovalDiagnosisInput {
  readonly approval: PtahSchemaApproval;
  readonly schema: PtahSchema | undefined;
  readonly events: readonly KubeEvent[];
  readonly now: Date;
  readonly nsFlag: string;
}

export function diagnoseSchemaApproval(i: ApprovalDiagnosisInput): string {
  const a = i.approval;
  const ns = sanitize(a.metadata.namespace ?? "");
  const schemaName = a.spec.schemaRef?.name ?? "";
  const schema = i.schema && bindsSchema(a, i.schema) ? i.schema : undefined;
  const d = deriveSchemaApprovalState(a, schema);
  const consumed = findCondition(a.status.conditions, "Consumed");
  const stale = findCondition(a.status.conditions, "Stale");
  const head =
    d.state === "Consumed" && d.alsoStale
      ? `is Stale (${sanitize(stale?.reason ?? "")}) after it was Consumed (${sanitize(consumed?.reason ?? "")})`
      : `is ${d.state}${d.reason ? ` (${sanitize(d.reason)})` : ""}`;
  const out: string[] = [`ptahschemaapproval ${ns}/${sanitize(a.metadata.name)} ${head}.`, ""];
  const current = schema?.status.plan;
  out.push(
    renderTable(
      ["", "THE APPROVAL NAMES", "THE SCHEMA'S CURRENT PLAN"],
      [
        [
          "schema",
          `${sanitize(schemaName)} (${sanitize(a.spec.schemaRef?.uid ?? "-")})`,
          schema ? `${sanitize(schema.metadata.name)} (${sanitize(schema.metadata.uid ?? "-")})` : i.schema ? "a different object (UID differs)" : "not found",
        ],
        ["plan", sanitize(a.spec.planRef?.name ?? "-"), sanitize(current?.name ?? "none")],
        ["fingerprint", sanitize(a.spec.planFingerprint ?? "-"), sanitize(current?.fingerprint ?? "-")],
      ],
      { indent: "  " },
    ).trimEnd(),
    "",
  );
  if (consumed?.status === "True")
    out.push(`Consumed:   ${formatAge(consumed.lastTransitionTime, i.now)} ago (${sanitize(consumed.reason ?? "")}): ${sanitize(consumed.message ?? "")}`);
  if (stale?.status === "True") out.push(`Stale:      ${formatAge(stale.lastTransitionTime, i.now)} ago (${sanitize(stale.reason ?? "")}): ${sanitize(stale.message ?? "")}`);
  for (const e of i.events) {
    if (e.involvedObject?.uid && a.metadata.uid && e.involvedObject.uid !== a.metadata.uid) continue;
    if (!e.involvedObject?.uid && e.involvedObject?.name !== a.metadata.name) continue;
    out.push(
      `Event:      ${sanitize(e.type ?? "Normal")} ${sanitize(e.reason ?? "")} ${formatAge(e.lastTimestamp ?? e.firstTimestamp ?? e.eventTime, i.now)} ago: ${sanitize(e.message ?? "")}`,
    );
  }
  const schemaFlag = `${sanitize(schemaName)}${i.nsFlag}`;
  switch (d.state) {
    case "Consumed":
    case "Stale":
    case "Superseded": {
      const topic = topicForReason(d.alsoStale ? (stale?.reason ?? d.reason) : d.reason);
      if (topic) out.push(`Means:      ${topic.summary}`, `Why:        ${topic.why}`);
      out.push(
        d.state === "Superseded"
          ? "To do:      nothing: another approval for the same plan counts."
          : `To do:      an approval authorises one exact plan, once. ${current?.name ? "Create a new approval for the current plan:" : "When a new plan waits, approve that one."}`,
      );
      if (current?.name && d.state !== "Superseded")
        out.push(`              kubectl ptah plan ${schemaFlag}`, `              kubectl ptah approve ${schemaFlag} | kubectl create -f -`);
      if (topic) out.push(`See also:   kubectl ptah explain ${topic.title}`);
      // What changed between the plan it approved and the plan that waits now.
      if (current?.name && d.state !== "Superseded" && a.spec.planRef?.name !== current.name) {
        out.push(`What moved: kubectl ptah diff ${schemaFlag} --from approval ${sanitize(a.metadata.name)}`);
      }
      break;
    }
    case "Reserved":
      out.push("Means:      the operator reserved it for the current plan (status.plan.approval); it is consumed when the Apply is dispatched.");
      out.push(`Next:       kubectl ptah wait ${schemaFlag} --for=approval=consumed`);
      break;
    case "Pending":
      out.push(
        current?.name && a.spec.planRef?.name !== current.name
          ? "Means:      it names a plan that is no longer current, so it can never be reserved; the operator will mark it stale."
          : "Means:      admitted, not yet reserved by the operator (a freshly accepted approval has no conditions yet).",
      );
      out.push(`Next:       kubectl ptah status ${schemaFlag}`);
      break;
  }
  return out.join("\n") + "\n";
}

export interface MigrationDiagnosisInput {
  readonly migration: PtahMigration;
  readonly approvals: readonly PtahMigrationApproval[];
  readonly now: Date;
  readonly nsFlag: string;
}

export function diagnoseMigration(i: MigrationDiagnosisInput): string {
  const m = i.migration;
  const s = m.status;
  const phase = s.phase ?? "unknown";
  const blocked = findCondition(s.conditions, "Blocked");
  const hold = blocked?.status === "True" ? blocked : holdingCondition(s.conditions, "PtahMigration", m);
  const reasonTopic = hold?.reason ? topicForReason(hold.reason) : undefined;
  const phaseTopic = topicForPhase("PtahMigration", phase);
  const out: string[] = [`ptahmigration ${sanitize(m.metadata.namespace ?? "")}/${sanitize(m.metadata.name)} is ${sanitize(phase)}${hold ? `, held by ${condWords(hold)}` : ""}.`];
  if (hold?.message) out.push(`Operator:   ${sanitize(hold.message)}`);
  out.push(...phaseReasonLine("PtahMigration", hold?.reason));
  out.push(...lagLines("PtahMigration", m, i.now).map((l) => `Newer:      ${l}`));
  const topic = reasonTopic ?? phaseTopic;
  if (topic) out.push(`Means:      ${topic.summary}`, `Why:        ${topic.why}`);
  const run = s.unresolvedRun;
  if (run?.operationID) {
    out.push(
      `Run:        a ${sanitize(run.outcome ?? "")} run (operation ${sanitize(run.operationID)}) recorded ${formatAge(run.recordedAt, i.now)} ago is unresolved; nothing is planned or run until it is settled.`,
    );
  }
  out.push(...runAuditLines(m));
  for (const a of i.approvals.filter((x) => x.spec.migrationRef?.name === m.metadata.name)) {
    const d = deriveMigrationApprovalState(a, m);
    out.push(`Approval:   ${sanitize(a.metadata.name)} is ${d.state}${d.reason ? ` (${sanitize(d.reason)})` : ""}`);
  }
  for (const p of migrationPending(m)) out.push(`Pending:    ${sanitize(p.field)}: ${sanitize(p.fact)}.`, `            Next: ${sanitize(p.next)}`);
  const userAction = inUseToDo("PtahMigration", m) ?? reasonTopic?.userAction ?? phaseTopic?.userAction;
  if (userAction) out.push(`To do:      ${fillPlaceholders(userAction, { migration: m.metadata.name })}`);
  out.push(`Next:       ${migrationNextStep(m, i.nsFlag, "explain")}`);
  const also = see([reasonTopic, phaseTopic]);
  if (also) out.push(also);
  return out.join("\n") + "\n";
}
