// The operator's closed vocabulary: condition types per kind, condition
// reasons, phases, derived approval states and run outcomes, as const arrays. The knowledge
// base is keyed by the unions derived here, so a word added here without an entry fails to
// compile. Data only: no I/O.
import { FINDING_CODES, type FindingCode } from "../locks/finding-codes.ts";
import { PTAH_KIND_NAMES } from "../model/api.ts";

/** Every Ptah kind a topic can apply to; PtahResultRecord is internal. */
export const PTAH_KINDS = [...PTAH_KIND_NAMES, "PtahRealm"] as const;
export type PtahKind = (typeof PTAH_KINDS)[number];

/** PtahSchema condition types. */
export const SCHEMA_CONDITION_TYPES = [
  "EngineSupported",
  "ArtifactResolved",
  "ArtifactVerified",
  "DatabaseReachable",
  "DriftDetected",
  "PlanReady",
  "ApprovalRequired",
  "Applying",
  "InSync",
  "Ready",
  "Suspended",
  "ReconciliationFailed",
] as const;

/** PtahSchemaApproval condition types. */
export const SCHEMA_APPROVAL_CONDITION_TYPES = ["Accepted", "Consumed", "Stale"] as const;

/** PtahSchemaPlan condition types. */
export const SCHEMA_PLAN_CONDITION_TYPES = ["Ready"] as const;

/** PtahMigration condition types. */
export const MIGRATION_CONDITION_TYPES = ["Ready", "Progressing", "Blocked", "ApprovalRequired", "ArtifactVerified"] as const;

/**
 * PtahMigrationApproval condition types: only `Consumed` is ever written; the
 * Accepted/Stale printer columns stay empty, so they get no topic of their own here.
 */
export const MIGRATION_APPROVAL_CONDITION_TYPES = ["Consumed"] as const;

/**
 * PtahMigrationPlan condition types: declared in the Go types but, per the operator's docs,
 * never published. They are explained so a user who sees the CURRENT column empty
 * learns where currency is reported instead.
 */
export const MIGRATION_PLAN_CONDITION_TYPES = ["Current", "Executed"] as const;

/** PtahMigrationRunAcknowledgment condition types. */
export const ACKNOWLEDGMENT_CONDITION_TYPES = ["Consumed", "Stale"] as const;

/** The object kinds that carry conditions, as the slug used in topic ids. */
export const CONDITION_KINDS = {
  schema: { kind: "PtahSchema", types: SCHEMA_CONDITION_TYPES },
  "schema-approval": { kind: "PtahSchemaApproval", types: SCHEMA_APPROVAL_CONDITION_TYPES },
  "schema-plan": { kind: "PtahSchemaPlan", types: SCHEMA_PLAN_CONDITION_TYPES },
  migration: { kind: "PtahMigration", types: MIGRATION_CONDITION_TYPES },
  "migration-approval": { kind: "PtahMigrationApproval", types: MIGRATION_APPROVAL_CONDITION_TYPES },
  "migration-plan": { kind: "PtahMigrationPlan", types: MIGRATION_PLAN_CONDITION_TYPES },
  acknowledgment: { kind: "PtahMigrationRunAcknowledgment", types: ACKNOWLEDGMENT_CONDITION_TYPES },
} as const satisfies Record<string, { kind: PtahKind; types: readonly string[] }>;
export type ConditionKindSlug = keyof typeof CONDITION_KINDS;
/** "schema/Ready", "acknowledgment/Stale", … — one per condition type per kind. */
export type ConditionKey = {
  [K in ConditionKindSlug]: `${K}/${(typeof CONDITION_KINDS)[K]["types"][number]}`;
}[ConditionKindSlug];

/** Every condition reason the operator writes, those its condition tables name included. */
export const REASONS = [
  "Active",
  "ApplyDisabled",
  "ApplyOutcomeUnknown",
  "ApplyPending",
  "ApprovalRevoked",
  "ApprovedPlan",
  "ArtifactUnverified",
  "AwaitingApproval",
  "ConfigurationError",
  "ConvergedAfterUnknownOutcome",
  "CurrentPlan",
  "DesiredStateChanged",
  "DestructiveChangesDisabled",
  "DigestPinned",
  "DispatchCommitted",
  "ExecutionBindingChanged",
  "HistoryAhead",
  "HistoryDirty",
  "HistoryMatched",
  "HistoryModified",
  "HistoryOutOfOrder",
  "InputsChanged",
  "InSync",
  "JobCompleted",
  "LeaseContinuityLost",
  "MigrationsPending",
  "NoChanges",
  "NotRequired",
  "Observed",
  "OperationFailed",
  "OperationInProgress",
  "OutcomeUnknown",
  "Pending",
  "PlanNoLongerCurrent",
  "PlanReady",
  "PodAdmissionRefused",
  "PolicyBlocked",
  "PolicyChanged",
  "PolicyRefused",
  "PolicySatisfied",
  "PrivilegeChanges",
  "ProofInputsChanged",
  "ProtectedTable",
  "Published",
  "RealmConflict",
  "RealmNotAuthorized",
  "RefreshFailed",
  "Refreshing",
  "RefreshSuspended",
  "Requested",
  "ResolveFailed",
  "RunAcknowledged",
  "RunNotUnresolved",
  "RunnerProtocolMismatch",
  "Satisfied",
  "ScopedChanges",
  "ScopedConverged",
  "ScopedPlanPending",
  "SourceFreshnessUnknown",
  "SourceRefreshPending",
  "SourceResolutionUnknown",
  "SourceUnresolved",
  "Stale",
  "StaleObservation",
  "StalePlan",
  "Succeeded",
  "SupersededApproval",
  "SupportedEngine",
  "Suspended",
  "UnsupportedEngine",
  "VerifyingConvergence",
  "Waiting",
] as const;
export type Reason = (typeof REASONS)[number];

/** PtahSchema `status.phase`. */
export const SCHEMA_PHASES = [
  "Pending",
  "Resolving",
  "Verifying",
  "Observing",
  "Planning",
  "ReadyToApply",
  "AwaitingApproval",
  "Blocked",
  "Applying",
  "VerifyingConvergence",
  "InSync",
  "Suspended",
  "Failed",
] as const;
export type SchemaPhase = (typeof SCHEMA_PHASES)[number];

/** PtahMigration `status.phase`. */
export const MIGRATION_PHASES = [
  "Pending",
  "Resolving",
  "Verifying",
  "Reading",
  "Planning",
  "AwaitingApproval",
  "Blocked",
  "Applying",
  "VerifyingHistory",
  "InSync",
  "Suspended",
  "Failed",
] as const;
export type MigrationPhase = (typeof MIGRATION_PHASES)[number];

/**
 * The state of an approval as `kubectl ptah approvals` derives it: the operator
 * writes no conditions on an approval before dispatch, so the state is computed from
 * its conditions and the schema's `status.plan.approval`.
 */
export const APPROVAL_STATES = ["Pending", "Reserved", "Consumed", "Stale", "Superseded"] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** PtahMigration `status.lastRun.outcome`. */
export const RUN_OUTCOMES = ["UpToDate", "Applied", "Failed", "Partial", "Unknown"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Lock impact (plan --locks): PostgreSQL's lock modes and the lock analyser's finding codes. */
export const LOCK_MODE_CONCEPTS = [
  "access-share",
  "row-share",
  "row-exclusive",
  "share-update-exclusive",
  "share",
  "share-row-exclusive",
  "exclusive",
  "access-exclusive",
] as const;

/**
 * A concept per finding code of the lock analyser (its one list, locks/findings.ts); the code
 * protected-table is the concept protected-table-lock, apart from the operator's ProtectedTable reason.
 */
type LockFindingConcept = Exclude<FindingCode, "protected-table"> | "protected-table-lock";
export const lockConceptOf = (code: FindingCode): LockFindingConcept => (code === "protected-table" ? "protected-table-lock" : code);
export const LOCK_FINDING_CONCEPTS: readonly LockFindingConcept[] = FINDING_CODES.map(lockConceptOf);
export type LockConcept = (typeof LOCK_MODE_CONCEPTS)[number] | LockFindingConcept;

/** Symptoms as people name them (a refusal, the FAQ's words, a realm's sharing, a settled run); the stuck words, alerts and metrics. */
export const SYMPTOM_CONCEPTS = ["approval-refused", "acknowledgment-refused", "nothing-applies", "tables-still-there", "registry-auth-fails", "status-unknown"] as const;
export const FAQ_CONCEPTS = ["digest-refused", "plan-too-large", "install-fails", "read-a-plan", "realm-sharing", "history-read"] as const;
/** The approval policies `policy render` prints and the API server enforces, and their refusals. */
export const POLICY_CONCEPTS = ["approval-policy", "endorsement", "endorsement-refused", "change-window", "freeze", "break-glass"] as const;
export const ALERT_CONCEPTS = ["overdue", "stalled", "lock-release-owed", "unresolved-apply-alert", "unresolved-view-alerts", "webhook-certificate", "result-cleanup"] as const;

/** Concepts a newcomer needs before the words above make sense. */
export const CONCEPTS = [
  "condition",
  "plan",
  "chunk",
  "fingerprint",
  "binding",
  "approval",
  "acknowledgment",
  "destructive",
  "privilege-changes",
  "apply-policy",
  "drift",
  "protected-tables",
  "realm",
  "execution-binding",
  "unresolved-run",
  // Four-eyes, and admission's two refusals of it
  "four-eyes",
  "self-approval",
  "no-spec-writer",
  // Traps the operator's guide names, and the apply-policy guard's refusal
  "apply-policy-guard",
  "suspend-during-apply",
  "target-secret-changed",
  "manager-only-status",
  ...SYMPTOM_CONCEPTS,
  ...FAQ_CONCEPTS,
  ...ALERT_CONCEPTS,
  ...POLICY_CONCEPTS,
  ...LOCK_MODE_CONCEPTS,
  ...LOCK_FINDING_CONCEPTS,
] as const;
export type Concept = (typeof CONCEPTS)[number];

/** Event reasons the operator records; diagnostic, never a decision input. */
export const EVENT_REASONS = [
  "AdmissionSnapshotRefreshed",
  "ApplyOutcomeUnknown",
  "ApprovalAccepted",
  "ApprovalRequired",
  "ApprovalRevoked",
  "ApprovalStale",
  "ArtifactVerificationRefused",
  "ExecutionBindingChanged",
  "LeaseContinuityLost",
  "MigrationJobCleanupDeferred",
  "MigrationRunFinished",
  "MigrationRunUncertain",
  "OperationCompleted",
  "OperationFailed",
  "OperationRetried",
  "OperationStarted",
  "PlanStale",
  "ProtectedTableRefused",
  "ResultReadFailed",
  "ResultReadTimedOut",
  "TargetLockReleaseOwed",
  "TerminationSummaryRefused",
  "UnresolvedRunAcknowledged",
  "UnresolvedRunDiscarded",
  "UnresolvedRunRestored",
  "VerificationPolicyInvalidated",
] as const;
export type EventReason = (typeof EVENT_REASONS)[number];
