// Condition messages the operator writes, with the condition and reason that carry each, as the
// contract lists them. A placed message is answered from its reason's topic: the cause is the
// condition as written, what to check is the topic's user action, the next commands its own.
import { getTopic, kebab } from "../knowledge.ts";
import type { TopicId } from "../knowledge-types.ts";
import type { MessageTemplate } from "./message-types.ts";

type Row = readonly [kind: string, typeStatus: string, reason: string, text: string];

const S = "PtahSchema";
const M = "PtahMigration";
const SA = "PtahSchemaApproval";
/** The realm's refusals are written alike on both kinds. */
const SM = "PtahSchema or PtahMigration";

const ROWS: readonly Row[] = [
  [S, "ApprovalRequired=True", "Waiting", "Create an approval bound to the current plan fingerprint"],
  [S, "ApprovalRequired=True", "ApprovalRevoked", "The recorded approval is missing, replaced, or no longer matches the current plan"],
  [S, "Applying=False", "ApprovalRevoked", "No Apply Job was started with the invalid approval"],
  [S, "Ready=False", "AwaitingApproval", "The current plan requires a new approval"],
  [
    S,
    "Ready=False",
    "DestructiveChangesDisabled",
    "Plan contains destructive changes and policy disallows them; read them with kubectl ptah plan, then either narrow the desired schema or set spec.policy.allowDestructive",
  ],
  [S, "Ready=False", "ApplyDisabled", "Policy records plans but does not apply them"],
  [S, "PlanReady=True", "Published", "Exact plan bytes are stored in immutable chunks"],
  [S, "Applying=False", "JobCompleted", "Apply Job completed; convergence observation is pending"],
  [S, "Ready=False", "VerifyingConvergence", "Apply completion has not yet been independently observed"],
  [S, "PlanReady=False", "ProtectedTable", "No plan may change a table spec.policy.protectedTables fences off"],
  [S, "InSync=False", "ProtectedTable", "The artifact asks for a change to a protected table, so the managed scope cannot converge"],
  [S, "Ready=False", "ProtectedTable", "Remove the protectedTables entry to plan the change, or write the rows as a migration"],
  [S, "PlanReady=False", "PolicyChanged", "The plan is stale because verification policy bytes changed"],
  [S, "PlanReady=False", "PolicyChanged", "Any plan for the previous verification policy is stale"],
  [S, "InSync=False", "PolicyChanged", "In-sync status requires verification against the current policy bytes"],
  [S, "InSync=False", "PolicyChanged", "Post-Apply proof completed, but the artifact requires verification against the current policy"],
  [S, "Ready=False", "PolicyChanged", "Artifact verification must run again"],
  [S, "Ready=False", "PolicyChanged", "Artifact verification against the current policy is pending"],
  [S, "Ready=False", "StaleObservation", "Database state must be observed again before planning"],
  [S, "Ready=False", "InputsChanged", "Operation result was discarded because desired inputs changed"],
  [S, "Ready=False", "ProofInputsChanged", "Post-apply observation will restart from its durable binding"],
  [
    SM,
    "Ready=False",
    "RealmNotAuthorized",
    "The PtahRealm {realm} does not admit this resource: it does not exist, it does not list namespace {namespace}, or it names another engine. Nothing runs against the database until an administrator admits the namespace, and this resource is not counted against the ones the realm does admit.",
  ],
  [
    SM,
    "Ready=False",
    "RealmConflict",
    "This database realm is claimed by {count} resources ({count} PtahSchema, {count} PtahMigration), and its PtahRealm {realm} admits one at a time. Nothing runs against the database until the others stop claiming it.",
  ],
  [
    SM,
    "Ready=False",
    "RealmConflict",
    "This database realm is claimed by {count} resources ({count} PtahSchema, {count} PtahMigration) and {count} of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.",
  ],
  [SM, "ApprovalRequired=False", "RealmConflict", "No plan is approvable while the database realm is contested"],
  [SM, "ApprovalRequired=False", "RealmNotAuthorized", "No plan is approvable while the database realm does not admit this resource"],
  [S, "Applying=False", "RealmConflict", "No Apply operation is authorized while the database realm is contested"],
  [S, "Applying=False", "RealmNotAuthorized", "No Apply operation is authorized while the database realm does not admit this resource"],
  [SA, "Accepted=True", "CurrentPlan", "The approval exactly matches the current immutable plan"],
  [SA, "Stale=False", "CurrentPlan", "The approved plan is current"],
  [SA, "Consumed=True", "DispatchCommitted", "The exact plan was committed to one Apply Job dispatch"],
  [SA, "Stale=True", "PlanNoLongerCurrent", "The approval does not match the current immutable plan"],
  [SA, "Stale=True", "PlanNoLongerCurrent", "The approved plan no longer matches the current database state"],
  [SA, "Stale=True", "SupersededApproval", "Another approval already reserves this exact immutable plan"],
  [SA, "Stale=True", "ExecutionBindingChanged", "The approved plan uses an execution binding that is no longer configured"],
  [M, "ApprovalRequired=False", "NotRequired", "The apply policy is Never, so no approval is consulted"],
  [M, "Ready=False", "ApplyDisabled", "{count} migrations are pending and the apply policy is Never"],
  [M, "Progressing=False", "ApplyDisabled", "The apply policy is Never, so nothing runs from here"],
  [M, "ApprovalRequired=False", "NotRequired", "The apply policy is Always, so no approval is required"],
  [M, "Ready=False", "ApplyPending", "{count} migrations are planned"],
  [M, "Progressing=True", "ApplyPending", "An Apply of {count} planned migrations is what happens next"],
  [M, "ApprovalRequired=True", "AwaitingApproval", "{count} planned migrations need an approval naming this plan"],
  [M, "Ready=False", "AwaitingApproval", "The plan is waiting for the approval its policy requires"],
  [M, "Progressing=False", "AwaitingApproval", "Nothing runs until a person writes the approval"],
  [M, "Progressing=True", "ApprovedPlan", "Applying {count} planned migrations"],
  [M, "ApprovalRequired=False", "Satisfied", "The plan's approval requirements are satisfied"],
  [M, "Ready=False", "PlanNoLongerCurrent", "the resolved artifact changed after the plan was published"],
  [M, "Ready=False", "PlanNoLongerCurrent", "an execution component changed after the plan was published"],
  [M, "Ready=False", "PlanNoLongerCurrent", "the apply policy changed after the plan was published"],
  [M, "Ready=False", "PlanNoLongerCurrent", "the verification policy was replaced after the plan was published"],
  [M, "Blocked=True", "ApplyOutcomeUnknown", "A {outcome} run nobody accounted for is recorded against this database; establish what it did before another Apply"],
  [
    M,
    "Blocked=True",
    "ApplyOutcomeUnknown",
    "A {outcome} run nobody accounted for was restored from the operator.ptah.run/unresolved-run annotation; establish what it did before another Apply",
  ],
  [M, "Ready=False", "ApplyOutcomeUnknown", "What the recorded run did is unknown until the database is read"],
  [M, "Progressing=False", "ApplyOutcomeUnknown", "The recorded run may not be retried"],
  [M, "Blocked=False", "RunAcknowledged", "{user} acknowledged the {outcome} run; the database is read again before anything is planned"],
  [M, "Ready=False", "LeaseContinuityLost", "The database lock epoch changed under the running operation"],
  ["PtahMigrationApproval", "Consumed=True", "DispatchCommitted", "The approved plan was dispatched"],
  ["PtahMigrationRunAcknowledgment", "Consumed=True", "RunAcknowledged", "The acknowledgment settled the unresolved run it names"],
  ["PtahMigrationRunAcknowledgment", "Stale=True", "RunNotUnresolved", "The acknowledgment carries no identity stamped by admission, so it settles nothing"],
  ["PtahMigrationRunAcknowledgment", "Stale=True", "RunNotUnresolved", "The migration is waiting on operation {op}, not the one this acknowledgment names"],
  ["PtahMigrationRunAcknowledgment", "Stale=True", "RunNotUnresolved", "The run was already settled ({detail})"],
  ["PtahMigrationRunAcknowledgment", "Stale=True", "RunNotUnresolved", "The migration records no unresolved run for this acknowledgment to settle"],
  ["PtahSchemaPlan", "Ready=True", "Published", "Verified {count} immutable plan chunks"],
];

function fromRow([kind, typeStatus, reason, text]: Row): MessageTemplate {
  const topic = getTopic(`reason/${kebab(reason)}` as TopicId);
  return {
    text,
    source: "condition",
    topic: topic.id,
    cause: `The operator wrote this as ${typeStatus} with reason ${reason} on a ${kind}: ${topic.summary.charAt(0).toLowerCase()}${topic.summary.slice(1)}.`,
    check: topic.userAction,
    next: topic.next,
    condition: { kind, typeStatus, reason },
  };
}

export const CONDITION_MESSAGES: readonly MessageTemplate[] = ROWS.map(fromRow);
