// Derived approval states: an approval's conditions alone do not
// say whether it is reserved — a freshly accepted approval has no conditions yet, and the
// reservation is recorded on the schema as status.plan.approval.
import { findCondition, isTrue } from "../model/conditions.ts";
import type { PtahMigration, PtahMigrationApproval, PtahMigrationRunAcknowledgment, PtahSchema, PtahSchemaApproval } from "../model/kinds.ts";

// The condition lookups live in model/ (views use them too); approval/ users keep reaching them here.
export { findCondition, isTrue } from "../model/conditions.ts";

export type ApprovalState = "Consumed" | "Stale" | "Superseded" | "Reserved" | "Pending";

export interface DerivedApprovalState {
  readonly state: ApprovalState;
  /** The reason that decided it ("" when none applies, e.g. Pending). */
  readonly reason: string;
  /** Also stale after being consumed (the seed's "consumed and already stale"). */
  readonly alsoStale: boolean;
}

/** State of a schema approval, given the schema it binds (if it was read). */
export function deriveSchemaApprovalState(approval: PtahSchemaApproval, schema: PtahSchema | undefined): DerivedApprovalState {
  const conditions = approval.status.conditions;
  const consumed = findCondition(conditions, "Consumed");
  const stale = findCondition(conditions, "Stale");
  const staleTrue = stale?.status === "True";
  if (consumed?.status === "True") {
    return { state: "Consumed", reason: consumed.reason ?? "", alsoStale: staleTrue };
  }
  if (staleTrue) {
    if (stale.reason === "SupersededApproval") return { state: "Superseded", reason: stale.reason, alsoStale: true };
    return { state: "Stale", reason: stale.reason ?? "", alsoStale: true };
  }
  const recorded = schema?.status.plan?.approval;
  if (recorded?.name === approval.metadata.name && (!recorded.uid || recorded.uid === approval.metadata.uid)) {
    return { state: "Reserved", reason: "", alsoStale: false };
  }
  return { state: "Pending", reason: "", alsoStale: false };
}

/** State of a migration approval (only Consumed is written by the operator). */
export function deriveMigrationApprovalState(approval: PtahMigrationApproval, migration: PtahMigration | undefined): DerivedApprovalState {
  const conditions = approval.status.conditions;
  const consumed = findCondition(conditions, "Consumed");
  const stale = findCondition(conditions, "Stale");
  if (consumed?.status === "True") return { state: "Consumed", reason: consumed.reason ?? "", alsoStale: stale?.status === "True" };
  if (stale?.status === "True") return { state: "Stale", reason: stale.reason ?? "", alsoStale: true };
  const inUse = migration?.status.activeOperation?.approvalRef;
  if (inUse?.name === approval.metadata.name && (!inUse.uid || inUse.uid === approval.metadata.uid)) {
    return { state: "Reserved", reason: "", alsoStale: false };
  }
  // The migration's plan moved on: an approval naming another plan can never match again.
  const plan = migration?.status.plan;
  if (plan?.uid && approval.spec.planRef?.uid && plan.uid !== approval.spec.planRef.uid) {
    return { state: "Stale", reason: "PlanNoLongerCurrent", alsoStale: true };
  }
  return { state: "Pending", reason: "", alsoStale: false };
}

export type SchemaApprovalSummary =
  | { readonly kind: "none" } // no plan: nothing to approve
  | { readonly kind: "not-required" }
  | { readonly kind: "waiting" }
  | { readonly kind: "reserved"; readonly by: string; readonly name: string }
  | { readonly kind: "consumed"; readonly by: string; readonly name: string }
  /** A plan no approval can unblock (ApprovalRequired=False for a refusal): `why` is short. */
  | { readonly kind: "blocked"; readonly why: string };

/** ApprovalRequired=False reasons that mean "no approval helps", as the APPROVAL column words them. */
const BLOCKED_WHY: Readonly<Record<string, string>> = {
  DestructiveChangesDisabled: "destructive",
  PolicyBlocked: "policy",
  ApplyDisabled: "apply disabled",
  RealmConflict: "realm conflict",
  RealmNotAuthorized: "realm not authorized",
  PlanNoLongerCurrent: "plan no longer current",
};

/** Reasons of ApprovalRequired=False that are not refusals. */
const NOT_BLOCKING = new Set(["NotRequired", "Satisfied"]);

/** The APPROVAL column of a schema: not required / waiting / reserved by <user> / consumed. */
export function summariseSchemaApproval(schema: PtahSchema, approvals: readonly PtahSchemaApproval[]): SchemaApprovalSummary {
  const recorded = schema.status.plan?.approval;
  if (recorded?.name) {
    const by = recorded.approver?.username ?? "";
    const object = approvals.find((a) => a.metadata.name === recorded.name && (!recorded.uid || a.metadata.uid === recorded.uid));
    if (object && isTrue(object.status.conditions, "Consumed")) return { kind: "consumed", by, name: recorded.name };
    return { kind: "reserved", by, name: recorded.name };
  }
  if (isTrue(schema.status.conditions, "ApprovalRequired")) return { kind: "waiting" };
  if (!schema.status.plan?.name) return { kind: "none" };
  const required = findCondition(schema.status.conditions, "ApprovalRequired");
  if (required?.status === "False" && required.reason && !NOT_BLOCKING.has(required.reason)) {
    return { kind: "blocked", why: BLOCKED_WHY[required.reason] ?? required.reason };
  }
  return { kind: "not-required" };
}

export function formatApprovalSummary(s: SchemaApprovalSummary): string {
  switch (s.kind) {
    case "none":
      return "-";
    case "not-required":
      return "not required";
    case "waiting":
      return "waiting";
    case "reserved":
      return s.by ? `reserved by ${s.by}` : "reserved";
    case "consumed":
      return "consumed";
    case "blocked":
      return `blocked: ${s.why}`;
  }
}

/**
 * Read on the served JSON, before the model: could this approval bind the schema named `name`?
 * (bindsSchema decides, once parsed; an approval naming another schema never binds this one.)
 */
export function mayBindSchema(raw: Record<string, unknown>, name: string): boolean {
  const spec = raw.spec as { schemaRef?: { name?: unknown } } | undefined;
  return typeof spec === "object" && spec !== null && spec.schemaRef?.name === name;
}

/** Does this approval bind this schema (by name, and by UID when both are known)? */
export function bindsSchema(approval: PtahSchemaApproval, schema: PtahSchema): boolean {
  const ref = approval.spec.schemaRef;
  if (ref?.name !== schema.metadata.name) return false;
  return !ref.uid || !schema.metadata.uid || ref.uid === schema.metadata.uid;
}

/**
 * State of a run acknowledgment: Consumed when it settled the run, Stale when it could
 * not, else Pending (admitted, not yet read by the operator).
 */
export function deriveAcknowledgmentState(ack: PtahMigrationRunAcknowledgment): DerivedApprovalState {
  const conditions = ack.status.conditions;
  const consumed = findCondition(conditions, "Consumed");
  const stale = findCondition(conditions, "Stale");
  if (consumed?.status === "True") return { state: "Consumed", reason: consumed.reason ?? "", alsoStale: stale?.status === "True" };
  if (stale?.status === "True") return { state: "Stale", reason: stale.reason ?? "", alsoStale: true };
  return { state: "Pending", reason: "", alsoStale: false };
}

function newestFirst(a: PtahSchemaApproval, b: PtahSchemaApproval): number {
  const at = (x: PtahSchemaApproval): string => x.metadata.creationTimestamp ?? x.spec.approvedAt ?? "";
  const byTime = at(b).localeCompare(at(a));
  return byTime !== 0 ? byTime : a.metadata.name.localeCompare(b.metadata.name);
}

/**
 * The newest approval of the schema that is stale or consumed — what a person approved before
 * (`diff`'s default `--from`); undefined when there is none.
 */
export function newestUsedApproval(schema: PtahSchema, approvals: readonly PtahSchemaApproval[]): PtahSchemaApproval | undefined {
  return approvals
    .filter((a) => bindsSchema(a, schema))
    .filter((a) => {
      const d = deriveSchemaApprovalState(a, schema);
      return d.state === "Consumed" || d.alsoStale;
    })
    .sort(newestFirst)[0];
}
