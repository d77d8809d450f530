// PtahSchema: the desired schema, its current plan and what was applied.
import { z } from "zod";
import { ApprovalIdentity, Conditions, ObjectRef, SecretKeySelector } from "./meta.ts";
import { bool, head, int, optionalSpec, recordedBindings, stateBindings, str, strList } from "./fields.ts";

export const CurrentPlanStatus = z.object({
  name: str,
  uid: str,
  fingerprint: str,
  contentDigest: str,
  ...recordedBindings,
  ...stateBindings,
  destructive: bool,
  privilegeChanges: strList,
  statementCount: int,
  createdAt: str,
  approval: z.object({ name: str, uid: str, approver: ApprovalIdentity.optional(), approvedAt: str }).optional(),
});
export type CurrentPlanStatus = z.infer<typeof CurrentPlanStatus>;

/** Which manager built and dispatched an Apply Job, and its runner (audit only; binds nothing). */
export const ManagerRecord = z.object({ controllerImage: str, controllerRevision: str, runnerImage: str });
export type ManagerRecord = z.infer<typeof ManagerRecord>;

export const AppliedStatus = z.object({
  planRef: ObjectRef.optional(),
  planFingerprint: str,
  ...recordedBindings,
  dispatchedBy: ManagerRecord.optional(),
  completedAt: str,
});
export type AppliedStatus = z.infer<typeof AppliedStatus>;

export const DriftFinding = z.object({ category: z.string(), count: int, severity: str });
export type DriftFinding = z.infer<typeof DriftFinding>;

/** Post-Apply proof still owed: what is known of the Apply, and when proof may start. */
export const PendingObservation = z.object({
  outcome: str,
  applyOperationID: str,
  applyJobName: str,
  applyGeneration: int,
  observeAfter: str,
  plan: CurrentPlanStatus.optional(),
  dispatchedBy: ManagerRecord.optional(),
  planRequired: bool,
  leaseEpoch: str,
});
export type PendingObservation = z.infer<typeof PendingObservation>;

/** A realm Lease kept until its release succeeds (PtahSchema and PtahMigration). */
export const PendingLockRelease = z.object({ coordinationDigest: str, operationID: str, leaseDurationSeconds: int, leaseEpoch: str });
export type PendingLockRelease = z.infer<typeof PendingLockRelease>;

/** What a retired execution binding still owes: its plan's approvals to mark stale, its Job's cleanup. */
export const BindingRetirement = z.object({
  retiredEpoch: str,
  plan: z.object({ name: str, uid: str, fingerprint: str }).optional(),
  job: z.object({ operation: str, name: str, uid: str }).optional(),
});
export type BindingRetirement = z.infer<typeof BindingRetirement>;

export const ActiveOperation = z.object({
  type: str,
  id: str,
  jobName: str,
  startedAt: str,
  attempt: int,
  approvalRef: ObjectRef.optional(),
  planRef: ObjectRef.optional(),
  jobUID: str,
  // A declared retry delay: before it, an operation past its deadline is waiting, not stalled.
  retryNotBefore: str,
});
export type ActiveOperation = z.infer<typeof ActiveOperation>;

export const PtahSchema = z.object({
  ...head,
  spec: optionalSpec({
    target: z
      .object({
        engine: str,
        coordinationKey: str,
        realmRef: z.object({ name: str }).optional(),
        sharedRealm: bool,
        urlFrom: SecretKeySelector.optional(),
      })
      .optional(),
    desired: z.object({ ociRef: str }).optional(),
    policy: z
      .object({
        apply: str,
        allowDestructive: bool,
        driftSeverity: str,
        protectedTables: strList,
        // How the operator's apply holds its locks: read by the lock analyser (docs/locks.md).
        lockTimeout: str,
        transactionMode: str,
      })
      .optional(),
    interval: str,
    execution: z.object({ activeDeadlineSeconds: int }).optional(),
    suspend: bool,
  }),
  status: z
    .object({
      observedGeneration: int,
      phase: str,
      source: z
        .object({
          requestedReference: str,
          resolvedReference: str,
          digest: str,
          verified: bool,
          resolvedAt: str,
          verifiedAt: str,
        })
        .optional(),
      target: z
        .object({
          engine: str,
          lastObservedAt: str,
          highestDriftSeverity: str,
          driftFindingCount: int,
          driftFindings: z.array(DriftFinding).optional(),
          // Older operators only: the newest CRD never truncates the list (128 categories' room).
          driftFindingsTruncated: bool,
        })
        .optional(),
      plan: CurrentPlanStatus.optional(),
      applied: AppliedStatus.optional(),
      pendingObservation: PendingObservation.optional(),
      pendingLockRelease: PendingLockRelease.optional(),
      pendingBindingRetirement: BindingRetirement.optional(),
      activeOperation: ActiveOperation.optional(),
      lastAttemptTime: str,
      lastSuccessfulReconciliation: str,
      nextReconciliationTime: str,
      conditions: Conditions,
    })
    .default(() => ({ conditions: [] })),
});
export type PtahSchema = z.infer<typeof PtahSchema>;
