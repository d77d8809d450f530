// The knowledge base covers the whole contract vocabulary. The expected words below are this
// test's own copy, transcribed from the operator's API contract, so the
// test fails when the knowledge base or its vocabulary lacks a word the contract names.
import { describe, expect, it } from "vitest";
import {
  KNOWLEDGE,
  PLACEHOLDERS,
  findTopic,
  getTopic,
  kebab,
  topicForApprovalState,
  topicForCondition,
  topicForEvent,
  topicForOutcome,
  topicForPhase,
  topicForReason,
  type TopicId,
} from "../../src/explain/knowledge.ts";
import { normalizeWord } from "../../src/explain/lookup.ts";
import { EVENT_REASONS, MIGRATION_PHASES, PTAH_KINDS, REASONS, SCHEMA_PHASES } from "../../src/explain/vocabulary.ts";

// PtahSchema condition types.
const SCHEMA_CONDITION_TYPES = [
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
];
// The other kinds' condition types.
const OTHER_CONDITION_TYPES: readonly [string, readonly string[]][] = [
  ["PtahSchemaApproval", ["Accepted", "Consumed", "Stale"]],
  ["PtahSchemaPlan", ["Ready"]],
  ["PtahMigration", ["Ready", "Progressing", "Blocked", "ApprovalRequired", "ArtifactVerified"]],
  ["PtahMigrationApproval", ["Consumed"]],
  ["PtahMigrationRunAcknowledgment", ["Consumed", "Stale"]],
  ["PtahMigrationPlan", ["Current", "Executed"]],
];

// Condition reasons, in the contract's table order.
const TABLE_REASONS = [
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
  "UnsupportedEngine",
  "Suspended",
  "VerifyingConvergence",
  "Waiting",
];
// Reasons named in the condition tables (condition tables and message pairs), checked separately so that a
// reason the prose names but the table forgets is still required.
const PROSE_REASONS = [
  "SupportedEngine",
  "UnsupportedEngine",
  "DigestPinned",
  "ResolveFailed",
  "Refreshing",
  "SourceRefreshPending",
  "RefreshFailed",
  "RefreshSuspended",
  "ExecutionBindingChanged",
  "PolicySatisfied",
  "PolicyRefused",
  "Pending",
  "PolicyChanged",
  "Observed",
  "ScopedChanges",
  "ScopedConverged",
  "ScopedPlanPending",
  "Published",
  "ArtifactUnverified",
  "ProtectedTable",
  "InputsChanged",
  "StaleObservation",
  "LeaseContinuityLost",
  "SourceUnresolved",
  "NoChanges",
  "RealmConflict",
  "RealmNotAuthorized",
  "SourceFreshnessUnknown",
  "Waiting",
  "PrivilegeChanges",
  "ApprovalRevoked",
  "AwaitingApproval",
  "NotRequired",
  "Satisfied",
  "DestructiveChangesDisabled",
  "PolicyBlocked",
  "ApplyDisabled",
  "ApprovedPlan",
  "ApplyPending",
  "JobCompleted",
  "OutcomeUnknown",
  "ApplyOutcomeUnknown",
  "InSync",
  "ConvergedAfterUnknownOutcome",
  "DesiredStateChanged",
  "SourceResolutionUnknown",
  "ProofInputsChanged",
  "OperationFailed",
  "ConfigurationError",
  "RunnerProtocolMismatch",
  "PodAdmissionRefused",
  "Succeeded",
  "Requested",
  "Active",
  "VerifyingConvergence",
  "CurrentPlan",
  "DispatchCommitted",
  "PlanNoLongerCurrent",
  "SupersededApproval",
  "RunAcknowledged",
  "HistoryDirty",
  "HistoryModified",
  "HistoryOutOfOrder",
  "HistoryAhead",
  "HistoryMatched",
  "MigrationsPending",
  "RunNotUnresolved",
];

// Phases.
const CONTRACT_SCHEMA_PHASES = [
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
];
const CONTRACT_MIGRATION_PHASES = [
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
];
// Run outcomes; the derived approval states of `approvals`.
const OUTCOMES = ["UpToDate", "Applied", "Failed", "Partial", "Unknown"];
const APPROVAL_STATES = ["Pending", "Reserved", "Consumed", "Stale", "Superseded"];
// Event reasons.
const EVENTS = [
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
  "UnresolvedRunDiscarded",
  "UnresolvedRunAcknowledged",
  "UnresolvedRunRestored",
  "VerificationPolicyInvalidated",
];
// The concepts the issue names.
const CONCEPTS = ["fingerprint", "binding", "plan", "chunk", "approval", "acknowledgment", "destructive", "privilege-changes"];

// The verbs a next command may use after `kubectl ptah`.
const VERBS = ["status", "schema", "plan", "migration", "approve", "approvals", "acknowledge", "history", "wait", "explain", "version", "doctor", "inbox", "endorse", "policy"];

describe("knowledge base coverage of the contract", () => {
  it.each(SCHEMA_CONDITION_TYPES)("explains the PtahSchema condition type %s", (type) => {
    expect(topicForCondition("PtahSchema", type)?.title).toBe(type);
  });

  it.each(OTHER_CONDITION_TYPES.flatMap(([kind, types]) => types.map((t) => [kind, t] as const)))("explains the %s condition type %s", (kind, type) => {
    const entry = topicForCondition(kind as (typeof PTAH_KINDS)[number], type);
    expect(entry?.title).toBe(type);
    expect(entry?.appliesTo).toEqual([kind]);
  });

  it.each([...new Set([...TABLE_REASONS, ...PROSE_REASONS])])("explains the reason %s", (reason) => {
    const entry = topicForReason(reason);
    expect(entry?.kind).toBe("reason");
    expect(entry?.title).toBe(reason);
  });

  it.each(CONTRACT_SCHEMA_PHASES)("explains the PtahSchema phase %s", (phase) => {
    expect(topicForPhase("PtahSchema", phase)?.title).toBe(phase);
  });

  it.each(CONTRACT_MIGRATION_PHASES)("explains the PtahMigration phase %s", (phase) => {
    expect(topicForPhase("PtahMigration", phase)?.title).toBe(phase);
  });

  it.each(OUTCOMES)("explains the run outcome %s", (outcome) => {
    expect(topicForOutcome(outcome)?.title).toBe(outcome);
  });

  it.each(APPROVAL_STATES)("explains the approval state %s", (state) => {
    expect(topicForApprovalState(state)?.title).toBe(state);
  });

  it.each(EVENTS)("explains the event %s", (reason) => {
    expect(topicForEvent(reason)?.title).toBe(reason);
  });

  it.each(CONCEPTS)("explains the concept %s", (concept) => {
    expect(findTopic(`concept/${concept}`)?.kind).toBe("concept");
  });

  it("holds no reason, phase or event the contract does not name (a typo in the vocabulary)", () => {
    expect([...REASONS].sort()).toEqual([...new Set([...TABLE_REASONS, ...PROSE_REASONS])].sort());
    expect([...SCHEMA_PHASES]).toEqual(CONTRACT_SCHEMA_PHASES);
    expect([...MIGRATION_PHASES]).toEqual(CONTRACT_MIGRATION_PHASES);
    expect([...EVENT_REASONS].sort()).toEqual([...EVENTS].sort());
  });

  it("cites nothing for a word the operator might add later", () => {
    expect(topicForReason("SomeFutureReason")).toBeUndefined();
    expect(topicForReason("planNoLongerCurrent")).toBeUndefined();
  });
});

describe("knowledge base integrity", () => {
  const ids = new Set(KNOWLEDGE.map((e) => e.id));

  it("has unique ids derived from the kind and the wire word", () => {
    expect(ids.size).toBe(KNOWLEDGE.length);
    for (const e of KNOWLEDGE) {
      expect(e.id).toMatch(/^[a-z]+(-[a-z]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)+$/);
      expect(e.id.endsWith(`/${kebab(e.title)}`)).toBe(true);
    }
  });

  it("derives the same ids at the type level and at run time", () => {
    const tricky: readonly TopicId[] = [
      "outcome/up-to-date",
      "phase/schema/ready-to-apply",
      "reason/history-out-of-order",
      "reason/in-sync",
      "condition/migration-plan/current",
      "condition/acknowledgment/stale",
      "event/result-read-timed-out",
      "concept/privilege-changes",
    ];
    for (const id of tricky) expect(getTopic(id).id).toBe(id);
  });

  it("links only to topics that exist, never to itself", () => {
    for (const e of KNOWLEDGE) {
      expect(e.related.length, e.id).toBeGreaterThan(0);
      for (const id of e.related) {
        expect(ids.has(id), `${e.id} → ${id}`).toBe(true);
        expect(id, e.id).not.toBe(e.id);
      }
    }
  });

  it("gives every topic a next command that starts with kubectl and uses known verbs and placeholders", () => {
    for (const e of KNOWLEDGE) {
      expect(e.next.length, e.id).toBeGreaterThan(0);
      for (const n of e.next) {
        expect(n.command, e.id).toMatch(/^kubectl /);
        expect(n.purpose.trim(), e.id).not.toBe("");
        const verb = /^kubectl ptah ([a-z]+)/.exec(n.command)?.[1];
        if (verb !== undefined) expect(VERBS, `${e.id}: ${n.command}`).toContain(verb);
        for (const [, name] of n.command.matchAll(/<([^>]*)>/g)) {
          expect(PLACEHOLDERS as readonly string[], `${e.id}: ${n.command}`).toContain(name);
        }
      }
    }
  });

  it("has aliases that belong to one topic only and never shadow an id", () => {
    const owner = new Map<string, string>();
    for (const e of KNOWLEDGE) {
      for (const alias of e.aliases) {
        const key = normalizeWord(alias);
        expect(key, `${e.id}: "${alias}"`).not.toBe("");
        expect(owner.get(key), `alias "${alias}" of ${e.id}`).toBeUndefined();
        owner.set(key, e.id);
        expect(ids.has(alias as never), alias).toBe(false);
      }
    }
  });

  it("writes every text field as trimmed prose and every summary as one short line", () => {
    for (const e of KNOWLEDGE) {
      expect(e.summary.length, e.id).toBeLessThanOrEqual(72);
      expect(e.summary, e.id).not.toMatch(/\.$/);
      for (const text of [e.summary, e.meaning, e.why, e.operatorNext, e.userAction]) {
        expect(text, e.id).not.toBe("");
        expect(text, e.id).toBe(text.trim());
        expect(text, e.id).not.toMatch(/\s{2,}|\n/);
      }
      expect(e.appliesTo.length, e.id).toBeGreaterThan(0);
      for (const kind of e.appliesTo) expect(PTAH_KINDS as readonly string[]).toContain(kind);
    }
  });
});
