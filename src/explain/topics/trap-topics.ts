// Knowledge-base text for the traps users of the operator hit (its operations guide names them),
// and for the apply-policy guard's refusal, found by its exact words.
import type { KindedTopicText } from "../knowledge-types.ts";

type TrapConcept = "apply-policy-guard" | "suspend-during-apply" | "target-secret-changed" | "manager-only-status";

/** The guard's refusal, exactly as admission returns it. */
export const APPLY_GUARD_REFUSAL =
  "spec.policy.apply: Always applies plans without an approval, and this cluster reserves that choice for the groups that own apply policy. Use OnApproval, or ask an apply-policy administrator to make the change.";

export const TRAP_TOPICS = {
  "apply-policy-guard": {
    summary: "Refused: only the groups that own apply policy may set apply: Always",
    appliesTo: ["PtahSchema", "PtahMigration"],
    // The refusal itself is placed by the message table (message-match.ts), names and wrappers and all;
    // as an alias its every word would find this topic for any sentence about apply policy.
    aliases: ["reserves that choice for the groups that own apply policy", "apply policy guard", "apply-policy administrator", "ValidatingAdmissionPolicy apply-policy-guard"],
    meaning: `A ValidatingAdmissionPolicy the operator's chart installs (labelled app.kubernetes.io/component: apply-policy-guard, bound with validationActions [Deny]) refused a create or update of a PtahSchema or PtahMigration that changes spec.policy.apply into Always, because the requester is in none of its exempt groups. Its message is exactly: "${APPLY_GUARD_REFUSAL}"`,
    why: "apply: Always applies every plan without an approval. The cluster keeps that choice for an apply-policy administrator; everyone else goes through approvals. Only the change into Always is refused: an object already Always can be edited otherwise.",
    operatorNext: "Nothing was stored; the object keeps its previous policy.",
    userAction:
      "Keep spec.policy.apply: OnApproval and approve plans, or ask someone in an exempt group to make the change. kubectl ptah doctor shows the guard, its exempt groups and whether you are in one.",
    next: [
      { command: "kubectl ptah doctor", purpose: "the guard: its policy, Deny binding, exempt groups, and whether you are exempt" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "approve the plan instead of applying without approval" },
    ],
    related: ["concept/apply-policy", "concept/approval"],
  },
  "suspend-during-apply": {
    summary: "Suspending a migration during its Apply makes the run Unknown",
    appliesTo: ["PtahMigration"],
    aliases: ["suspend during apply", "suspended while applying", "suspend mid-apply"],
    meaning:
      "Setting spec.suspend on a PtahMigration while its Apply runs changes one of the inputs the run's claim was made from, so the operator cannot show what the run did: it records the run's outcome as Unknown (status.unresolvedRun, phase Blocked, ApplyOutcomeUnknown).",
    why: "The claim binds the run to the spec it was dispatched for; a spec edit during the run breaks that binding, and the operator refuses to guess whether the versions were written.",
    operatorNext: "Nothing more is applied until the run is settled: by a history read that shows nothing pending, or by a person's acknowledgment.",
    userAction:
      "Let a running Apply finish before suspending (kubectl ptah wait migration <migration> --for=phase=InSync). If it already happened, find out what the run did, then acknowledge it.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "the run's outcome, operation ID and Job" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "settle the Unknown run once accounted for" },
    ],
    related: ["outcome/unknown", "concept/unresolved-run", "concept/acknowledgment"],
  },
  "target-secret-changed": {
    summary: "An Apply whose target Secret changed after approval is refused",
    appliesTo: ["PtahSchema", "PtahMigration"],
    aliases: ["target secret changed", "secret changed after approval", "database secret changed"],
    meaning:
      "The plan was approved for the database the target Secret named when it was observed. When the Secret (spec.target.urlFrom) changes after the approval, the Apply is refused, and status.pendingObservation stays bound to the original database.",
    why: "An approval authorises one plan against one database; a changed Secret could point the same SQL at another database.",
    operatorNext: "It waits: the pending observation keeps naming the original database until the Secret is restored.",
    userAction: "Restore the Secret to what it was at approval, let the Apply run and be observed, then change the target deliberately (a new plan, a new approval).",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "phase, the pending observation and the next command" },
      { command: "kubectl ptah history <schema>", purpose: "when the plan was approved and what happened since" },
    ],
    related: ["concept/binding", "concept/approval"],
  },
  "manager-only-status": {
    summary: "Only the operator's manager may write status; settle by acknowledgment",
    appliesTo: ["PtahSchema", "PtahMigration", "PtahMigrationRunAcknowledgment"],
    aliases: ["status write refused", "replace the status by hand", "edit status", "unresolved-run annotation"],
    meaning:
      "Admission refuses a status write of any operator kind from everyone but the manager's ServiceAccount, a cluster-admin included. Once a PtahMigration exists, only the manager may add, change or remove its operator.ptah.run/unresolved-run annotation.",
    why: "Status is the operator's record of what it did; a hand-edited status could clear an unresolved run without anyone accounting for it.",
    operatorNext: "An unresolved run is settled only by a history read that shows nothing pending, or by a PtahMigrationRunAcknowledgment a person creates.",
    userAction: "Do not patch status or the annotation. Account for the run, then acknowledge it (kubectl ptah acknowledge prints the manifest to create).",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "the unresolved run, its operation ID and Job" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "the supported way to settle it" },
    ],
    related: ["concept/unresolved-run", "concept/acknowledgment"],
  },
} satisfies Record<TrapConcept, KindedTopicText>;
