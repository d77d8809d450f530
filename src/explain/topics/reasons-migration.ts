// Knowledge-base text: reasons specific to migrations — history verdicts and run
// acknowledgments.
import type { KindedTopicText } from "../knowledge-types.ts";
import type { Reason } from "../vocabulary.ts";

const SHOW_MIGRATION = { command: "kubectl ptah migration <migration>", purpose: "see the history, plan and conditions" } as const;

export const MIGRATION_REASON_TOPICS = {
  HistoryAhead: {
    summary: "The database records a migration the artifact does not have",
    appliesTo: ["PtahMigration"],
    aliases: ["history ahead", "ahead"],
    meaning: "Blocked=True and Ready=False: the revision table contains a version that the migration artifact lacks.",
    why: "The artifact was rolled back to an older version, or someone applied a migration from elsewhere.",
    operatorNext: "It plans and runs nothing and never rolls the database back; it reads again every interval.",
    userAction: "Point the migration at an artifact that contains every applied version, or repair the database's history.",
    next: [SHOW_MIGRATION],
    related: ["condition/migration/blocked", "reason/history-out-of-order", "phase/migration/blocked"],
  },
  HistoryDirty: {
    summary: "A failed or interrupted run left a dirty revision row",
    appliesTo: ["PtahMigration"],
    aliases: ["dirty", "dirty history"],
    meaning: "Blocked=True and Ready=False: the revision table marks a migration as dirty (status.history.dirty), so its effect is unknown.",
    why: "A run failed or was interrupted in the middle of a migration.",
    operatorNext: "It plans and runs nothing and re-reads the history every interval.",
    userAction: "Repair the database and the revision row with Ptah's tooling; the operator unblocks on its next read.",
    next: [SHOW_MIGRATION],
    related: ["condition/migration/blocked", "outcome/partial", "phase/migration/blocked"],
  },
  HistoryMatched: {
    summary: "The revision history and the artifact agree; nothing is pending",
    appliesTo: ["PtahMigration"],
    meaning: "Ready=True and phase InSync: every migration in the artifact is applied and nothing else is.",
    why: "The database is up to date.",
    operatorNext: "It reads the history again every interval.",
    userAction: "Nothing.",
    next: [SHOW_MIGRATION],
    related: ["condition/migration/ready", "phase/migration/in-sync", "reason/migrations-pending"],
  },
  HistoryModified: {
    summary: "An already applied migration's file changed",
    appliesTo: ["PtahMigration"],
    aliases: ["modified", "checksum mismatch"],
    meaning: "Blocked=True and Ready=False: the checksum of an applied migration in the artifact differs from the one recorded when it ran (status.history.modifiedVersions).",
    why: "Someone edited a migration file after it was applied.",
    operatorNext: "It plans and runs nothing; it reads again every interval.",
    userAction: "Restore the original file in the artifact (put changes in a new migration), or repair the recorded history deliberately.",
    next: [SHOW_MIGRATION],
    related: ["condition/migration/blocked", "reason/history-out-of-order", "phase/migration/blocked"],
  },
  HistoryOutOfOrder: {
    summary: "The artifact has a version below one already applied",
    appliesTo: ["PtahMigration"],
    aliases: ["out of order"],
    meaning: "Blocked=True and Ready=False: the artifact contains an unapplied version lower than the highest applied one (status.history.outOfOrderVersions).",
    why: "A migration was added with an old version number, often after a merge of two branches.",
    operatorNext: "It plans and runs nothing; it reads again every interval.",
    userAction: "Renumber the new migration above the highest applied version.",
    next: [SHOW_MIGRATION],
    related: ["condition/migration/blocked", "reason/history-ahead", "phase/migration/blocked"],
  },
  MigrationsPending: {
    summary: "The artifact has versions the database has not applied",
    appliesTo: ["PtahMigration"],
    aliases: ["pending migrations"],
    meaning: "The history read found migrations to run; status.history.pendingCount says how many.",
    why: "A new artifact version added migrations.",
    operatorNext: "It publishes a migration plan, then applies it or waits for approval, as policy says.",
    userAction: "Read the pending sequence; approve it if asked.",
    next: [SHOW_MIGRATION, { command: "kubectl ptah approve migration <migration> | kubectl create -f -", purpose: "approve the plan" }],
    related: ["phase/migration/planning", "condition/migration/approval-required", "reason/history-matched"],
  },
  RunAcknowledged: {
    summary: "An acknowledgment settled the unresolved run",
    appliesTo: ["PtahMigration", "PtahMigrationRunAcknowledgment"],
    aliases: ["acknowledged"],
    meaning:
      'On the migration, Blocked=False: "<user> acknowledged the <outcome> run; the database is read again before anything is planned". On the acknowledgment, Consumed=True.',
    why: "A person created a PtahMigrationRunAcknowledgment naming the run's operationID.",
    operatorNext: "It records status.resolvedRun, removes the unresolved-run record, reads the history again and plans from there.",
    userAction: "Nothing.",
    next: [SHOW_MIGRATION],
    related: ["concept/acknowledgment", "condition/acknowledgment/consumed", "event/unresolved-run-acknowledged"],
  },
  RunNotUnresolved: {
    summary: "The acknowledgment named a run the migration is not waiting on",
    appliesTo: ["PtahMigrationRunAcknowledgment"],
    meaning:
      "Stale=True on an acknowledgment. The message says which: no identity was stamped by admission, the migration waits on another operation, the run was already settled, or no run is unresolved.",
    why: "The run was settled meanwhile, or the acknowledgment was written for another run.",
    operatorNext: "It ignores the acknowledgment.",
    userAction: "If the migration is still blocked, acknowledge the run it records now.",
    next: [SHOW_MIGRATION, { command: "kubectl ptah acknowledge <migration> | kubectl create -f -", purpose: "acknowledge the current run" }],
    related: ["condition/acknowledgment/stale", "concept/unresolved-run", "reason/run-acknowledged"],
  },
} satisfies Partial<Record<Reason, KindedTopicText>>;
