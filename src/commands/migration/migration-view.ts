// What `migration` prints: history, the pending sequence, the last run and
// conditions, never SQL or rows; plus the unresolved run and the acknowledgment to run next.
// The view model; its text and JSON are commands/migration/migration-text.ts.
import type { PtahMigration, PtahMigrationPlan } from "../../model/kinds.ts";
import { dispatcherWords, settlementOf, type Settlement } from "../shared/run-audit.ts";

export interface MigrationView {
  readonly namespace: string;
  readonly migration: string;
  readonly phase: string;
  readonly suspended: boolean;
  readonly artifact?: { readonly reference: string; readonly digest: string };
  readonly history?: {
    readonly observedAt: string;
    readonly currentVersion: number;
    readonly checkpointVersion: number;
    readonly appliedCount: number;
    readonly pendingCount: number;
    readonly dirty: boolean;
    readonly modifiedVersions: readonly number[];
    readonly outOfOrderVersions: readonly number[];
    readonly fingerprint: string;
  };
  readonly plan?: {
    readonly name: string;
    readonly fingerprint: string;
    readonly currentVersion: number;
    readonly createdAt: string;
    readonly migrations: readonly {
      readonly version: number;
      readonly versionKey: string;
      readonly description: string;
      readonly checksum: string;
      readonly checkpoint: boolean;
      readonly transactionMode: string;
    }[];
  };
  readonly lastRun?: {
    readonly outcome: string;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly appliedVersions: readonly number[];
    readonly message: string;
    readonly jobName: string;
    readonly jobUID: string;
    /** Which manager dispatched the run and its runner, as one line ("" when not recorded). */
    readonly dispatchedBy: string;
  };
  /** The last recorded run settled (status.resolvedRun), in words. */
  readonly resolvedRun?: Settlement;
  /** Ours: a Partial/Unknown run that blocks everything until it is settled. */
  readonly unresolvedRun?: {
    readonly outcome: string;
    readonly operationID: string;
    readonly jobName: string;
    readonly recordedAt: string;
    /** The command that settles it once a person knows what the run did. */
    readonly nextCommand: string;
  };
  readonly conditions: readonly { readonly type: string; readonly status: string; readonly reason: string; readonly message: string }[];
}

/**
 * `plan` is the migration's current plan only when it is still the object the migration names
 * (same UID, and owned by this migration); otherwise it is omitted, as upstream does.
 */
export function buildMigrationView(migration: PtahMigration, namespace: string, plan: PtahMigrationPlan | undefined): MigrationView {
  const s = migration.status;
  const name = migration.metadata.name;
  const ref = s.plan;
  const planMatches =
    plan !== undefined &&
    !!ref?.name &&
    plan.metadata.name === ref.name &&
    !!ref.uid &&
    plan.metadata.uid === ref.uid &&
    (plan.spec.migrationRef?.uid === undefined || plan.spec.migrationRef.uid === migration.metadata.uid);
  const h = s.history;
  const run = s.lastRun;
  const unresolved = s.unresolvedRun;
  const artifactRef = s.artifact?.resolvedReference ?? "";
  const artifactDigest = s.artifact?.digest ?? "";
  return {
    namespace,
    migration: name,
    phase: s.phase ?? "",
    suspended: migration.spec.suspend === true,
    ...(artifactRef || artifactDigest ? { artifact: { reference: artifactRef, digest: artifactDigest } } : {}),
    ...(h
      ? {
          history: {
            observedAt: h.observedAt ?? "",
            currentVersion: h.currentVersion ?? 0,
            checkpointVersion: h.checkpointVersion ?? 0,
            appliedCount: h.appliedCount ?? 0,
            pendingCount: h.pendingCount ?? 0,
            dirty: h.dirty === true,
            modifiedVersions: h.modifiedVersions ?? [],
            outOfOrderVersions: h.outOfOrderVersions ?? [],
            fingerprint: h.fingerprint ?? "",
          },
        }
      : {}),
    ...(planMatches
      ? {
          plan: {
            name: plan.metadata.name,
            fingerprint: plan.spec.fingerprint ?? "",
            currentVersion: plan.spec.currentVersion ?? 0,
            createdAt: plan.spec.createdAt ?? plan.metadata.creationTimestamp ?? "",
            migrations: (plan.spec.migrations ?? []).map((m) => ({
              version: m.version ?? 0,
              versionKey: m.versionKey ?? "",
              description: m.description ?? "",
              checksum: m.checksum ?? "",
              checkpoint: m.checkpoint === true,
              transactionMode: m.transactionMode ?? "",
            })),
          },
        }
      : {}),
    ...(run
      ? {
          lastRun: {
            outcome: run.outcome ?? "",
            startedAt: run.startedAt ?? "",
            finishedAt: run.finishedAt ?? "",
            appliedVersions: run.appliedVersions ?? [],
            message: run.message ?? "",
            jobName: run.jobName ?? "",
            jobUID: run.jobUID ?? "",
            dispatchedBy: dispatcherWords(run.dispatchedBy),
          },
        }
      : {}),
    ...(unresolved
      ? {
          unresolvedRun: {
            outcome: unresolved.outcome ?? "",
            operationID: unresolved.operationID ?? "",
            jobName: unresolved.jobName ?? "",
            recordedAt: unresolved.recordedAt ?? "",
            nextCommand: `kubectl ptah acknowledge ${name} -n ${namespace}`,
          },
        }
      : {}),
    ...(settlementOf(migration) ? { resolvedRun: settlementOf(migration)! } : {}),
    conditions: s.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? "", message: c.message ?? "" })),
  };
}
