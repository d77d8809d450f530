// Knowledge-base text: PtahSchema condition types.
import type { TopicText } from "../knowledge-types.ts";
import type { SCHEMA_CONDITION_TYPES } from "../vocabulary.ts";

type SchemaConditionType = (typeof SCHEMA_CONDITION_TYPES)[number];

export const SCHEMA_CONDITION_TOPICS = {
  EngineSupported: {
    summary: "Whether the target engine is one the operator can manage",
    aliases: ["engine supported", "engine"],
    meaning:
      "True (SupportedEngine) when spec.target.engine names an engine with an implemented lifecycle: PostgreSQL (also postgres, pgx) or MySQL (also mariadb). False (UnsupportedEngine) otherwise.",
    why: "The API accepts any engine name; the operator checks it at run time, before touching a registry or database.",
    operatorNext:
      "With an unsupported engine it stops everything for the schema (phase Blocked), clears the plan and marks its approvals stale. Fixing the engine restarts at Resolve.",
    userAction: "If False, correct spec.target.engine.",
    next: [{ command: "kubectl get ptahschema <schema> -o jsonpath='{.spec.target.engine}{\"\\n\"}'", purpose: "show the declared engine" }],
    related: ["reason/supported-engine", "reason/unsupported-engine", "condition/schema/ready"],
  },
  ArtifactResolved: {
    summary: "Whether the desired OCI reference is pinned to a digest",
    aliases: ["artifact resolved", "resolved"],
    meaning:
      "True (DigestPinned) when spec.desired.ociRef was resolved to immutable content, recorded in status.source.digest. False (ResolveFailed) when it could not be resolved. Unknown while a refresh is outstanding (Refreshing, SourceRefreshPending, RefreshFailed, RefreshSuspended) or when the retained digest belongs to a retired execution binding (ExecutionBindingChanged).",
    why: "Every plan starts from an exact artifact digest; a tag may move, so the operator resolves the reference again on each interval.",
    operatorNext: "Once pinned it verifies the artifact; on failure it retries after the failure retry interval.",
    userAction: "If False, check the reference, the registry and the registry credentials.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "see the requested and resolved reference" }],
    related: ["reason/digest-pinned", "reason/resolve-failed", "reason/refreshing", "condition/schema/artifact-verified"],
  },
  ArtifactVerified: {
    summary: "Whether the artifact passed its verification policy",
    aliases: ["artifact verified", "verified", "verification"],
    meaning:
      "True (PolicySatisfied) when the artifact's type and the verification policy named in spec.desired.verificationPolicyFrom are satisfied. False when the policy refused it (PolicyRefused), verification has not run yet (Pending) or the policy changed (PolicyChanged).",
    why: "Only verified content may be planned. Editing or replacing the policy ConfigMap invalidates earlier verification.",
    operatorNext: "When verified it observes the database and plans; when refused it blocks until the artifact or policy changes.",
    userAction: "If PolicyRefused, fix the artifact's signature or the policy.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "see the verification result and message" }],
    related: ["reason/policy-satisfied", "reason/policy-refused", "reason/policy-changed", "event/artifact-verification-refused"],
  },
  DatabaseReachable: {
    summary: "Whether the database was observed",
    aliases: ["database reachable", "reachable", "database"],
    meaning:
      "True (Observed) when the last observation of the target database succeeded. Unknown when the engine is unsupported or the observation belongs to a retired execution binding.",
    why: "Planning needs a fresh reading of the database's current state.",
    operatorNext: "After observing it plans; a failed observation shows on ReconciliationFailed and is retried.",
    userAction: "If it stays unknown or the schema fails, check spec.target.urlFrom and network access from the cluster.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "see the observation time and any failure" }],
    related: ["reason/observed", "condition/schema/reconciliation-failed", "condition/schema/drift-detected"],
  },
  DriftDetected: {
    summary: "Whether the managed scope differs from the desired schema",
    aliases: ["drift detected"],
    meaning:
      "True (ScopedChanges) when the database's managed scope differs from the desired schema, False (ScopedConverged) when it does not, Unknown (ScopedPlanPending) until scoped planning has run.",
    why: "The desired schema changed, or the database was changed outside the operator.",
    operatorNext: "With changes it publishes a plan; without, it reports InSync.",
    userAction: "Read the plan to see what differs.",
    next: [{ command: "kubectl ptah plan <schema>", purpose: "read the statements that remove the drift" }],
    related: ["concept/drift", "reason/scoped-changes", "reason/scoped-converged", "reason/scoped-plan-pending"],
  },
  PlanReady: {
    summary: "Whether an exact plan is published in immutable storage",
    aliases: ["plan ready"],
    meaning:
      "True (Published) when the exact plan bytes are stored in immutable chunks and status.plan names the plan. False when no usable plan exists; the reason says why (ArtifactUnverified, ProtectedTable, InputsChanged, StaleObservation, PolicyChanged, LeaseContinuityLost, SourceUnresolved, NoChanges, RealmConflict, RealmNotAuthorized). Unknown (SourceFreshnessUnknown) while the source's currency cannot be shown.",
    why: "A plan is published only from a verified artifact, a fresh observation and inputs that did not change meanwhile.",
    operatorNext: "A published plan is applied or waits for approval, as policy says.",
    userAction: "If False, explain its reason; NoChanges is the healthy case.",
    next: [{ command: "kubectl ptah plan <schema>", purpose: "read the published plan" }],
    related: ["reason/published", "reason/no-changes", "concept/plan", "condition/schema/approval-required"],
  },
  ApprovalRequired: {
    summary: "Whether the current plan is waiting for a person's approval",
    aliases: ["approval required", "needs approval"],
    meaning:
      "True when the current plan needs an approval bound to its fingerprint: Waiting, PrivilegeChanges, ApprovalRevoked or AwaitingApproval. False when no approval is needed or the plan cannot be approved at all: NotRequired, Satisfied, DestructiveChangesDisabled, PolicyBlocked, ApplyDisabled or a realm refusal. It is the APPROVAL printer column.",
    why: "An approval is required under apply: OnApproval, for destructive plans, and for any plan that changes privileges.",
    operatorNext: "While True it waits; the plan may still be retired on the next interval if inputs move.",
    userAction: "If True, read the plan and approve it.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the plan waiting for approval" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "approve it" },
    ],
    related: ["reason/waiting", "reason/privilege-changes", "reason/approval-revoked", "concept/approval"],
  },
  Applying: {
    summary: "Whether the exact current plan is being applied",
    aliases: ["apply in progress"],
    meaning:
      "True when the current plan is applying (ApprovedPlan) or about to be (ApplyPending). False when no apply is authorised or it has ended: ApprovalRevoked, JobCompleted, OutcomeUnknown, ApplyOutcomeUnknown, ExecutionBindingChanged, or a realm or engine refusal.",
    why: "An Apply runs only for the exact plan an approval (or apply: Always) authorised.",
    operatorNext: "After the Apply Job ends it proves convergence with a read-only plan (VerifyingConvergence).",
    userAction: "Nothing while True; if it ended with an unknown outcome, let the proof finish.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "follow the apply" }],
    related: ["reason/approved-plan", "reason/job-completed", "phase/schema/applying", "phase/schema/verifying-convergence"],
  },
  InSync: {
    summary: "Whether read-only planning proved the database matches",
    aliases: ["in sync condition"],
    meaning:
      "True (InSync, ConvergedAfterUnknownOutcome) when an independent read-only plan found nothing to change. False when the scope differs or newer inputs exist (ScopedChanges, DesiredStateChanged, PolicyChanged, ProtectedTable). Unknown while that cannot be shown yet (ScopedPlanPending, SourceRefreshPending, SourceResolutionUnknown, ProofInputsChanged). It is the IN SYNC printer column.",
    why: "The operator trusts no Job's own report: convergence is shown only by planning again and finding no statements.",
    operatorNext: "It keeps checking on every interval.",
    userAction: "If False, look at the plan and at Ready's reason.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "see why it is not in sync" }],
    related: ["reason/in-sync", "phase/schema/in-sync", "condition/schema/ready", "condition/schema/drift-detected"],
  },
  Ready: {
    summary: "The schema's headline: True when in sync; False says what holds it",
    aliases: ["schema ready"],
    meaning:
      "True when the schema is in sync with its desired state. When False, its reason is the one thing holding the schema (for example AwaitingApproval, DestructiveChangesDisabled, ProtectedTable), and its message says what to do. Read this condition first.",
    why: "Every other condition feeds into it.",
    operatorNext: "It re-evaluates Ready on every pass.",
    userAction: "Explain Ready's reason by name; it tells you the next step.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see Ready's reason and message" },
      { command: "kubectl ptah explain <schema>", purpose: "have the schema's state explained" },
    ],
    related: ["concept/condition", "reason/awaiting-approval", "reason/destructive-changes-disabled", "phase/schema/in-sync"],
  },
  Suspended: {
    summary: "Whether reconciliation is suspended by spec.suspend",
    aliases: ["suspend"],
    meaning: "True (Requested) when spec.suspend is true; False (Active) otherwise.",
    why: "Someone set spec.suspend to pause the operator for this schema.",
    operatorNext: "While suspended it starts no new operation; refreshes are stopped (RefreshSuspended).",
    userAction: "Set spec.suspend to false to resume.",
    next: [{ command: 'kubectl patch ptahschema <schema> --type merge -p \'{"spec":{"suspend":false}}\'', purpose: "resume reconciliation" }],
    related: ["reason/requested", "reason/active", "phase/schema/suspended"],
  },
  ReconciliationFailed: {
    summary: "Whether the last operation failed; the message is the failure",
    aliases: ["reconciliation failed", "failure", "error"],
    meaning:
      "True when the last operation failed: OperationFailed, ConfigurationError, RunnerProtocolMismatch or PodAdmissionRefused, with the failure text as message. False (Succeeded) once an operation succeeds again.",
    why: "A Job failed, a declared input is invalid, or the cluster refused the operation's Pod.",
    operatorNext: "It retries after spec.execution.failureRetryInterval (default 30s).",
    userAction: "Read the message; fix the configuration or the cause it names.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "read the failure message" },
      { command: "kubectl get events --field-selector involvedObject.name=<schema>", purpose: "see the operator's events" },
    ],
    related: ["reason/operation-failed", "reason/configuration-error", "reason/succeeded", "phase/schema/failed"],
  },
} satisfies Record<SchemaConditionType, TopicText>;
