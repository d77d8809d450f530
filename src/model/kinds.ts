// Zod models of every operator.ptah.run/v1alpha1 kind the plugin reads (operator-api §2).
// PtahResultRecord is deliberately absent: a read-only inspector never reads it.
import { z } from "zod";
import { ApprovalIdentity, Conditions, ObjectMeta, ObjectRef, SecretKeySelector } from "./meta.ts";

const str = z.string().optional();
const int = z.number().int().optional();
const bool = z.boolean().optional();
const strList = z.array(z.string()).optional();

/** Every kind's envelope; spec and status may be missing on the wire. */
const head = { apiVersion: str, kind: str, metadata: ObjectMeta };
function optionalSpec<T extends z.ZodRawShape>(shape: T) {
  return z
    .object(shape)
    .optional()
    .transform((s) => s ?? ({} as z.infer<z.ZodObject<T>>));
}

// ---------------------------------------------------------------- PtahSchema (§2.1)

/** The plan bindings a schema's record repeats (operator-api §2.1; required in the newest CRD). */
const recordedBindings = {
  artifactDigest: str,
  coordinationDigest: str,
  targetIdentityDigest: str,
  executionBindingID: str,
  controllerImage: str,
  controllerRevision: str,
  controllerStateVersion: int,
  ptahVersion: str,
  executorImage: str,
  runnerImage: str,
  runnerProtocolVersion: int,
};

/** The state and policy bindings of a plan, which status.plan repeats as well. */
const stateBindings = {
  actualStateFingerprint: str,
  desiredStateFingerprint: str,
  policyFingerprint: str,
  verificationPolicyUID: str,
  verificationPolicyDigest: str,
};

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
  approval: z
    .object({ name: str, uid: str, approver: ApprovalIdentity.optional(), approvedAt: str })
    .optional(),
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

// ---------------------------------------------------------------- PtahSchemaPlan (§2.2)

/** The digests a plan binds (§2.2), repeated by older approvals' binding copies (§2.4). */
const bindingFields = {
  artifactDigest: str,
  coordinationDigest: str,
  targetIdentityDigest: str,
  actualStateFingerprint: str,
  desiredStateFingerprint: str,
  policyFingerprint: str,
  verificationPolicyUID: str,
  verificationPolicyDigest: str,
  executionBindingID: str,
};

export const ChunkManifestEntry = z.object({
  name: str,
  index: int,
  digest: str,
  size: int,
  key: str, // older ConfigMap-era plans
});
export type ChunkManifestEntry = z.infer<typeof ChunkManifestEntry>;

export const PtahSchemaPlan = z.object({
  ...head,
  spec: optionalSpec({
      contractVersion: int,
      schemaRef: ObjectRef.optional(),
      fingerprint: str,
      contentDigest: str,
      size: int,
      ...recordedBindings,
      ...stateBindings,
      dialect: str,
      destructive: bool,
      privilegeChanges: strList,
      statementCount: int,
      chunks: z.array(ChunkManifestEntry).optional(),
  }),
  status: z
    .object({
      observedGeneration: int,
      publishedChunks: z.array(z.object({ name: str, uid: str, index: int })).optional(),
      conditions: Conditions,
    })
    .optional()
    .transform((s) => s ?? { conditions: [] }),
});
export type PtahSchemaPlan = z.infer<typeof PtahSchemaPlan>;

// ---------------------------------------------------------------- PtahSchemaPlanChunk (§2.3)

export const PtahSchemaPlanChunk = z.object({
  ...head,
  spec: optionalSpec({ data: str }),
});
export type PtahSchemaPlanChunk = z.infer<typeof PtahSchemaPlanChunk>;

/** Older installs stored chunks in immutable ConfigMaps under binaryData key `chunk`. */
export const ChunkConfigMap = z.object({
  ...head,
  immutable: bool,
  binaryData: z.record(z.string(), z.string()).optional(),
});
export type ChunkConfigMap = z.infer<typeof ChunkConfigMap>;

// ---------------------------------------------------------------- approvals (§2.4, §2.7, §2.8)

const approvalStamp = {
  approver: ApprovalIdentity.optional(),
  approvedAt: str,
  mutationRequestUID: str,
};

const simpleStatus = z
  .object({ observedGeneration: int, conditions: Conditions })
  .optional()
  .transform((s) => s ?? { conditions: [] });

export const PtahSchemaApproval = z.object({
  ...head,
  spec: optionalSpec({
      schemaRef: ObjectRef.optional(),
      planRef: ObjectRef.optional(),
      planFingerprint: str,
      ...approvalStamp,
      // Older generations: binding copies the webhook hydrated from the plan (§2.4). Read only.
      ...bindingFields,
      controllerStateVersion: int,
      ptahVersion: str,
      executorImage: str,
      runnerProtocolVersion: int,
  }),
  status: simpleStatus,
});
export type PtahSchemaApproval = z.infer<typeof PtahSchemaApproval>;

export const PtahMigrationApproval = z.object({
  ...head,
  spec: optionalSpec({
      migrationRef: ObjectRef.optional(),
      planRef: ObjectRef.optional(),
      planFingerprint: str,
      ...approvalStamp,
  }),
  status: simpleStatus,
});
export type PtahMigrationApproval = z.infer<typeof PtahMigrationApproval>;

export const PtahMigrationRunAcknowledgment = z.object({
  ...head,
  spec: optionalSpec({
      migrationRef: ObjectRef.optional(),
      operationID: str,
      acknowledgedBy: ApprovalIdentity.optional(),
      acknowledgedAt: str,
      mutationRequestUID: str,
  }),
  status: simpleStatus,
});
export type PtahMigrationRunAcknowledgment = z.infer<typeof PtahMigrationRunAcknowledgment>;

// ---------------------------------------------------------------- PtahMigration (§2.5)

export const UnresolvedRun = z.object({
  outcome: str,
  operationID: str,
  jobName: str,
  planRef: ObjectRef.optional(),
  recordedAt: str,
});
export type UnresolvedRun = z.infer<typeof UnresolvedRun>;

export const PtahMigration = z.object({
  ...head,
  spec: optionalSpec({
      artifact: z.object({ ociRef: str }).optional(),
      policy: z.object({ apply: str, lockTimeout: str, transactionMode: str }).optional(),
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
          startedAt: str,
          finishedAt: str,
          appliedVersions: z.array(z.number().int()).optional(),
          message: str,
        })
        .optional(),
      unresolvedRun: UnresolvedRun.optional(),
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
      conditions: Conditions,
    })
    .optional()
    .transform((s) => s ?? { conditions: [] }),
});
export type PtahMigration = z.infer<typeof PtahMigration>;

// ---------------------------------------------------------------- PtahMigrationPlan (§2.6)

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

// ---------------------------------------------------------------- core kinds the plugin reads

export const KubeEvent = z.object({
  ...head,
  involvedObject: z
    .object({ kind: str, name: str, namespace: str, uid: str, apiVersion: str })
    .optional(),
  reason: str,
  message: str,
  type: str,
  count: int,
  firstTimestamp: str,
  lastTimestamp: str,
  eventTime: str,
  reportingComponent: str,
  source: z.object({ component: str }).optional(),
});
export type KubeEvent = z.infer<typeof KubeEvent>;
