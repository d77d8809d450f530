// PtahMigration and PtahMigrationPlan.
import { z } from "zod";
import { ApprovalIdentity, Conditions, ObjectRef } from "./meta.ts";
import { bool, head, int, optionalSpec, simpleStatus, str } from "./fields.ts";
import { ActiveOperation, ManagerRecord, PendingLockRelease } from "./ptah-schema.ts";

export const UnresolvedRun = z.object({
  outcome: str,
  operationID: str,
  jobName: str,
  jobUID: str,
  planRef: ObjectRef.optional(),
  recordedAt: str,
  dispatchedBy: ManagerRecord.optional(),
});
export type UnresolvedRun = z.infer<typeof UnresolvedRun>;

export const PtahMigration = z.object({
  ...head,
  spec: optionalSpec({
    artifact: z.object({ ociRef: str }).optional(),
    // Only what realm claimants are found by: the realm (named, or keyed in the namespace with its
    // engine), and whether sharing is declared.
    target: z.object({ engine: str, coordinationKey: str, realmRef: z.object({ name: str }).optional(), sharedRealm: bool }).optional(),
    policy: z.object({ apply: str, lockTimeout: str, transactionMode: str }).optional(),
    execution: z.object({ activeDeadlineSeconds: int }).optional(),
    suspend: bool,
  }),
  status: z
    .object({
      observedGeneration: int,
      phase: str,
      artifact: z.object({ resolvedReference: str, digest: str }).optional(),
      activeOperation: ActiveOperation.optional(),
      history: z
        .object({
          observedAt: str,
          contractVersion: int,
          currentVersion: int,
          checkpointVersion: int,
          appliedCount: int,
          pendingCount: int,
          fingerprint: str,
          dirty: bool,
          modifiedVersions: z.array(z.number().int()).optional(),
          outOfOrderVersions: z.array(z.number().int()).optional(),
        })
        .optional(),
      plan: ObjectRef.optional(),
      lastRun: z
        .object({
          outcome: str,
          jobName: str,
          jobUID: str,
          startedAt: str,
          finishedAt: str,
          appliedVersions: z.array(z.number().int()).optional(),
          message: str,
          dispatchedBy: ManagerRecord.optional(),
        })
        .optional(),
      unresolvedRun: UnresolvedRun.optional(),
      pendingLockRelease: PendingLockRelease.optional(),
      resolvedRun: z
        .object({
          operationID: str,
          outcome: str,
          resolution: str,
          acknowledgmentRef: ObjectRef.optional(),
          acknowledgedBy: ApprovalIdentity.optional(),
          resolvedAt: str,
        })
        .optional(),
      nextReconciliationTime: str,
      conditions: Conditions,
    })
    .default(() => ({ conditions: [] })),
});
export type PtahMigration = z.infer<typeof PtahMigration>;

// ---------------------------------------------------------------- PtahMigrationPlan

export const PlannedMigration = z.object({
  version: int,
  versionKey: str,
  description: str,
  checksum: str,
  checkpoint: bool,
  transactionMode: str,
});
export type PlannedMigration = z.infer<typeof PlannedMigration>;

export const PtahMigrationPlan = z.object({
  ...head,
  spec: optionalSpec({
    contractVersion: int,
    migrationRef: ObjectRef.optional(),
    fingerprint: str,
    migrations: z.array(PlannedMigration).optional(),
    historyFingerprint: str,
    currentVersion: int,
    createdAt: str,
  }),
  status: simpleStatus,
});
export type PtahMigrationPlan = z.infer<typeof PtahMigrationPlan>;
