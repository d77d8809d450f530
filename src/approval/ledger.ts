// The approval ledger: who approved which exact plan, when, and what became of it — built from
// durable fields only (the admission stamp, the approval's condition transitions, the schema's
// status.plan.approval and status.applied, the migration's resolvedRun), never from Events,
// which the API server forgets after its event TTL (an hour by default).
import type { Condition } from "../model/meta.ts";
import type { ManagerRecord, PtahMigration, PtahMigrationApproval, PtahMigrationRunAcknowledgment, PtahSchema, PtahSchemaApproval } from "../model/kinds.ts";
import { migrationApprovalRows, ownerIndex, schemaApprovalRows, type ApprovalRow } from "./rows.ts";
import { deriveAcknowledgmentState, findCondition, type ApprovalState } from "./state.ts";

export type LedgerKind = "PtahSchemaApproval" | "PtahMigrationApproval" | "PtahMigrationRunAcknowledgment";

export interface LedgerEntry {
  readonly namespace: string;
  readonly kind: LedgerKind;
  readonly name: string;
  readonly ownerKind: "PtahSchema" | "PtahMigration";
  readonly owner: string;
  /** The plan's name ("" for a run acknowledgment, which names an operation instead). */
  readonly plan: string;
  /** The approved plan fingerprint, or the acknowledged run's operationID. */
  readonly fingerprint: string;
  /** As admission stamped it. */
  readonly approver: string;
  readonly groups: readonly string[];
  readonly approvedAt: string | undefined;
  /** The owner records this approval as its reservation (status.plan.approval / activeOperation.approvalRef). */
  readonly reserved: boolean;
  /** Consumed=True lastTransitionTime. */
  readonly consumedAt: string | undefined;
  /** status.applied.completedAt when its planFingerprint is this approval's; for an acknowledgment, when the run was settled. */
  readonly appliedAt: string | undefined;
  /**
   * Which manager built and dispatched the Apply this approval authorized, and its runner (the
   * owner's dispatchedBy: status.applied, or status.pendingObservation while proof is owed; a
   * migration's unresolvedRun). Undefined when no durable record names the dispatch.
   */
  readonly dispatchedBy?: ManagerRecord | undefined;
  /** The dispatched Job's UID where a durable record names it (a migration's lastRun or unresolvedRun). */
  readonly jobUID?: string | undefined;
  /** An acknowledgment that settled a run: status.resolvedRun.resolution, as written. */
  readonly resolution?: string | undefined;
  /** Stale=True: its reason (SupersededApproval for a superseded one) and lastTransitionTime. */
  readonly staleReason: string | undefined;
  readonly staleAt: string | undefined;
  readonly state: ApprovalState;
  readonly alsoStale: boolean;
  /** Who endorsed the approved plan (the schema's endorsement annotation for its fingerprint), where any did. */
  readonly endorsers?: readonly string[];
  /** The bound change windows or freezes were closed when it was consumed (commands/ledger/ledger-policy.ts). */
  readonly consumedOutsideWindow?: boolean;
}

/** The transition time of a condition that is True, if any. */
function trueSince(conditions: readonly Condition[], type: string): string | undefined {
  const c = findCondition(conditions, type);
  return c?.status === "True" ? c.lastTransitionTime : undefined;
}

function stale(conditions: readonly Condition[]): Pick<LedgerEntry, "staleReason" | "staleAt"> {
  const c = findCondition(conditions, "Stale");
  return c?.status === "True" ? { staleReason: c.reason ?? "", staleAt: c.lastTransitionTime } : { staleReason: undefined, staleAt: undefined };
}

function common(row: ApprovalRow<PtahSchemaApproval | PtahMigrationApproval, unknown>): Omit<LedgerEntry, "kind" | "ownerKind" | "reserved" | "appliedAt"> {
  const a = row.approval;
  return {
    namespace: row.namespace,
    name: row.name,
    owner: row.owner === "-" ? "" : row.owner,
    plan: a.spec.planRef?.name ?? "",
    fingerprint: a.spec.planFingerprint ?? "",
    approver: a.spec.approver?.username ?? "",
    groups: a.spec.approver?.groups ?? [],
    approvedAt: a.spec.approvedAt,
    consumedAt: trueSince(a.status.conditions, "Consumed"),
    ...stale(a.status.conditions),
    state: row.state.state,
    alsoStale: row.state.alsoStale,
  };
}

function sameRef(ref: { name?: string; uid?: string } | undefined, name: string, uid: string | undefined): boolean {
  return ref?.name === name && (!ref.uid || !uid || ref.uid === uid);
}

export function schemaLedger(approvals: readonly PtahSchemaApproval[], schemas: readonly PtahSchema[]): LedgerEntry[] {
  return schemaApprovalRows(approvals, schemas).map((row) => {
    const applied = row.bound?.status.applied;
    const pending = row.bound?.status.pendingObservation;
    const fingerprint = row.approval.spec.planFingerprint;
    const entry = common(row);
    const ran = entry.consumedAt !== undefined && fingerprint !== undefined && fingerprint !== "";
    const dispatchedBy =
      ran && applied?.planFingerprint === fingerprint ? applied.dispatchedBy : ran && pending?.plan?.fingerprint === fingerprint ? pending.dispatchedBy : undefined;
    return {
      dispatchedBy,
      ...entry,
      kind: "PtahSchemaApproval",
      ownerKind: "PtahSchema",
      reserved: sameRef(row.bound?.status.plan?.approval, row.name, row.approval.metadata.uid),
      // Only the consumed approval was dispatched (a duplicate for the same plan never ran), and
      // only the last apply is kept (status.applied): earlier applies leave no durable trace.
      appliedAt: entry.consumedAt && fingerprint && applied?.planFingerprint === fingerprint ? applied.completedAt : undefined,
    };
  });
}

/**
 * The approval whose dispatch started each migration's last run: nothing durable names it, so it
 * is the one consumed last before status.lastRun.startedAt (a run starts only after its approval
 * is consumed, and a migration runs one at a time).
 */
function lastRunApprovals(rows: readonly ApprovalRow<PtahMigrationApproval, PtahMigration>[]): Map<PtahMigration, ApprovalRow<PtahMigrationApproval, PtahMigration>> {
  const out = new Map<PtahMigration, { row: ApprovalRow<PtahMigrationApproval, PtahMigration>; at: number }>();
  for (const row of rows) {
    const m = row.bound;
    const started = Date.parse(m?.status.lastRun?.startedAt ?? "");
    const consumed = Date.parse(trueSince(row.approval.status.conditions, "Consumed") ?? "");
    if (!m || Number.isNaN(started) || Number.isNaN(consumed) || consumed > started) continue;
    const best = out.get(m);
    if (!best || consumed > best.at) out.set(m, { row, at: consumed });
  }
  return new Map([...out].map(([m, v]) => [m, v.row]));
}

export function migrationLedger(approvals: readonly PtahMigrationApproval[], acks: readonly PtahMigrationRunAcknowledgment[], migrations: readonly PtahMigration[]): LedgerEntry[] {
  const rows = migrationApprovalRows(approvals, migrations);
  const ranLast = lastRunApprovals(rows);
  const fromApprovals: LedgerEntry[] = rows.map((row) => ({
    ...common(row),
    // An unresolved run records its dispatcher; otherwise the last run does, for the approval that started it.
    ...(sameRef(row.bound?.status.unresolvedRun?.planRef, row.approval.spec.planRef?.name ?? "", row.approval.spec.planRef?.uid)
      ? { dispatchedBy: row.bound?.status.unresolvedRun?.dispatchedBy, jobUID: row.bound?.status.unresolvedRun?.jobUID }
      : row.bound && ranLast.get(row.bound) === row
        ? { dispatchedBy: row.bound.status.lastRun?.dispatchedBy, jobUID: row.bound.status.lastRun?.jobUID }
        : { dispatchedBy: undefined }),
    kind: "PtahMigrationApproval",
    ownerKind: "PtahMigration",
    reserved: sameRef(row.bound?.status.activeOperation?.approvalRef, row.name, row.approval.metadata.uid),
    // A migration keeps no durable record tying a finished run to the approval that allowed it.
    appliedAt: undefined,
  }));
  const find = ownerIndex(migrations);
  const fromAcks: LedgerEntry[] = acks.map((k) => {
    const namespace = k.metadata.namespace ?? "";
    const migration = find(namespace, k.spec.migrationRef);
    const resolved = migration?.status.resolvedRun;
    const state = deriveAcknowledgmentState(k);
    return {
      namespace,
      kind: "PtahMigrationRunAcknowledgment",
      name: k.metadata.name,
      ownerKind: "PtahMigration",
      owner: k.spec.migrationRef?.name ?? "",
      plan: "",
      fingerprint: k.spec.operationID ?? "",
      approver: k.spec.acknowledgedBy?.username ?? "",
      groups: k.spec.acknowledgedBy?.groups ?? [],
      approvedAt: k.spec.acknowledgedAt,
      reserved: false,
      consumedAt: trueSince(k.status.conditions, "Consumed"),
      appliedAt: sameRef(resolved?.acknowledgmentRef, k.metadata.name, k.metadata.uid) ? resolved?.resolvedAt : undefined,
      ...(sameRef(resolved?.acknowledgmentRef, k.metadata.name, k.metadata.uid) && resolved?.resolution ? { resolution: resolved.resolution } : {}),
      ...stale(k.status.conditions),
      state: state.state,
      alsoStale: state.alsoStale,
    };
  });
  return [...fromApprovals, ...fromAcks];
}

/** Oldest approval first (approvedAt, then namespace and name): the order of an audit record. */
export function sortLedger(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const at = (e: LedgerEntry): number => {
    const t = Date.parse(e.approvedAt ?? "");
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
  };
  return [...entries].sort((a, b) => at(a) - at(b) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}
