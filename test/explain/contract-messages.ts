// The operator's messages as the contract quotes them, and the topic each belongs to: this
// fixture's own transcription of operator-api.md (the schema approval refusals in check order, the
// migration and acknowledgment lists after them, the condition tables of §3.1–3.3) and
// upstream-2026-12-05.md (four-eyes with the username, the manager-state guard). Written here, never
// read from the matcher's table. Markers as the contract writes them: %q a Go-quoted name, %d a
// number, %s an operation, … error text, <username>, <outcome>.
type Row = readonly [topic: string, text: string];

const APPROVAL = "concept/approval-refused";
const CURRENT = "reason/plan-no-longer-current";

/** "Schema approval refusal messages (newest handler), in check order", then identity and update rules. */
export const SCHEMA_APPROVAL: readonly Row[] = [
  [APPROVAL, "approval must explicitly identify the schema name and UID"],
  [APPROVAL, "approval must explicitly identify the plan name and UID"],
  [APPROVAL, "approval must explicitly identify the plan fingerprint"],
  [APPROVAL, "read referenced plan: …"],
  [APPROVAL, "referenced plan is being deleted"],
  [CURRENT, "referenced plan UID does not match; the plan was replaced"],
  [APPROVAL, "approval schema reference does not match the plan"],
  ["concept/fingerprint", "approval plan fingerprint does not match the immutable plan"],
  [APPROVAL, "referenced plan contract is not supported: …"],
  ["reason/execution-binding-changed", "referenced plan was computed under an execution binding this manager does not run"],
  ["concept/chunk", "referenced plan storage is not ready"],
  [APPROVAL, "read referenced schema: …"],
  [APPROVAL, "referenced schema is being deleted"],
  [CURRENT, "schema UID does not match the plan binding"],
  [CURRENT, "referenced plan is no longer current for the schema"],
  [APPROVAL, "referenced schema is not awaiting approval"],
  [APPROVAL, "referenced schema does not currently require approval"],
  ["reason/operation-in-progress", "referenced schema has an active operation"],
  ["reason/superseded-approval", "referenced plan already has a recorded approval"],
  ["concept/no-spec-writer", "schema requires a distinct approver, and no spec writer is recorded for it"],
  ["concept/self-approval", "schema requires a distinct approver, and <username> last changed its spec"],
  ["concept/realm", "derive current database coordination digest: …"],
  [CURRENT, "schema source or target changed after the plan was generated"],
  ["reason/policy-changed", "verification policy changed after the plan was generated"],
  [APPROVAL, "authenticated approval username is empty"],
  [APPROVAL, "reserved approver identity fields do not match the authenticated request"],
  [APPROVAL, "approval identity was not stamped by the mutating admission webhook"],
  [APPROVAL, "approvedAt was not stamped by the admission webhook"],
  [APPROVAL, "only create and metadata-preserving updates are supported"],
  [APPROVAL, "approval spec is immutable; create a new approval"],
  [APPROVAL, "approval namespace does not match the admission request"],
];

/** "Migration approval refusals are analogous (kind word migration), plus: …" */
export const MIGRATION_APPROVAL: readonly Row[] = [
  [APPROVAL, "approval must explicitly identify the migration name and UID"],
  [APPROVAL, "approval migration reference does not match the plan"],
  [APPROVAL, "read referenced migration: …"],
  [APPROVAL, "referenced migration is being deleted"],
  [CURRENT, "migration UID does not match the plan binding"],
  ["concept/no-spec-writer", "migration requires a distinct approver, and no spec writer is recorded for it"],
  ["concept/self-approval", "migration requires a distinct approver, and <username> last changed its spec"],
  [CURRENT, "referenced plan is no longer the migration's current plan"],
  [APPROVAL, "referenced migration is not awaiting approval"],
  [APPROVAL, "referenced migration does not currently require approval"],
  ["reason/operation-in-progress", "referenced migration has an active operation"],
  [APPROVAL, "referenced migration has no history to approve against"],
  [CURRENT, "the database's history moved after the plan was generated"],
  [CURRENT, "the database identity changed after the plan was generated"],
  [CURRENT, "the resolved artifact changed after the plan was generated"],
  [CURRENT, "an execution component changed after the plan was generated"],
  [CURRENT, "the declared coordination realm changed after the plan was generated"],
  [CURRENT, "the verification policy changed after the plan was generated"],
  [APPROVAL, "referenced plan contract version %d is not the one this manager publishes"],
];

/** "Run acknowledgment refusals" ("referenced migration is being deleted" is the approval webhook's words too). */
export const ACKNOWLEDGMENT: readonly Row[] = [
  ["concept/acknowledgment-refused", "acknowledgment must explicitly identify the migration name and UID"],
  ["concept/acknowledgment-refused", "acknowledgment must name the operationID of the unresolved run"],
  ["concept/acknowledgment-refused", "referenced migration UID does not match; the migration was replaced"],
  ["reason/run-not-unresolved", "referenced migration records no unresolved run"],
  ["reason/run-not-unresolved", "referenced migration's unresolved run is operation %s, not the one this acknowledgment names"],
];

/** The chart's policies: the manager-state guard's two messages and the apply-policy guard's. */
export const GUARDS: readonly Row[] = [
  ["concept/manager-only-status", "Ptah status is written only by the operator's manager; settle an unresolved migration run with a PtahMigrationRunAcknowledgment"],
  [
    "concept/manager-only-status",
    "The operator.ptah.run/unresolved-run annotation is the manager's copy of an unresolved run; only the manager changes it, and a PtahMigrationRunAcknowledgment is how a person settles the run",
  ],
  [
    "concept/apply-policy-guard",
    "spec.policy.apply: Always applies plans without an approval, and this cluster reserves that choice for the groups that own apply policy. Use OnApproval, or ask an apply-policy administrator to make the change.",
  ],
];

/** Condition messages (§3.1–3.3): each is its reason's topic. */
export const CONDITIONS: readonly (readonly [reason: string, text: string])[] = [
  ["waiting", "Create an approval bound to the current plan fingerprint"],
  ["approval-revoked", "The recorded approval is missing, replaced, or no longer matches the current plan"],
  ["approval-revoked", "No Apply Job was started with the invalid approval"],
  ["awaiting-approval", "The current plan requires a new approval"],
  [
    "destructive-changes-disabled",
    "Plan contains destructive changes and policy disallows them; read them with kubectl ptah plan, then either narrow the desired schema or set spec.policy.allowDestructive",
  ],
  ["apply-disabled", "Policy records plans but does not apply them"],
  ["published", "Exact plan bytes are stored in immutable chunks"],
  ["job-completed", "Apply Job completed; convergence observation is pending"],
  ["verifying-convergence", "Apply completion has not yet been independently observed"],
  ["protected-table", "No plan may change a table spec.policy.protectedTables fences off"],
  ["protected-table", "The artifact asks for a change to a protected table, so the managed scope cannot converge"],
  ["protected-table", "Remove the protectedTables entry to plan the change, or write the rows as a migration"],
  ["policy-changed", "The plan is stale because verification policy bytes changed"],
  ["policy-changed", "Any plan for the previous verification policy is stale"],
  ["policy-changed", "In-sync status requires verification against the current policy bytes"],
  ["policy-changed", "Post-Apply proof completed, but the artifact requires verification against the current policy"],
  ["policy-changed", "Artifact verification must run again"],
  ["policy-changed", "Artifact verification against the current policy is pending"],
  ["stale-observation", "Database state must be observed again before planning"],
  ["inputs-changed", "Operation result was discarded because desired inputs changed"],
  ["proof-inputs-changed", "Post-apply observation will restart from its durable binding"],
  [
    "realm-not-authorized",
    "The PtahRealm %q does not admit this resource: it does not exist, it does not list namespace %q, or it names another engine. Nothing runs against the database until an administrator admits the namespace, and this resource is not counted against the ones the realm does admit.",
  ],
  [
    "realm-conflict",
    "This database realm is claimed by %d resources (%d PtahSchema, %d PtahMigration), and its PtahRealm %q admits one at a time. Nothing runs against the database until the others stop claiming it.",
  ],
  [
    "realm-conflict",
    "This database realm is claimed by %d resources (%d PtahSchema, %d PtahMigration) and %d of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.",
  ],
  ["realm-conflict", "No plan is approvable while the database realm is contested"],
  ["realm-not-authorized", "No plan is approvable while the database realm does not admit this resource"],
  ["realm-conflict", "No Apply operation is authorized while the database realm is contested"],
  ["realm-not-authorized", "No Apply operation is authorized while the database realm does not admit this resource"],
  ["current-plan", "The approval exactly matches the current immutable plan"],
  ["current-plan", "The approved plan is current"],
  ["dispatch-committed", "The exact plan was committed to one Apply Job dispatch"],
  ["plan-no-longer-current", "The approval does not match the current immutable plan"],
  ["plan-no-longer-current", "The approved plan no longer matches the current database state"],
  ["superseded-approval", "Another approval already reserves this exact immutable plan"],
  ["execution-binding-changed", "The approved plan uses an execution binding that is no longer configured"],
  ["not-required", "The apply policy is Never, so no approval is consulted"],
  ["apply-disabled", "%d migrations are pending and the apply policy is Never"],
  ["apply-disabled", "The apply policy is Never, so nothing runs from here"],
  ["not-required", "The apply policy is Always, so no approval is required"],
  ["apply-pending", "%d migrations are planned"],
  ["apply-pending", "An Apply of %d planned migrations is what happens next"],
  ["awaiting-approval", "%d planned migrations need an approval naming this plan"],
  ["awaiting-approval", "The plan is waiting for the approval its policy requires"],
  ["awaiting-approval", "Nothing runs until a person writes the approval"],
  ["approved-plan", "Applying %d planned migrations"],
  ["satisfied", "The plan's approval requirements are satisfied"],
  ["plan-no-longer-current", "the resolved artifact changed after the plan was published"],
  ["plan-no-longer-current", "an execution component changed after the plan was published"],
  ["plan-no-longer-current", "the apply policy changed after the plan was published"],
  ["plan-no-longer-current", "the verification policy was replaced after the plan was published"],
  ["apply-outcome-unknown", "A %s run nobody accounted for is recorded against this database; establish what it did before another Apply"],
  ["apply-outcome-unknown", "A %s run nobody accounted for was restored from the operator.ptah.run/unresolved-run annotation; establish what it did before another Apply"],
  ["apply-outcome-unknown", "What the recorded run did is unknown until the database is read"],
  ["apply-outcome-unknown", "The recorded run may not be retried"],
  ["run-acknowledged", "<username> acknowledged the <outcome> run; the database is read again before anything is planned"],
  ["lease-continuity-lost", "The database lock epoch changed under the running operation"],
  ["dispatch-committed", "The approved plan was dispatched"],
  ["run-acknowledged", "The acknowledgment settled the unresolved run it names"],
  ["run-not-unresolved", "The acknowledgment carries no identity stamped by admission, so it settles nothing"],
  ["run-not-unresolved", "The migration is waiting on operation %s, not the one this acknowledgment names"],
  ["run-not-unresolved", "The run was already settled (%s)"],
  ["run-not-unresolved", "The migration records no unresolved run for this acknowledgment to settle"],
  ["published", "Verified %d immutable plan chunks"],
];

// "A %s run" is an outcome word; "already settled (%s)" is free text.
const outcomeAt = (text: string): boolean => text.startsWith("A %s run");
export const CASES: readonly { topic: string; text: string }[] = [
  ...[...SCHEMA_APPROVAL, ...MIGRATION_APPROVAL, ...ACKNOWLEDGMENT, ...GUARDS].map(([topic, text]) => ({ topic, text })),
  ...CONDITIONS.map(([reason, text]) => ({ topic: `reason/${reason}`, text: outcomeAt(text) ? text.replace("%s", "<outcome>") : text })),
];
