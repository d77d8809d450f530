// Knowledge-base text: the concepts behind the operator's words.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { Concept } from "../vocabulary.ts";
import { FOUR_EYES_TOPICS } from "./four-eyes-topics.ts";
import { TRAP_TOPICS } from "./trap-topics.ts";
import { LOCK_TOPICS } from "./lock-topics.ts";
import { SYMPTOM_TOPICS } from "./symptom-topics.ts";
import { ALERT_TOPICS } from "./alert-topics.ts";
import { POLICY_TOPICS } from "./policy-topics.ts";

export const CONCEPT_TOPICS = {
  condition: {
    summary: "How to read a status condition: type, status, reason, message",
    appliesTo: ["PtahSchema", "PtahSchemaPlan", "PtahSchemaApproval", "PtahMigration", "PtahMigrationApproval", "PtahMigrationRunAcknowledgment"],
    aliases: ["conditions", "status condition", "true false unknown"],
    meaning:
      "A condition is one line of an object's status: a type (a question such as Ready), a status (True, False or Unknown), a reason (one CamelCase word saying why) and a message (free text for people). Decide on the type, status and reason together; the message may change wording between releases.",
    why: "The operator rewrites its conditions on every pass. A condition whose observedGeneration is lower than the object's metadata.generation describes an older spec and is not yet an answer about the current one.",
    operatorNext: "It keeps the conditions current as it works; reasons are never reused for a new meaning, but new reasons may appear.",
    userAction: "Read Ready first: when it is False its reason names what holds the object. Then explain that reason by name.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see every condition of a schema, Ready first" },
      { command: "kubectl ptah explain <schema>", purpose: "have the conditions explained for that schema" },
    ],
    related: ["condition/schema/ready", "condition/migration/ready", "concept/plan"],
  },
  plan: {
    summary: "The exact, immutable SQL the operator would run, named by a fingerprint",
    appliesTo: ["PtahSchemaPlan", "PtahSchemaPlanChunk", "PtahMigrationPlan", "PtahSchema", "PtahMigration"],
    aliases: ["plans", "ptahschemaplan", "ptahmigrationplan", "current plan"],
    meaning:
      "A plan is what the operator computed to move the database from what it observed to what the artifact asks for. A schema plan (PtahSchemaPlan) stores the exact SQL in chunks; a migration plan (PtahMigrationPlan) lists the pending versions and checksums, never SQL. Plans are immutable: a change produces a new plan with a new name.",
    why: "The operator plans whenever the observed database differs from the desired state in the managed scope. status.plan on the schema (or migration) points at the current one.",
    operatorNext: "It applies the plan at once when policy allows, otherwise waits for an approval bound to it; any change of inputs retires the plan and a new one is computed.",
    userAction: "Read the SQL of the current plan before approving it.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "print the current plan after verifying every chunk" },
      { command: "kubectl ptah plan <schema> --applied", purpose: "print the plan that was applied last" },
      { command: "kubectl ptah migration <migration>", purpose: "show a migration's pending sequence" },
    ],
    related: ["concept/chunk", "concept/fingerprint", "concept/approval", "condition/schema/plan-ready"],
  },
  chunk: {
    summary: "One immutable piece (up to 512 KiB) of a schema plan's bytes",
    appliesTo: ["PtahSchemaPlanChunk", "PtahSchemaPlan"],
    aliases: ["chunks", "ptahschemaplanchunk", "plan chunk"],
    meaning:
      "A schema plan's bytes are split into at most 16 PtahSchemaPlanChunk objects of at most 512 KiB each, owned by the plan. The plan lists each chunk's name, size and sha256 digest, and records the UID of each chunk it verified before it became Ready.",
    why: "Kubernetes objects have a size limit, and a plan can be larger than one object may be. A chunk boundary may fall anywhere, even inside a statement or a character.",
    operatorNext: "Chunks are garbage-collected with their plan. At Apply time the operator copies them into ConfigMaps of the same names for the Job to mount.",
    userAction:
      "Nothing; kubectl ptah plan reassembles and verifies the chunks for you (names, UIDs, sizes, digests) and prints nothing if any check fails. Reading needs get on ptahschemaplanchunks.",
    next: [{ command: "kubectl ptah plan <schema> --verify", purpose: "check every chunk without printing SQL" }],
    related: ["concept/plan", "concept/fingerprint", "reason/published"],
  },
  fingerprint: {
    summary: "The sha256 digest that names one exact plan and everything it depends on",
    appliesTo: ["PtahSchemaPlan", "PtahSchemaApproval", "PtahMigrationPlan", "PtahMigrationApproval", "PtahSchema"],
    aliases: ["fingerprints", "plan fingerprint"],
    meaning:
      "A plan's fingerprint (spec.fingerprint, sha256:…) is a digest over the plan's content digest and every input it was computed from: artifact, observed and desired state, policy, verification policy, target, coordination realm, execution binding and the operator's reading of the plan (destructive, privilege kinds, statement count). Two plans with the same fingerprint are the same decision.",
    why: "An approval names a fingerprint, so it authorises exactly one set of inputs. If any of them changes, the next plan has a different fingerprint and the old approval no longer matches.",
    operatorNext: "It compares the fingerprint in an approval with the current plan's before reserving and again before dispatching.",
    userAction: "Compare the fingerprint you approve with status.plan.fingerprint of the schema; kubectl ptah plan recomputes it from the plan and refuses when it does not match.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "show the current plan and its verified fingerprint" },
      { command: "kubectl get ptahschema <schema> -o jsonpath='{.status.plan.fingerprint}{\"\\n\"}'", purpose: "print the fingerprint the schema records" },
    ],
    related: ["concept/binding", "concept/plan", "concept/approval", "reason/plan-no-longer-current"],
  },
  binding: {
    summary: "What an approval ties itself to: object UID, plan UID and fingerprint",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval", "PtahMigrationRunAcknowledgment"],
    aliases: ["bindings", "bound", "schemaref", "planref"],
    meaning:
      "An approval binds exactly three things: the schema (or migration) by name and UID, the plan by name and UID, and the plan's fingerprint. Because the plan is immutable and its fingerprint covers all its inputs, those three identifiers pin down everything the approver saw.",
    why: "UIDs make a recreated object with the same name a different object, and the fingerprint makes a replanned change a different plan, so an approval can never drift onto something nobody read.",
    operatorNext:
      "Admission refuses an approval whose binding does not match the current plan; the controller checks the binding again before it reserves and before it dispatches.",
    userAction: "Let kubectl ptah approve write the binding from the live, verified plan rather than copying names and UIDs by hand.",
    next: [{ command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "create an approval bound to the current plan" }],
    related: ["concept/fingerprint", "concept/approval", "approval-state/stale"],
  },
  approval: {
    summary: "A person's one-time authorisation of one exact plan",
    appliesTo: ["PtahSchemaApproval", "PtahMigrationApproval"],
    aliases: ["approvals", "ptahschemaapproval", "ptahmigrationapproval", "approve"],
    meaning:
      "A PtahSchemaApproval (or PtahMigrationApproval) is a decision by an authenticated person that one exact plan may be applied, once. Admission stamps who created it and when; the spec names only the object, the plan and the fingerprint.",
    why: "Plans need an approval when spec.policy.apply is OnApproval (the default), when a plan is destructive, or when it changes privileges. You cannot approve ahead: admission accepts an approval only while the object is AwaitingApproval, with no operation running and (for a schema) no approval already recorded.",
    operatorNext:
      "It reserves the first matching approval, re-checks it, and consumes it when the Apply Job is dispatched. A consumed approval never authorises a second apply; any mismatching one is marked Stale.",
    userAction: "Read the plan, then create the approval as yourself; kubectl ptah only prints the manifest, so the approval is authenticated as you.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the SQL you are about to approve" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "create an approval bound to that plan" },
      { command: "kubectl ptah approvals <schema>", purpose: "see every approval of the schema and its state" },
    ],
    related: ["approval-state/pending", "approval-state/reserved", "approval-state/consumed", "approval-state/stale", "concept/binding"],
  },
  acknowledgment: {
    summary: "A person's statement that an unresolved migration run is accounted for",
    appliesTo: ["PtahMigrationRunAcknowledgment", "PtahMigration"],
    aliases: ["acknowledgments", "acknowledgement", "ack", "acknowledge", "ptahmigrationrunacknowledgment"],
    meaning:
      "A PtahMigrationRunAcknowledgment names a migration and the operationID of its unresolved run (a Partial or Unknown run). Creating it says: someone established what that run did to the database, and the migration may move on.",
    why: "After a run whose effect is not known, the operator refuses to plan or apply again, because retrying could apply a migration twice. Only a history read showing nothing pending, or an acknowledgment, settles it.",
    operatorNext:
      "It marks the acknowledgment Consumed (RunAcknowledged), records the settlement in status.resolvedRun, reads the database history again and plans from there. An acknowledgment naming another run is marked Stale (RunNotUnresolved).",
    userAction: "First find out what the run did (the Job's logs, the revision table); then create the acknowledgment as yourself.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "see the unresolved run: outcome, operation ID, Job" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "acknowledge that run" },
    ],
    related: ["concept/unresolved-run", "outcome/partial", "outcome/unknown", "reason/run-acknowledged"],
  },
  destructive: {
    summary: "A plan that drops or loses data, refused unless policy allows it",
    appliesTo: ["PtahSchemaPlan", "PtahSchema"],
    aliases: ["destructive change", "destructive changes", "allowdestructive", "data loss"],
    meaning:
      "A plan is destructive when the operator's reading of it finds statements that can lose data, such as dropping a table or column. The plan records it in spec.destructive, shown in the DESTRUCTIVE column.",
    why: "The desired schema no longer contains something the database has. spec.policy.allowDestructive is false by default.",
    operatorNext:
      "With allowDestructive false it blocks the schema (DestructiveChangesDisabled) and nothing can approve that plan. With allowDestructive true the plan still needs an approval, even under apply: Always.",
    userAction:
      "Read the plan. If the loss is intended, set spec.policy.allowDestructive to true and approve the new plan; otherwise change the desired schema so it keeps what would be dropped.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the destructive statements" },
      { command: 'kubectl patch ptahschema <schema> --type merge -p \'{"spec":{"policy":{"allowDestructive":true}}}\'', purpose: "allow destructive plans (a new plan follows)" },
    ],
    related: ["reason/destructive-changes-disabled", "reason/policy-blocked", "concept/approval"],
  },
  "privilege-changes": {
    summary: "A plan that grants, revokes or reassigns database privileges",
    appliesTo: ["PtahSchemaPlan", "PtahSchema"],
    aliases: ["privileges", "privilege", "privilegechanges", "grant", "revoke", "ownership"],
    meaning:
      "spec.privilegeChanges on a plan lists the kinds of privilege change it makes: Grant, Revoke, RoleMembership, Role, Ownership, RowSecurityPolicy, SecurityDefiner, Definer or FunctionReplacement. It is shown in the PRIVILEGES column.",
    why: "The desired schema declares roles, grants, ownership or security-definer functions that differ from the database.",
    operatorNext: "Any privilege change requires an approval, whatever spec.policy.apply says, including Always. The schema waits with ApprovalRequired=True (PrivilegeChanges).",
    userAction: "Read the plan with the privilege kinds in mind, then approve it if the change is intended.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "read the plan and its privilege changes" },
      { command: "kubectl ptah approve <schema> | kubectl create -f -", purpose: "approve it" },
    ],
    related: ["reason/privilege-changes", "concept/approval", "concept/apply-policy"],
  },
  "apply-policy": {
    summary: "spec.policy.apply: Never, OnApproval (default) or Always",
    appliesTo: ["PtahSchema", "PtahMigration"],
    aliases: ["policy.apply", "apply policy", "onapproval", "always", "never"],
    meaning:
      "spec.policy.apply decides what happens to a plan: Never records plans but applies none; OnApproval applies a plan only after a person approves it; Always applies without approval, except plans that are destructive or change privileges (schemas), which still wait.",
    why: "It is the owner's choice of how much a change needs a person. The cluster may restrict who may set Always.",
    operatorNext: "Changing the policy changes the plan's inputs, so the current plan is retired and a new one computed.",
    userAction: "Choose the mode deliberately; approvals are bound to the policy, so approve again after changing it.",
    next: [{ command: "kubectl get ptahschema <schema> -o jsonpath='{.spec.policy.apply}{\"\\n\"}'", purpose: "show the apply policy" }],
    related: ["reason/apply-disabled", "reason/not-required", "reason/awaiting-approval", "concept/approval"],
  },
  drift: {
    summary: "How far the database's managed scope is from the desired schema",
    appliesTo: ["PtahSchema"],
    aliases: ["drifted", "drift findings", "driftseverity"],
    meaning:
      "Drift is the difference, inside the managed scope, between the observed database and the desired schema. The schema reports it as DriftDetected and as counts per category with a severity (safe, info, warning, error, destructive) in status.target; it never names objects or shows SQL.",
    why: "Either the desired schema changed, or someone changed the database outside the operator.",
    operatorNext: "It plans the difference; spec.policy.driftSeverity (all or destructive) decides which findings count as drift.",
    userAction: "Read the plan to see the statements that would remove the drift.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "see drift severity and categories" },
      { command: "kubectl ptah plan <schema>", purpose: "see the statements that would converge it" },
    ],
    related: ["condition/schema/drift-detected", "reason/scoped-changes", "concept/plan"],
  },
  "protected-tables": {
    summary: "spec.policy.protectedTables: tables no plan may change",
    appliesTo: ["PtahSchema"],
    aliases: ["protected"],
    meaning: "spec.policy.protectedTables lists tables (table or schema.table, matched case-insensitively) that no schema plan may touch. There is no override.",
    why: "Some tables are changed only by migrations or by people, never by declarative planning.",
    operatorNext: "If the desired change touches a protected table it publishes no plan and blocks the schema with ProtectedTable.",
    userAction: "Either remove the entry to let the operator plan the change, or make the change as a PtahMigration.",
    next: [{ command: "kubectl get ptahschema <schema> -o jsonpath='{.spec.policy.protectedTables}{\"\\n\"}'", purpose: "list the protected tables" }],
    related: ["reason/protected-table", "event/protected-table-refused", "phase/schema/blocked"],
  },
  realm: {
    summary: "A PtahRealm: one physical database that several resources may share",
    appliesTo: ["PtahRealm", "PtahSchema", "PtahMigration"],
    aliases: ["realms", "ptahrealm", "realmref", "sharedrealm", "coordination"],
    meaning:
      "A PtahRealm (cluster-scoped, written by an administrator) names one physical database, the engine it runs, which namespaces may use it, and whether it is Exclusive (one claimant at a time) or Shared. Schemas and migrations point at it with spec.target.realmRef.",
    why: "Two resources writing one database without coordination would fight. The realm tells the operator who may.",
    operatorNext:
      "It refuses to run anything against a realm that does not admit the resource (RealmNotAuthorized) or that is contested (RealmConflict), and re-checks every interval.",
    userAction: "Ask an administrator to list your namespace in the realm, or make every claimant set spec.target.sharedRealm on a Shared realm.",
    next: [{ command: "kubectl get ptahrealm <realm> -o yaml", purpose: "read the realm's engine, sharing and namespaces" }],
    related: ["reason/realm-conflict", "reason/realm-not-authorized", "phase/schema/blocked"],
  },
  "execution-binding": {
    summary: "The runtime identity (epoch) that plans and approvals are bound to",
    appliesTo: ["PtahSchema", "PtahMigration", "PtahSchemaPlan", "PtahMigrationPlan"],
    aliases: ["execution epoch", "epoch", "executionbindingid"],
    meaning:
      "status.executionBinding.epoch (v1-…) identifies what would run a plan: the controller state version, the Ptah version, the executor image and the runner protocol. Plans record it and fingerprints cover it.",
    why: "An operator upgrade that changes any of those parts rotates the epoch; a release that changes only its own image keeps it.",
    operatorNext: "Evidence and plans from a retired epoch are discarded (ExecutionBindingChanged) and the work is planned again under the new one.",
    userAction: "Approve the new plan once it appears; approvals for the old epoch cannot be used.",
    next: [{ command: "kubectl ptah status <schema>", purpose: "see whether a new plan is waiting" }],
    related: ["reason/execution-binding-changed", "event/execution-binding-changed", "concept/fingerprint"],
  },
  "unresolved-run": {
    summary: "A migration run whose effect is unknown; it blocks the migration",
    appliesTo: ["PtahMigration", "PtahMigrationRunAcknowledgment"],
    aliases: ["unresolvedrun", "unresolved", "resolvedrun"],
    meaning:
      "status.unresolvedRun on a PtahMigration records a run that ended Partial (some migrations committed) or Unknown (the evidence could not be read), with its operationID and Job. A copy is kept in the operator.ptah.run/unresolved-run annotation.",
    why: "The operator never retries such a run: applying the same migrations again could do them twice.",
    operatorNext:
      "Nothing is planned or applied while it is present (phase Blocked, ApplyOutcomeUnknown). It clears when a history read shows nothing pending or when a person acknowledges the run.",
    userAction: "Establish what the run did (Job logs, the revision table, Ptah's own tooling), repair if needed, then acknowledge it.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "see the run's outcome, operation ID and Job" },
      { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "settle it once accounted for" },
    ],
    related: ["concept/acknowledgment", "outcome/partial", "outcome/unknown", "reason/apply-outcome-unknown"],
  },
  ...FOUR_EYES_TOPICS,
  ...TRAP_TOPICS,
  ...SYMPTOM_TOPICS,
  ...ALERT_TOPICS,
  ...POLICY_TOPICS,
  ...LOCK_TOPICS,
} satisfies Record<Concept, KindedTopicText>;
