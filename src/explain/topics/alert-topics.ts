// Knowledge-base text for the words on-call meets: what `status --stuck` prints (overdue, late,
// stalled, lock release owed) and the operator's alerts and metrics. The operator publishes only
// totals; each answer ends with the command that names the objects behind them.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { ALERT_CONCEPTS } from "../vocabulary.ts";

const OWNERS = ["PtahSchema", "PtahMigration"] as const;
const STUCK = { command: "kubectl ptah status -A --stuck", purpose: "list the schemas and migrations that are stuck, and why" } as const;

export const ALERT_TOPICS = {
  overdue: {
    summary: "Past its next reconciliation time and not suspended (overdue, late)",
    appliesTo: [...OWNERS],
    aliases: ["late", "ptah_operator_overdue_resources", "overdue resources", "nextReconciliationTime"],
    meaning:
      "A schema or migration is overdue when it is not suspended and status.nextReconciliationTime has passed. status --stuck says late when it is past that time by more than one operation deadline (spec.execution.activeDeadlineSeconds, 900 s by default): nothing is working on it. The gauge ptah_operator_overdue_resources counts them.",
    why: "The manager is down or behind, its work queue is saturated, or the object's reconcile keeps failing before it reschedules.",
    operatorNext: "A healthy manager picks it up on its next pass; a late one is not being worked on.",
    userAction: "Check that the manager runs and is not restarting; then read the object's conditions.",
    next: [{ command: "kubectl ptah doctor", purpose: "whether the operator's manager and admission are in place" }, STUCK],
    related: ["concept/stalled", "concept/lock-release-owed", "phase/schema/failed"],
  },
  stalled: {
    summary: "An operation older than its deadline, outside a declared retry delay",
    appliesTo: [...OWNERS],
    aliases: ["stalled operation", "ptah_operator_active_operation_seconds", "active operation seconds"],
    meaning:
      "status.activeOperation records the operation the manager claimed (Resolve, Verify, Observe, Plan, Apply, History). It is stalled when it started longer ago than the operation deadline and no retryNotBefore in the future says it waits on purpose. The gauge ptah_operator_active_operation_seconds is its age.",
    why: "Its Job or Pod cannot start or finish (image pull, admission, quota, an unreachable database), or the manager lost track of it.",
    operatorNext: "The claim stays until the operation ends or its deadline expires; nothing else runs for that object meanwhile.",
    userAction: "Look at the operation's Job and Pod (events, logs) in the object's namespace.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "the active operation, its Job and age" }, STUCK],
    related: ["concept/overdue", "reason/operation-in-progress"],
  },
  "lock-release-owed": {
    summary: "A database realm lock the operator still has to release",
    appliesTo: [...OWNERS],
    aliases: ["lock release owed", "pendingLockRelease", "ptah_operator_pending_lock_releases", "pending lock releases"],
    meaning:
      "A present status.pendingLockRelease is what the operator's guide calls a lock release owed: an operation's hold on its realm's Lease that the manager has still to give up. The gauge ptah_operator_pending_lock_releases counts them.",
    why: "A Lease held by an operation that ended blocks every other claimant of the same database.",
    operatorNext: "The manager releases it on a later pass (event TargetLockReleaseOwed while it cannot).",
    userAction: "If it persists, check the manager and the Lease in the coordination namespace.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "the realm, its Lease holder and the owed release" }, STUCK],
    related: ["event/target-lock-release-owed", "concept/realm", "concept/overdue"],
  },
  "unresolved-apply-alert": {
    summary: "Alert: an Apply nobody accounted for (ptah_operator_unresolved_attempts)",
    appliesTo: ["PtahMigration", "PtahSchema"],
    aliases: ["PtahOperatorUnresolvedApply", "ptah_operator_unresolved_attempts", "unresolved attempts", "unresolved-gauges"],
    meaning:
      "PtahOperatorUnresolvedApply is critical and fires as soon as the gauge ptah_operator_unresolved_attempts is above zero for any kind: an Apply ended Partial or Unknown (a migration's status.unresolvedRun) or a schema's Apply outcome is unknown. Its runbook (#unresolved-gauges) reads the objects with jq; status --stuck lists them.",
    why: "The operator never retries a run whose effect it cannot show; applying again could apply twice.",
    operatorNext: "The object stays Blocked until a history read shows nothing pending or a person acknowledges the run.",
    userAction: "Find each object, establish what its run did, then acknowledge it (migrations) or let the read-only proof finish (schemas).",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "the run's outcome, operation ID and Job" }, STUCK],
    related: ["concept/unresolved-run", "reason/apply-outcome-unknown", "concept/acknowledgment"],
  },
  "unresolved-view-alerts": {
    summary: "Alerts: the manager's count of unresolved runs is stale or unreadable",
    appliesTo: ["PtahMigration", "PtahSchema"],
    aliases: ["PtahOperatorUnresolvedViewNotSynced", "PtahOperatorUnresolvedViewReadFailures", "unresolved view"],
    meaning:
      "PtahOperatorUnresolvedViewNotSynced and PtahOperatorUnresolvedViewReadFailures page when the manager cannot keep its view of unresolved runs (the one behind ptah_operator_unresolved_attempts) in step with the cluster: not synced, or reads failing. Meaning taken from the names and their shared runbook (#unresolved-gauges); upstream does not say more.",
    why: "While the view is stale, PtahOperatorUnresolvedApply cannot be trusted either way.",
    operatorNext: "The manager retries its reads.",
    userAction: "Check the manager (restarts, RBAC to list the operator's kinds); meanwhile list unresolved runs from the objects themselves.",
    next: [{ command: "kubectl ptah doctor", purpose: "the manager's install and your reads" }, STUCK],
    related: ["concept/unresolved-apply-alert", "concept/unresolved-run"],
  },
  "webhook-certificate": {
    summary: "Metrics of the admission webhooks' serving certificate",
    appliesTo: [...OWNERS, "PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["ptah_operator_webhook_certificate_expiry_timestamp_seconds", "ptah_operator_webhook_certificate_read_failures_total", "webhook certificate"],
    meaning:
      "ptah_operator_webhook_certificate_expiry_timestamp_seconds is when the certificate the operator's admission webhooks serve expires; ptah_operator_webhook_certificate_read_failures_total counts failed reads of it.",
    why: "An expired or unreadable certificate makes every create of an approval, acknowledgment, schema or migration fail at admission.",
    operatorNext: "Read failures mean the manager cannot read the certificate it serves (meaning taken from the metric's name).",
    userAction: "Check the manager's logs and the webhook Secret; kubectl ptah doctor shows whether admission answers.",
    next: [
      { command: "kubectl ptah doctor", purpose: "the admission configuration and whether it answers" },
      { command: "kubectl ptah status -A", purpose: "list the objects admission guards" },
    ],
    related: ["concept/approval-refused", "concept/install-fails"],
  },
  "result-cleanup": {
    summary: "Metric: the operator's cleanup of result records and their payloads",
    appliesTo: [...OWNERS],
    aliases: ["result_cleanup_operations_total", "ptah_operator_result_cleanup_operations_total", "result cleanup"],
    meaning:
      "A counter family whose name contains result_cleanup_operations_total counts the manager's cleanups of the result records operations leave (meaning taken from the name; upstream publishes no more).",
    why: "Result records are internal (PtahResultRecord); for a plan that carries row values they hold the same plaintext as the plan.",
    operatorNext: "Cleanup is the manager's own housekeeping; it decides no schema's or migration's state.",
    userAction: "Nothing for a schema's owner; an operator administrator checks the manager's RBAC and logs.",
    next: [
      { command: "kubectl ptah doctor", purpose: "the operator's install" },
      { command: "kubectl ptah status -A", purpose: "list the schemas and migrations" },
    ],
    related: ["concept/plan", "event/result-read-failed"],
  },
} satisfies Record<(typeof ALERT_CONCEPTS)[number], KindedTopicText>;
