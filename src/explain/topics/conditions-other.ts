// Knowledge-base text: condition types of approvals, plans, migrations and run
// acknowledgments.
import type { TopicText } from "../knowledge-types.ts";
import type { ConditionKey } from "../vocabulary.ts";

type OtherConditionKey = Exclude<ConditionKey, `schema/${string}`>;

export const OTHER_CONDITION_TOPICS = {
  "schema-approval/Accepted": {
    summary: "Whether the approval matched the current plan (written at dispatch)",
    aliases: ["accepted"],
    meaning:
      "True (CurrentPlan) when the approval exactly matched the current immutable plan; False with a stale reason (PlanNoLongerCurrent, SupersededApproval, ExecutionBindingChanged) when it does not. The operator writes it only together with Consumed or Stale, so a freshly accepted approval shows no conditions.",
    why: "Acceptance before dispatch is recorded on the schema instead: status.plan.approval and an ApprovalAccepted Event.",
    operatorNext: "Nothing further for this condition; it is a record.",
    userAction: "To see whether a waiting approval was picked up, look at the schema, not at this condition.",
    next: [{ command: "kubectl ptah approvals <schema>", purpose: "see each approval's derived state" }],
    related: ["reason/current-plan", "approval-state/reserved", "condition/schema-approval/stale", "event/approval-accepted"],
  },
  "schema-approval/Consumed": {
    summary: "Whether the approval was used for an Apply dispatch",
    aliases: [],
    meaning: "True (DispatchCommitted) when the approved plan was committed to one Apply Job. Consumed stays True for good; the approval can never authorise another apply.",
    why: "The operator consumes an approval at the moment it dispatches the Apply it authorises.",
    operatorNext: "It applies and proves convergence; the approval is later also marked Stale when another plan becomes current.",
    userAction: "Nothing.",
    next: [{ command: "kubectl ptah history <schema>", purpose: "see when the approval was consumed" }],
    related: ["approval-state/consumed", "reason/dispatch-committed", "condition/schema-approval/stale"],
  },
  "schema-approval/Stale": {
    summary: "Whether the approval can no longer match any plan the operator runs",
    aliases: [],
    meaning:
      "True when the approval's plan is no longer current (PlanNoLongerCurrent), another approval holds the plan (SupersededApproval), or its execution binding retired (ExecutionBindingChanged); Accepted is then False with the same reason. False (CurrentPlan) when written at dispatch. Once True it is never rewritten.",
    why: "The plan it names was replaced by a new plan with a new fingerprint.",
    operatorNext: "It ignores the approval from now on and records a Warning Event ApprovalStale on it.",
    userAction: "If the schema awaits approval, create a new approval for the current plan.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the current plan" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "approve it" },
    ],
    related: ["approval-state/stale", "reason/plan-no-longer-current", "reason/superseded-approval", "event/approval-stale"],
  },
  "schema-plan/Ready": {
    summary: "Whether a schema plan's chunks are published and verified",
    aliases: ["plan storage ready"],
    meaning:
      "True (Published) when every chunk of the plan was stored and verified and status.publishedChunks records their UIDs. Approval and apply require Ready=True at the plan's current generation.",
    why: "The operator publishes the plan's chunks first and marks the plan Ready only after checking them.",
    operatorNext: "A Ready plan can be approved (admission refuses one whose storage is not ready) and applied.",
    userAction: "Nothing; kubectl ptah plan refuses to print a plan that is not Ready.",
    next: [{ command: "kubectl ptah plan <schema> --verify", purpose: "check the plan's storage" }],
    related: ["reason/published", "concept/chunk", "concept/plan"],
  },
  "migration/Ready": {
    summary: "The migration's headline: True when history matches the artifact",
    aliases: ["migration ready"],
    meaning:
      "True (HistoryMatched) when the database's revision history matches the artifact and nothing is pending. When False its reason names what holds the migration: AwaitingApproval, ApplyPending, ApplyDisabled, PlanNoLongerCurrent, a history verdict, an unresolved run or a realm refusal.",
    why: "Every other migration condition feeds into it.",
    operatorNext: "It re-evaluates on every pass.",
    userAction: "Explain Ready's reason by name.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see history, plan, last run and conditions" }],
    related: ["reason/history-matched", "condition/migration/blocked", "condition/migration/progressing", "phase/migration/in-sync"],
  },
  "migration/Progressing": {
    summary: "Whether migration work is in flight or next",
    aliases: ["progressing"],
    meaning:
      "True when work is running or is what happens next: ApplyPending (apply: Always), ApprovedPlan (applying), or an operation being retried (OperationFailed with the failure as message). False when nothing will run from here: AwaitingApproval, ApplyDisabled, ApplyOutcomeUnknown, InputsChanged or a realm refusal.",
    why: "It separates 'working on it' from 'waiting for someone'.",
    operatorNext: "It keeps the condition current as operations start and end.",
    userAction: "If False, Ready's reason says who must act.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see what is in flight" }],
    related: ["reason/apply-pending", "reason/approved-plan", "event/operation-retried", "condition/migration/ready"],
  },
  "migration/Blocked": {
    summary: "Whether the migration cannot continue until someone acts",
    aliases: ["blocked condition"],
    meaning:
      "True when the database history is one this artifact cannot continue (HistoryDirty, HistoryModified, HistoryOutOfOrder, HistoryAhead), a realm refuses the migration (RealmConflict, RealmNotAuthorized), or an unresolved run is recorded (ApplyOutcomeUnknown). False again when an acknowledgment settles the run (RunAcknowledged) or the input changes.",
    why: "Continuing would risk applying migrations twice, out of order, or over modified history.",
    operatorNext: "It plans and runs nothing, never repairs history itself, and reads again every interval.",
    userAction: "Explain the reason; it says whether to fix the artifact, repair the database, ask an administrator or acknowledge a run.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the blocking reason and history" }],
    related: ["reason/history-dirty", "reason/apply-outcome-unknown", "reason/realm-conflict", "phase/migration/blocked"],
  },
  "migration/ApprovalRequired": {
    summary: "Whether the migration plan is waiting for a person's approval",
    aliases: ["migration approval required"],
    meaning:
      "True (AwaitingApproval) when the planned migrations need an approval naming the current plan. False when the policy needs none (NotRequired), the approval passed validation (Satisfied), the plan is no longer current (PlanNoLongerCurrent) or a realm refuses the migration.",
    why: "spec.policy.apply is OnApproval (the default).",
    operatorNext: "It waits; the oldest valid approval for the plan is used.",
    userAction: "Read the pending sequence and approve it.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "read the pending sequence" },
      { command: "kubectl ptah approve migration <migration> | kubectl create -f -", purpose: "approve it" },
    ],
    related: ["reason/awaiting-approval", "reason/not-required", "reason/satisfied", "phase/migration/awaiting-approval"],
  },
  "migration/ArtifactVerified": {
    summary: "Whether the migration artifact passed its verification policy",
    aliases: ["migration artifact verified"],
    meaning:
      "True (PolicySatisfied) when the migration directory artifact satisfies its verification policy; False when refused (PolicyRefused), not yet verified (Pending) or the policy changed (PolicyChanged).",
    why: "Only verified migrations are read, planned or run.",
    operatorNext: "When verified it reads the revision history and plans.",
    userAction: "If refused, fix the artifact's signature or the policy.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the verification result" }],
    related: ["reason/policy-satisfied", "reason/policy-refused", "condition/schema/artifact-verified"],
  },
  "migration-approval/Consumed": {
    summary: "Whether the migration approval was used for a dispatch",
    aliases: [],
    meaning:
      "True (DispatchCommitted) when the approved migration plan was dispatched. It is the only condition the operator writes on a PtahMigrationApproval; whether an approval matches is reported on the migration's ApprovalRequired.",
    why: "An approval authorises one dispatch.",
    operatorNext: "It ignores consumed approvals from now on.",
    userAction: "Nothing; a later plan needs a new approval.",
    next: [{ command: "kubectl ptah approvals migration <migration>", purpose: "see the migration's approvals" }],
    related: ["approval-state/consumed", "reason/dispatch-committed", "condition/migration/approval-required"],
  },
  "migration-plan/Current": {
    summary: "Declared on migration plans but not written; see the migration",
    aliases: [],
    meaning:
      "A condition type declared for PtahMigrationPlan that the operator does not publish, so the CURRENT column of kubectl get ptahmigrationplan is normally empty. Whether a plan is current is reported on the PtahMigration (status.plan and its conditions).",
    why: "Currency depends on the migration's live history, so it is kept on the migration.",
    operatorNext: "Nothing on the plan.",
    userAction: "Look at the migration instead.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see which plan is current" }],
    related: ["condition/migration/ready", "reason/plan-no-longer-current", "concept/plan"],
  },
  "migration-plan/Executed": {
    summary: "Declared on migration plans but not written; see lastRun",
    aliases: [],
    meaning: "A condition type declared for PtahMigrationPlan that the operator does not publish. What ran is recorded in the migration's status.lastRun.",
    why: "Runs are reported on the migration.",
    operatorNext: "Nothing on the plan.",
    userAction: "Look at the migration's last run.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the last run" }],
    related: ["outcome/applied", "outcome/failed", "concept/plan"],
  },
  "acknowledgment/Consumed": {
    summary: "Whether the acknowledgment settled the unresolved run it names",
    aliases: [],
    meaning: "True (RunAcknowledged) when the acknowledgment settled the migration's unresolved run.",
    why: "Its operationID matched status.unresolvedRun and its identity was stamped by admission.",
    operatorNext: "The migration unblocks, reads the history again and plans from there.",
    userAction: "Nothing.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "see the migration move on" }],
    related: ["reason/run-acknowledged", "concept/acknowledgment", "event/unresolved-run-acknowledged"],
  },
  "acknowledgment/Stale": {
    summary: "Whether the acknowledgment named a run the migration is not waiting on",
    aliases: [],
    meaning:
      "True (RunNotUnresolved) when the acknowledgment settles nothing: it carries no stamped identity, names another operation, the run was already settled, or the migration records no unresolved run.",
    why: "The run was settled meanwhile (for example by a history read or another acknowledgment), or the acknowledgment was written for a different run.",
    operatorNext: "It ignores the acknowledgment.",
    userAction: "If the migration is still blocked, create an acknowledgment for the run it now records.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "see which run, if any, is unresolved" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "acknowledge the current one" },
    ],
    related: ["reason/run-not-unresolved", "concept/acknowledgment", "concept/unresolved-run"],
  },
} satisfies Record<OtherConditionKey, TopicText>;
