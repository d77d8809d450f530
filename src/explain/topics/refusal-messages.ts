// Admission's refusals as the operator's webhooks and its chart's policies write them: the
// approval webhooks (schema and migration), the acknowledgment webhook, the manager-state guard
// and the apply-policy guard. Text is the contract's; where the contract gives a schema message and
// says the migration one is "analogous (kind word migration)", the kind is a slot.
import type { NextCommand } from "../knowledge-types.ts";
import type { MessageTemplate } from "./message-types.ts";
import { APPLY_GUARD_REFUSAL } from "./trap-topics.ts";

const SHOW: NextCommand = { command: "kubectl ptah {kind} <{kind}>", purpose: "its phase, current plan and what it waits for" };
const APPROVE: NextCommand = { command: "kubectl ptah approve {target} | kubectl create -f -", purpose: "an approval built from the current plan, checked first" };
const INBOX: NextCommand = { command: "kubectl ptah inbox -A", purpose: "list the plans that wait for an approval" };
const ACK: NextCommand = { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "an acknowledgment built from the migration as it is now" };
const STUCK: NextCommand = { command: "kubectl ptah status -A --stuck", purpose: "list the migrations with an unresolved run" };

const FIELDS = "Build approvals with kubectl ptah approve, which fills the names, UIDs and fingerprint from the current plan; a hand-written or templated manifest lacks one.";
const MOVED = "The plan the approval names is no longer the one waiting: approve the current plan, after reading it.";
const IDENTITY =
  "Create the approval (or acknowledgment) with kubectl create as yourself, leaving approver and approvedAt (acknowledgedBy, acknowledgedAt) out: admission writes them.";

/** Approval refusals; those with {kind} are the schema webhook's and the migration webhook's alike. */
const APPROVAL: readonly MessageTemplate[] = [
  ...(["schema", "migration"] as const).map((kind): MessageTemplate => ({
    text: `approval must explicitly identify the ${kind} name and UID`,
    source: `${kind} approval admission`,
    topic: "concept/approval-refused",
    cause: `The approval's spec does not name the ${kind} by both name and UID.`,
    check: FIELDS,
    next: [
      kind === "schema"
        ? { ...APPROVE, command: "kubectl ptah approve <schema> | kubectl create -f -" }
        : { ...APPROVE, command: "kubectl ptah approve migration <migration> | kubectl create -f -" },
      INBOX,
    ],
  })),
  {
    text: "approval must explicitly identify the plan name and UID",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The approval's spec.planRef lacks the plan's name or UID.",
    check: FIELDS,
    next: [INBOX],
  },
  {
    text: "approval must explicitly identify the plan fingerprint",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The approval's spec.planFingerprint is empty.",
    check: FIELDS,
    next: [INBOX],
  },
  {
    text: "read referenced plan: {detail}",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "Admission could not read the plan the approval names: {detail}.",
    check: "A plan that is not found was retired or pruned (approve the current one); a forbidden read is the operator's own RBAC.",
    next: [INBOX],
  },
  {
    text: "referenced plan is being deleted",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The plan the approval names is being deleted (retired and pruned).",
    check: MOVED,
    next: [INBOX],
  },
  {
    text: "referenced plan UID does not match; the plan was replaced",
    source: "approval admission",
    topic: "reason/plan-no-longer-current",
    cause: "A plan of that name exists, but it is another object than the one the approval names (its UID differs).",
    check: MOVED,
    next: [INBOX],
  },
  {
    text: "approval {kind} reference does not match the plan",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The plan the approval names was computed for another {kind} than the one the approval names.",
    check: FIELDS,
    next: [SHOW, INBOX],
  },
  {
    text: "approval plan fingerprint does not match the immutable plan",
    source: "approval admission",
    topic: "concept/fingerprint",
    cause: "The fingerprint in the approval is not the plan's spec.fingerprint.",
    check: "Copy nothing by hand: the fingerprint names every input of the plan, and kubectl ptah approve reads and verifies it.",
    next: [INBOX],
  },
  {
    text: "referenced plan contract is not supported: {detail}",
    source: "schema approval admission",
    topic: "concept/approval-refused",
    cause: "The plan was written under a plan contract this manager does not accept: {detail}.",
    check: "The operator was upgraded or downgraded since the plan was computed; approve the plan it computes now.",
    next: [INBOX],
  },
  {
    text: "referenced plan contract version {count} is not the one this manager publishes",
    source: "migration approval admission",
    topic: "concept/approval-refused",
    cause: "The migration plan was written under contract version {count}, which this manager does not publish.",
    check: "The operator's version changed since the plan was computed; approve the plan it computes now.",
    next: [INBOX],
  },
  {
    text: "referenced plan was computed under an execution binding this manager does not run",
    source: "approval admission",
    topic: "reason/execution-binding-changed",
    cause: "The plan belongs to a retired execution binding (Ptah version, executor image or runner protocol changed).",
    check: "Wait for the plan computed under the new binding, then approve that one.",
    next: [INBOX],
  },
  {
    text: "referenced plan storage is not ready",
    source: "approval admission",
    topic: "concept/chunk",
    cause: "The plan's chunks are not all stored and verified yet (the plan is not Ready at its generation).",
    check: "Retry in a moment; kubectl ptah plan verifies the chunks too.",
    next: [{ command: "kubectl ptah plan <schema>", purpose: "the plan, verified chunk by chunk" }],
  },
  {
    text: "read referenced {kind}: {detail}",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "Admission could not read the {kind} the approval names: {detail}.",
    check: "Check the {kind}'s name and namespace in the approval.",
    next: [SHOW],
  },
  {
    text: "referenced {kind} is being deleted",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The {kind} the approval (or acknowledgment) names is being deleted.",
    check: "Nothing can be approved or settled for it any more.",
    next: [SHOW],
  },
  {
    text: "{kind} UID does not match the plan binding",
    source: "approval admission",
    topic: "reason/plan-no-longer-current",
    cause: "The {kind} was deleted and created again under the same name after the plan was computed.",
    check: MOVED,
    next: [SHOW, INBOX],
  },
  {
    text: "referenced plan is no longer current for the schema",
    source: "schema approval admission",
    topic: "reason/plan-no-longer-current",
    cause: "The schema has moved on to another plan (or none).",
    check: MOVED,
    next: [{ ...SHOW, command: "kubectl ptah schema <schema>" }, INBOX],
  },
  {
    text: "referenced plan is no longer the migration's current plan",
    source: "migration approval admission",
    topic: "reason/plan-no-longer-current",
    cause: "The migration has moved on to another plan (or none).",
    check: MOVED,
    next: [{ ...SHOW, command: "kubectl ptah migration <migration>" }, INBOX],
  },
  {
    text: "referenced {kind} is not awaiting approval",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The {kind} is not in phase AwaitingApproval: an approval is admitted only while its plan waits for one (you cannot pre-approve).",
    check: "Read its phase; approve when it shows AwaitingApproval.",
    next: [SHOW, INBOX],
  },
  {
    text: "referenced {kind} does not currently require approval",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The {kind}'s ApprovalRequired condition is not True (its policy needs none, or the plan is refused outright).",
    check: "Read ApprovalRequired's reason: NotRequired needs nothing, a Blocked reason needs a change first.",
    next: [SHOW],
  },
  {
    text: "referenced {kind} has an active operation",
    source: "approval admission",
    topic: "reason/operation-in-progress",
    cause: "An operation of the {kind} is running; approvals are admitted only between operations.",
    check: "Wait for the operation to end, then approve if the plan still waits.",
    next: [SHOW],
  },
  {
    text: "referenced plan already has a recorded approval",
    source: "approval admission",
    topic: "reason/superseded-approval",
    cause: "Another approval is already recorded for this exact plan; it is the one that counts.",
    check: "Nothing to do unless that approval goes stale; kubectl ptah approvals shows it.",
    next: [{ command: "kubectl ptah approvals -A", purpose: "the approval already recorded" }],
  },
  {
    text: "{kind} requires a distinct approver, and no spec writer is recorded for it",
    source: "approval admission",
    topic: "concept/no-spec-writer",
    cause: "Four-eyes is on, and the {kind} records no last spec writer (its spec was last written before the writer webhook was installed).",
    check: "Have someone change its spec once, then let someone else approve the new plan.",
    next: [SHOW],
  },
  {
    text: "{kind} requires a distinct approver, and {user} last changed its spec",
    source: "approval admission",
    topic: "concept/self-approval",
    cause: "Four-eyes is on, and {user} last changed the {kind}'s spec, so {user} may not approve plans computed from it.",
    check: "The approver must be someone other than {user} (same username and UID is refused; groups do not count).",
    next: [SHOW, { ...APPROVE, purpose: "what an approver other than {user} runs" }],
  },
  {
    text: "derive current database coordination digest: {detail}",
    source: "approval admission",
    topic: "concept/realm",
    cause: "Admission could not compute the database realm the plan must still belong to: {detail}.",
    check: "Check the target (its Secret and realm) of the schema or migration.",
    next: [INBOX],
  },
  {
    text: "schema source or target changed after the plan was generated",
    source: "schema approval admission",
    topic: "reason/plan-no-longer-current",
    cause: "The schema's artifact or target changed after the plan was computed.",
    check: MOVED,
    next: [{ ...SHOW, command: "kubectl ptah schema <schema>" }, INBOX],
  },
  {
    text: "verification policy changed after the plan was generated",
    source: "schema approval admission",
    topic: "reason/policy-changed",
    cause: "The verification policy changed after the plan was computed; the artifact is verified again.",
    check: MOVED,
    next: [INBOX],
  },
  ...[
    [
      "referenced migration has no history to approve against",
      "The migration's database history has not been read yet (an unbaselined database has none).",
      "Wait for the history read; a database with no revision history is baselined with Ptah's own tooling first.",
    ],
    ["the database's history moved after the plan was generated", "Someone else's run changed the database's revision history after the plan was computed.", MOVED],
    ["the database identity changed after the plan was generated", "The migration's target now names another database than the plan was computed for.", MOVED],
    ["the resolved artifact changed after the plan was generated", "The migration's artifact resolved to other content after the plan was computed.", MOVED],
    ["an execution component changed after the plan was generated", "The executor or runner changed after the plan was computed.", MOVED],
    ["the declared coordination realm changed after the plan was generated", "The migration's realm changed after the plan was computed.", MOVED],
    ["the verification policy changed after the plan was generated", "The verification policy changed after the plan was computed.", MOVED],
  ].map(([text, cause, check]): MessageTemplate => ({
    text: text!,
    source: "migration approval admission",
    topic: text!.startsWith("referenced") ? "concept/approval-refused" : "reason/plan-no-longer-current",
    cause: cause!,
    check: check!,
    next: [{ ...SHOW, command: "kubectl ptah migration <migration>" }, INBOX],
  })),
  // Identity checks of the validating pass. The contract quotes the approval's words and says the
  // acknowledgment's use acknowledgedBy/acknowledgedAt; the fields are slots, so both are placed.
  {
    text: "authenticated {object} username is empty",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The request reached admission without a username (an anonymous or odd authenticator).",
    check: "Create it with credentials that carry a username (kubectl auth whoami).",
    next: [{ command: "kubectl auth whoami", purpose: "the identity admission sees" }],
  },
  {
    text: "reserved {identity} identity fields do not match the authenticated request",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The identity written in the object is not the one admission authenticated.",
    check: IDENTITY,
    next: [{ command: "kubectl auth whoami", purpose: "the identity admission stamps" }],
  },
  {
    text: "{object} identity was not stamped by the mutating admission webhook",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The operator's mutating webhook did not run for this request (not installed, or bypassed).",
    check: "Check that the operator's admission is installed and answers.",
    next: [{ command: "kubectl ptah doctor", purpose: "the admission configuration and its entries" }],
  },
  {
    text: "{stamp} was not stamped by the admission webhook",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The {stamp} time was not written by the operator's mutating webhook.",
    check: IDENTITY,
    next: [{ command: "kubectl ptah doctor", purpose: "the admission configuration and its entries" }],
  },
  {
    text: "only create and metadata-preserving updates are supported",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "An approval or acknowledgment cannot be changed after it is created, except its metadata.",
    check: "Create a new one instead of editing.",
    next: [INBOX],
  },
  {
    text: "approval spec is immutable; create a new approval",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The update changed an approval's spec.",
    check: "Create a new approval for the current plan.",
    next: [INBOX],
  },
  {
    text: "approval namespace does not match the admission request",
    source: "approval admission",
    topic: "concept/approval-refused",
    cause: "The approval's namespace is not the one the request was made in.",
    check: "Create the approval in the namespace of the schema or migration (kubectl create -n).",
    next: [INBOX],
  },
];

const ACKNOWLEDGMENT_TEXT: readonly Omit<MessageTemplate, "source">[] = [
  {
    text: "acknowledgment must explicitly identify the migration name and UID",
    topic: "concept/acknowledgment-refused",
    cause: "The acknowledgment's spec.migrationRef lacks the migration's name or UID.",
    check: "Build it with kubectl ptah acknowledge.",
    next: [ACK],
  },
  {
    text: "acknowledgment must name the operationID of the unresolved run",
    topic: "concept/acknowledgment-refused",
    cause: "The acknowledgment's spec.operationID is empty.",
    check: "Build it with kubectl ptah acknowledge, which reads the run's operation ID.",
    next: [ACK],
  },
  {
    text: "referenced migration UID does not match; the migration was replaced",
    topic: "concept/acknowledgment-refused",
    cause: "The migration was deleted and created again under the same name; the run belonged to the old one.",
    check: "Read the new migration's state before settling anything.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "the migration as it is now" }],
  },
  {
    text: "referenced migration records no unresolved run",
    topic: "reason/run-not-unresolved",
    cause: "The migration has no unresolved run: it was settled already (by a history read or another acknowledgment) or never existed.",
    check: "Nothing to settle; read how it was settled.",
    next: [{ command: "kubectl ptah migration <migration>", purpose: "the settled run and its resolution" }, STUCK],
  },
  {
    text: "referenced migration's unresolved run is operation {op}, not the one this acknowledgment names",
    topic: "reason/run-not-unresolved",
    cause: "The migration waits on operation {op}; the acknowledgment names another run.",
    check: "Account for operation {op}'s run, then acknowledge that one.",
    next: [ACK, STUCK],
  },
];
const ACKNOWLEDGMENT = ACKNOWLEDGMENT_TEXT.map((m): MessageTemplate => ({ ...m, source: "acknowledgment admission" }));

const GUARDS: readonly MessageTemplate[] = [
  {
    text: "Ptah status is written only by the operator's manager; settle an unresolved migration run with a PtahMigrationRunAcknowledgment",
    source: "manager-state guard",
    topic: "concept/manager-only-status",
    cause: "A status write of an operator kind by anyone but the manager's ServiceAccount (a cluster-admin included) was refused by the manager-state guard.",
    check: "Do not patch status; account for the run, then acknowledge it.",
    next: [ACK, STUCK],
  },
  {
    text: "The operator.ptah.run/unresolved-run annotation is the manager's copy of an unresolved run; only the manager changes it, and a PtahMigrationRunAcknowledgment is how a person settles the run",
    source: "manager-state guard",
    topic: "concept/manager-only-status",
    cause: "A change to a migration's operator.ptah.run/unresolved-run annotation by someone other than the manager was refused by the manager-state guard.",
    check: "Leave the annotation alone; account for the run, then acknowledge it.",
    next: [ACK, STUCK],
  },
  {
    text: APPLY_GUARD_REFUSAL,
    source: "apply-policy guard",
    topic: "concept/apply-policy-guard",
    cause: "The change into spec.policy.apply: Always was refused: you are in none of the apply-policy guard's exempt groups.",
    check: "Keep OnApproval and approve plans, or ask an apply-policy administrator.",
    next: [{ command: "kubectl ptah doctor", purpose: "the guard, its exempt groups and whether you are in one" }, INBOX],
  },
];

export const REFUSAL_MESSAGES: readonly MessageTemplate[] = [...APPROVAL, ...ACKNOWLEDGMENT, ...GUARDS];
