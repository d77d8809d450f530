// Knowledge-base text for what readers arrive with: admission's refusals as a whole, the words
// upstream's FAQ lists as what people type, a realm's sharing (apart from the lock mode of the same
// name) and a run settled by a history read. Each answer ends with the command that lists the
// objects it is about.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { FAQ_CONCEPTS, SYMPTOM_CONCEPTS } from "../vocabulary.ts";

const OWNERS = ["PtahSchema", "PtahMigration"] as const;
const APPROVALS = ["PtahSchemaApproval", "PtahMigrationApproval"] as const;

export const SYMPTOM_TOPICS = {
  "approval-refused": {
    summary: "Admission refused an approval: the message names the check it failed",
    appliesTo: [...APPROVALS, ...OWNERS],
    aliases: ["approval rejected", "approval refused", "approval denied", "approval webhook denied the request"],
    meaning:
      "The operator's approval webhooks check every new approval against the plan and the schema or migration it names, reading them from the API server at that moment: the names, UIDs and fingerprint must be present and match the current plan, the target must be waiting for an approval with nothing running, and the identity must be the one admission stamped. The first check that fails is the message kubectl prints after 'denied the request:'.",
    why: "An approval is admitted only while its plan is current and waiting, so an approval cannot be written ahead of its plan or reused for another. Paste the whole kubectl line into kubectl ptah explain to be told which check failed and what to do.",
    operatorNext: "Nothing was stored; the schema or migration keeps waiting (or keeps doing what it was doing).",
    userAction:
      "Build the approval from the current plan with kubectl ptah approve, which checks the same things first and prints a manifest for kubectl create -f -. A plan that moved on needs an approval of the new plan.",
    next: [
      { command: "kubectl ptah approve <schema> --dry-run=server", purpose: "ask admission whether it would accept an approval now" },
      { command: "kubectl ptah inbox -A", purpose: "list the plans that wait for an approval" },
    ],
    related: ["concept/approval", "concept/four-eyes", "reason/plan-no-longer-current"],
  },
  "acknowledgment-refused": {
    summary: "Admission refused a run acknowledgment: the message names the check",
    appliesTo: ["PtahMigrationRunAcknowledgment", "PtahMigration"],
    aliases: ["acknowledgment rejected", "acknowledgment refused", "acknowledgement rejected"],
    meaning:
      "The operator's acknowledgment webhook admits a PtahMigrationRunAcknowledgment only when it names the migration by name and UID and the operationID of the run the migration records as unresolved, and when its identity is the one admission stamped.",
    why: "An acknowledgment settles one unresolved run; naming another run, or a migration that was replaced, would settle something nobody accounted for.",
    operatorNext: "Nothing was stored; the migration stays Blocked on its unresolved run.",
    userAction: "Let kubectl ptah acknowledge build the manifest from the migration as it is now, then create it.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "the unresolved run's operation ID" },
      { command: "kubectl ptah status -A --stuck", purpose: "list the migrations with an unresolved run" },
    ],
    related: ["concept/acknowledgment", "concept/unresolved-run", "reason/run-not-unresolved"],
  },
  "nothing-applies": {
    summary: "Nothing is applied: the schema waits on policy, an approval or its realm",
    appliesTo: [...OWNERS],
    aliases: ["nothing applies", "nothing is applied", "not applying", "changes not applied"],
    meaning:
      "A schema or migration that plans but never applies is waiting on one of: spec.policy.apply: Never (ApplyDisabled), a destructive plan the policy disallows (DestructiveChangesDisabled), an approval nobody has written (AwaitingApproval), suspension, or a realm that refuses it (RealmConflict, RealmNotAuthorized).",
    why: "The operator applies only what its policy and an approval allow; every wait is written as Ready=False with the reason that holds it.",
    operatorNext: "It keeps re-resolving on its interval and applies as soon as what holds it changes.",
    userAction: "Read Ready's reason with kubectl ptah status and explain that reason; approve the plan when it waits for an approval.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "the reason that holds it, and the next command" },
      { command: "kubectl ptah status -A", purpose: "list every schema and migration with its phase and reason" },
    ],
    related: ["reason/apply-disabled", "reason/destructive-changes-disabled", "reason/awaiting-approval"],
  },
  "tables-still-there": {
    summary: "Deleting a PtahSchema never drops the database objects it managed",
    appliesTo: [...OWNERS],
    aliases: ["tables still there", "tables not dropped", "delete schema keeps tables"],
    meaning: "Deleting a PtahSchema (or a PtahMigration) removes the Kubernetes object; the tables, columns and rows it created stay in the database.",
    why: "Dropping data because an object was deleted (by mistake, by a GitOps prune) would be unrecoverable; removing database objects is a plan a person approves.",
    operatorNext: "Deletion waits only for operations that hold the database lock (Apply, Plan, a proving Observe), then the object goes.",
    userAction: "To drop objects, change the desired schema so the plan drops them, allow destructive changes, and approve that plan before deleting the PtahSchema.",
    next: [
      { command: "kubectl ptah plan <schema>", purpose: "see whether the current plan drops anything" },
      { command: "kubectl ptah status -A", purpose: "list the schemas that still exist" },
    ],
    related: ["concept/destructive", "concept/plan"],
  },
  "registry-auth-fails": {
    summary: "The artifact's registry refused the operator's credentials",
    appliesTo: ["PtahSchema", "PtahMigration"],
    aliases: ["registry auth fails", "registry authentication failed", "pull secret", "image pull secret"],
    meaning:
      "The operator resolves the artifact's OCI reference to a digest with the pull secrets the object names; a registry that refuses them leaves the source unresolved (ResolveFailed, or RefreshFailed for a source resolved before).",
    why: "Without a digest there is no artifact to verify or plan from; the operator fails closed rather than use an older copy as current.",
    operatorNext: "It retries on its interval; the phase stays where resolution failed.",
    userAction: "Check the pull secret the spec names (its namespace, its registry host, that it is current), then wait for the next resolve.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "ArtifactResolved's reason and message" },
      { command: "kubectl ptah status -A", purpose: "list the schemas and migrations and their phases" },
    ],
    related: ["reason/resolve-failed", "reason/refresh-failed", "concept/status-unknown"],
  },
  "status-unknown": {
    summary: "ArtifactResolved=Unknown: the registry could not be read (fails closed)",
    appliesTo: ["PtahSchema"],
    aliases: ["status Unknown", "artifact unknown", "ArtifactResolved Unknown"],
    meaning:
      "A condition with status Unknown says the operator cannot tell. ArtifactResolved=Unknown with reason RefreshFailed means a source resolved before could not be refreshed: the registry did not answer or refused.",
    why: "The operator does not treat an old digest as current while it cannot prove it is; planning and applying wait.",
    operatorNext: "It keeps refreshing on its interval and carries on once the registry answers.",
    userAction: "Check the registry and the pull secret from inside the cluster; nothing needs undoing once it answers.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "the condition's reason and message" },
      { command: "kubectl ptah status -A", purpose: "list every schema with its phase" },
    ],
    related: ["reason/refresh-failed", "condition/schema/artifact-resolved", "concept/registry-auth-fails"],
  },
  "digest-refused": {
    summary: "The verification policy requires a digest-pinned artifact reference",
    appliesTo: ["PtahSchema", "PtahMigration"],
    aliases: ["digest refused", "digest required", "pin the digest"],
    meaning:
      "The verification policy the object names accepts only an artifact reference pinned by digest (…@sha256:…); a tag alone is refused (ArtifactVerified=False, PolicyRefused).",
    why: "A tag can be moved to other content; a digest names exactly the bytes that were reviewed.",
    operatorNext: "Nothing is planned from the refused artifact; it re-verifies when the spec or the policy changes.",
    userAction: "Write the artifact reference with its digest (the registry shows it for the tag you meant).",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "ArtifactVerified's reason and message" },
      { command: "kubectl ptah status -A", purpose: "list the schemas and their phases" },
    ],
    related: ["reason/policy-refused", "condition/schema/artifact-verified"],
  },
  "plan-too-large": {
    summary: "A plan above the 8 MiB limit is not published",
    appliesTo: ["PtahSchema", "PtahSchemaPlan"],
    aliases: ["plan too large", "plan size limit", "8 MiB"],
    meaning: "The operator stores a plan's exact bytes in immutable chunks and refuses a plan larger than 8 MiB.",
    why: "Every plan is kept, read back and verified by fingerprint; an unbounded plan would not fit the API server's objects.",
    operatorNext: "No plan is published for that change; the schema's conditions carry the operator's message.",
    userAction: "Split the change into smaller steps (fewer tables per revision), or move bulk data into a migration.",
    next: [
      { command: "kubectl ptah status <schema>", purpose: "PlanReady's reason and message" },
      { command: "kubectl ptah status -A", purpose: "list the schemas and their phases" },
    ],
    related: ["concept/plan", "concept/chunk"],
  },
  "install-fails": {
    summary: "The operator did not install: check its CRDs and its manager",
    appliesTo: ["PtahSchema"],
    aliases: ["install fails", "install failed", "confirm it installed"],
    meaning:
      "Upstream's install check: every CRD of the group operator.ptah.run has Established=True, and the manager Deployment is Available. When it is not, pull secrets for the manager and executor images are a common cause.",
    why: "Without the CRDs nothing can be created; without the manager nothing is reconciled and admission's webhooks refuse or time out.",
    operatorNext: "Nothing runs until the manager is up.",
    userAction: "Run kubectl ptah doctor: it checks the CRDs, the admission configuration and your permissions.",
    next: [
      { command: "kubectl ptah doctor", purpose: "what is installed, and what is missing" },
      { command: "kubectl get crd ptahschemas.operator.ptah.run ptahmigrations.operator.ptah.run", purpose: "two of the operator's CRDs, and whether they exist" },
    ],
    related: ["concept/registry-auth-fails", "concept/four-eyes"],
  },
  "read-a-plan": {
    summary: "Read a plan before you approve it: its SQL, lock impact and risks",
    appliesTo: ["PtahSchemaPlan", "PtahMigrationPlan", "PtahSchema", "PtahMigration"],
    aliases: ["read a plan", "read the plan", "review a plan"],
    meaning:
      "A schema's current plan is the exact SQL the operator would run, stored in chunks and named by a fingerprint. kubectl ptah plan verifies it against that fingerprint and prints each statement with its severity; --locks adds the PostgreSQL locks each statement takes.",
    why: "An approval names one plan by its fingerprint: what you read is what runs.",
    operatorNext: "The plan waits for an approval while it stays current; a new plan replaces it when an input changes.",
    userAction: "Read the plan, then approve it with kubectl ptah approve.",
    next: [
      { command: "kubectl ptah plan <schema> --locks", purpose: "the verified SQL and the locks it takes" },
      { command: "kubectl ptah inbox -A", purpose: "list the plans that wait for an approval" },
    ],
    related: ["concept/plan", "concept/fingerprint", "concept/approval"],
  },
  "realm-sharing": {
    summary: "PtahRealm sharing: Exclusive (one claimant) or Shared — not a lock mode",
    appliesTo: ["PtahRealm", ...OWNERS],
    aliases: ["sharing", "sharing Exclusive", "sharing Shared", "exclusive realm"],
    alsoNamed: ["exclusive"],
    meaning:
      "spec.sharing of a PtahRealm says how many schemas and migrations may claim its database. Under Exclusive, a second claimant makes the operator refuse every claimant (RealmConflict), whatever their spec.target.sharedRealm says. Under Shared, claimants coexist when each sets spec.target.sharedRealm. This is the realm's word, not PostgreSQL's EXCLUSIVE lock mode.",
    why: "Two writers of one database without coordination would fight over its schema.",
    operatorNext: "Nothing runs against the realm while it is contested; it re-checks every interval.",
    userAction: "Remove the extra claimant, or ask the administrator whether the realm should be Shared (then every claimant sets sharedRealm).",
    next: [
      { command: "kubectl get ptahrealm <realm> -o yaml", purpose: "read the realm's sharing and namespaces (an administrator may)" },
      { command: "kubectl ptah status -A", purpose: "list the schemas and migrations and their reasons (RealmConflict)" },
    ],
    related: ["concept/realm", "reason/realm-conflict", "concept/exclusive"],
  },
  "history-read": {
    summary: "A run settled by reading the history (resolvedRun.resolution)",
    appliesTo: ["PtahMigration"],
    aliases: ["HistoryRead", "resolution HistoryRead", "settled by history"],
    meaning:
      "status.resolvedRun.resolution: HistoryRead says an unresolved run was settled because a read of the database's revision history showed nothing pending; nobody acknowledged it, so acknowledgmentRef and acknowledgedBy are empty. Acknowledged is the other value: a person settled it with a PtahMigrationRunAcknowledgment.",
    why: "A history read is evidence of what the run did; when it shows the run's versions applied (or none), the operator needs no person's word.",
    operatorNext: "The migration plans again from the history it read.",
    userAction: "Nothing to do; kubectl ptah migration shows the settled run and how.",
    next: [
      { command: "kubectl ptah migration <migration>", purpose: "the settled run, its outcome and resolution" },
      { command: "kubectl ptah status -A --stuck", purpose: "list the migrations still waiting on an unresolved run" },
    ],
    related: ["concept/unresolved-run", "concept/acknowledgment", "reason/history-matched"],
  },
} satisfies Record<(typeof SYMPTOM_CONCEPTS)[number] | (typeof FAQ_CONCEPTS)[number], KindedTopicText>;
