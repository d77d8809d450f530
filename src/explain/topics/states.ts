// Knowledge-base text: derived approval states and
// migration run outcomes.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { ApprovalState, RunOutcome } from "../vocabulary.ts";

export const APPROVAL_STATE_TOPICS = {
  Pending: {
    summary: "Approval admitted, not yet picked up by the operator",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["pending approval", "unreserved"],
    meaning:
      "The approval was admitted (admission stamped the approver) but the operator has not reserved or used it yet. A fresh approval normally has no conditions at all, so an empty status is expected.",
    why: "The operator picks approvals up on its next pass over the schema or migration; until then nothing is recorded.",
    operatorNext:
      "On its next pass it reserves the oldest matching approval (schema: status.plan.approval, Event ApprovalAccepted) or claims the Apply with it (migration). If the plan moved on meanwhile, the approval is marked Stale instead.",
    userAction: "Wait a moment and look again; nothing else is needed.",
    next: [
      { command: "kubectl ptah approvals <schema>", purpose: "watch the state move to Reserved or Consumed" },
      { command: "kubectl ptah wait <schema> --for=approval=consumed", purpose: "wait until it is used" },
    ],
    related: ["approval-state/reserved", "approval-state/consumed", "approval-state/stale", "concept/approval"],
  },
  Reserved: {
    summary: "The operator chose this approval for the current plan",
    appliesTo: ["PtahSchemaApproval"],
    aliases: ["reserved approval", "accepted approval", "reservation"],
    meaning:
      "The schema names this approval in status.plan.approval (with the approver and time), and an ApprovalAccepted Event was recorded on the schema. The approval object itself is unchanged at this point.",
    why: "It was the first admitted approval that matched the current plan's schema UID, plan UID and fingerprint.",
    operatorNext:
      "It validates the plan and the approval once more and then dispatches the Apply Job, consuming the approval. If anything changed meanwhile it revokes the reservation (ApprovalRevoked) and marks the approval Stale.",
    userAction: "Nothing; the apply follows.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "follow the apply" }],
    related: ["approval-state/consumed", "reason/approval-revoked", "event/approval-accepted", "concept/approval"],
  },
  Consumed: {
    summary: "The approval was used for one Apply dispatch; it cannot be reused",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["consumed", "used", "used approval", "spent"],
    meaning:
      "Consumed=True (DispatchCommitted): the approved plan was committed to exactly one Apply Job. An approval authorises one apply only, so it is now a record of that decision.",
    why: "The operator consumes an approval at the moment it dispatches the Apply Job it authorises.",
    operatorNext:
      "It runs the Apply and proves convergence. Once a different plan becomes current, the consumed approval is also marked Stale; Consumed=True stays, which is normal.",
    userAction: "Nothing for this approval. A later change produces a new plan, and that plan needs a new approval.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see whether the apply converged" },
      { command: "kubectl ptah history <schema>", purpose: "see when it was consumed and what followed" },
    ],
    related: ["reason/dispatch-committed", "approval-state/stale", "condition/schema-approval/consumed", "concept/approval"],
  },
  Stale: {
    summary: "The approval's plan is no longer current; it can authorise nothing",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["stale", "stale approval", "outdated", "expired", "invalid approval"],
    meaning:
      "A stale approval names a plan that is no longer the one the operator would run. It will never authorise an apply, now or later. On a schema approval this is Stale=True with Accepted=False; the reason says why (usually PlanNoLongerCurrent).",
    why: "The plan it names was replaced: the desired schema, the database, the policy, the verification policy, the target or the operator's execution binding changed, so a new plan with a new fingerprint became current. An approval that was consumed by an apply also becomes stale once the apply changed the database, which is expected.",
    operatorNext:
      "It ignores the approval from now on and records a Warning Event ApprovalStale on it. If the schema has a new plan, it waits for a new approval bound to that plan.",
    userAction:
      "Leave the old approval as it is: approvals are immutable and this one can never count again. If the schema is AwaitingApproval, read the current plan and create a new approval for it. If the approval was also Consumed, it already did its job and nothing is needed.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the plan that is current now" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "create a new approval bound to it" },
      { command: "kubectl ptah explain approval <approval>", purpose: "see why this approval went stale" },
    ],
    related: [
      "reason/plan-no-longer-current",
      "condition/schema-approval/stale",
      "event/approval-stale",
      "approval-state/superseded",
      "approval-state/consumed",
      "concept/fingerprint",
    ],
  },
  Superseded: {
    summary: "A duplicate approval; another one already reserves the same plan",
    appliesTo: ["PtahSchemaApproval"],
    aliases: ["superseded", "duplicate approval", "duplicate"],
    meaning:
      "Stale=True with reason SupersededApproval: this approval matched the current plan, but another approval for the same plan was reserved first. Only one approval is used per plan.",
    why: "Two approvals for one plan were created at nearly the same time and both passed admission.",
    operatorNext: "It uses the other approval and ignores this one.",
    userAction: "Nothing; the other approval counts. You may delete this one to keep the list tidy.",
    next: [{ command: "kubectl ptah approvals <schema>", purpose: "see which approval was reserved" }],
    related: ["reason/superseded-approval", "approval-state/reserved", "approval-state/stale"],
  },
} satisfies Record<ApprovalState, KindedTopicText>;

export const OUTCOME_TOPICS = {
  UpToDate: {
    summary: "The migration run found nothing to apply",
    appliesTo: ["PtahMigration"],
    aliases: ["up to date", "nothing to apply"],
    meaning: "status.lastRun.outcome UpToDate: the run selected no migrations, because the database already had them.",
    why: "Another run, or somebody else, applied the pending versions between planning and running.",
    operatorNext: "It reads the history again and reports the migration in sync if nothing is pending.",
    userAction: "Nothing.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the history and last run" }],
    related: ["outcome/applied", "reason/history-matched", "event/migration-run-finished"],
  },
  Applied: {
    summary: "The migration run applied its planned migrations",
    appliesTo: ["PtahMigration"],
    aliases: ["applied run", "run applied"],
    meaning: "status.lastRun.outcome Applied: the planned migrations ran and were recorded; appliedVersions lists them.",
    why: "An Apply was authorised (by an approval, or by apply: Always) and completed.",
    operatorNext: "It reads the revision history back (phase VerifyingHistory) and then reports InSync when nothing is pending.",
    userAction: "Nothing.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the applied versions" }],
    related: ["phase/migration/verifying-history", "phase/migration/in-sync", "event/migration-run-finished"],
  },
  Failed: {
    summary: "The migration run failed and committed nothing",
    appliesTo: ["PtahMigration"],
    aliases: ["failed run", "run failed"],
    meaning:
      "status.lastRun.outcome Failed: the run stopped with an error and the evidence shows it committed nothing, so running again is safe once the cause is fixed. lastRun.message says what failed (never SQL or rows).",
    why: "A migration's SQL failed, the database refused the connection or lock, or the Job ran out of time.",
    operatorNext:
      "It records a Warning Event (MigrationRunFinished). Because nothing was committed, running again is allowed: it retries after spec.execution.failureRetryInterval, and an Apply under OnApproval needs an approval that has not been consumed.",
    userAction: "Read lastRun.message and the Job's logs, fix the artifact or the database, then approve the new plan if asked.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "read the failure message" },
      { command: "kubectl logs job/<job>", purpose: "read the run's log" },
    ],
    related: ["outcome/partial", "phase/migration/failed", "reason/operation-failed", "event/migration-run-finished"],
  },
  Partial: {
    summary: "Some migrations committed before the run stopped; it blocks",
    appliesTo: ["PtahMigration"],
    aliases: ["partial run", "partially applied"],
    meaning: "status.lastRun.outcome Partial: part of the run committed and part did not. The run is recorded in status.unresolvedRun and is never retried automatically.",
    why: "A migration without a transaction, or a later one in a sequence, failed after earlier work committed.",
    operatorNext: "It blocks the migration (Blocked=True, ApplyOutcomeUnknown) and plans nothing until a history read shows nothing pending or a person acknowledges the run.",
    userAction: "Find out what committed (Job logs, the revision table), repair with Ptah's tooling if needed, then acknowledge the run.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "see the unresolved run" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "acknowledge it once accounted for" },
    ],
    related: ["concept/unresolved-run", "concept/acknowledgment", "reason/apply-outcome-unknown", "outcome/unknown"],
  },
  Unknown: {
    summary: "What the migration run did could not be established; it blocks",
    appliesTo: ["PtahMigration"],
    aliases: ["unknown outcome", "unknown run"],
    meaning:
      "status.lastRun.outcome Unknown: the evidence of the run could not be read, so the operator cannot tell whether it changed the database. It is recorded in status.unresolvedRun.",
    why: "The Job or its Pod vanished, its result could not be read, or the lock was lost mid-run.",
    operatorNext: "Same as Partial: nothing is planned or run until a history read shows nothing pending or a person acknowledges the run.",
    userAction: "Establish what happened in the database, then acknowledge the run.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "see the unresolved run" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "acknowledge it once accounted for" },
    ],
    related: ["concept/unresolved-run", "outcome/partial", "reason/apply-outcome-unknown", "event/migration-run-uncertain"],
  },
} satisfies Record<RunOutcome, KindedTopicText>;
