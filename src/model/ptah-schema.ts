// PtahSchema (operator-api §2.1): the desired schema, its current plan and what was applied.
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

export const AppliedStatus = z.object({
  planRef: ObjectRef.optional(),
  planFingerprint: str,
  ...recordedBindings,
  completedAt: str,
});
export type AppliedStatus = z.infer<typeof AppliedStatus>;

export const DriftFinding = z.object({ category: z.string(), count: int, severity: str });
export type DriftFinding = z.infer<typeof DriftFinding>;

export const ActiveOperation = z.object({
  type: str,
  id: str,
  jobName: str,
  startedAt: str,
  attempt: int,
  approvalRef: ObjectRef.optional(),
  planRef: ObjectRef.optional(),
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
      })
      .optional(),
    interval: str,
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
          driftFindingsTruncated: bool,
        })
        .optional(),
      plan: CurrentPlanStatus.optional(),
      applied: AppliedStatus.optional(),
      activeOperation: ActiveOperation.optional(),
      lastAttemptTime: str,
      lastSuccessfulReconciliation: str,
      nextReconciliationTime: str,
      conditions: Conditions,
    })
    .optional()
    .transform((s) => s ?? { conditions: [] }),
});
export type PtahSchema = z.infer<typeof PtahSchema>;
