// Zod models of every operator.ptah.run/v1alpha1 kind the plugin reads.
// PtahResultRecord is deliberately absent: a read-only inspector never reads it.
import { z } from "zod";
import { head, int, str } from "./fields.ts";
import { PtahSchemaApproval, PtahMigrationApproval, PtahMigrationRunAcknowledgment } from "./approvals.ts";
import { PtahMigration, PtahMigrationPlan } from "./migration.ts";
import { PtahSchema } from "./ptah-schema.ts";
import { PtahSchemaPlan, PtahSchemaPlanChunk, ChunkConfigMap } from "./schema-plan.ts";

export * from "./ptah-schema.ts";
export * from "./schema-plan.ts";
export * from "./approvals.ts";
export * from "./migration.ts";

// ---------------------------------------------------------------- core kinds the plugin reads

export const KubeEvent = z.object({
  ...head,
  involvedObject: z.object({ kind: str, name: str, namespace: str, uid: str, apiVersion: str }).optional(),
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

/**
 * Each kind the plugin reads (parse.ts's KINDS) → its model: the one source of the validators,
 * zod's in the sources and tests, the code src/model/codegen.ts makes of them in the bundle.
 */
export const MODELS = {
  PtahSchema,
  PtahSchemaPlan,
  PtahSchemaPlanChunk,
  PtahSchemaApproval,
  PtahMigration,
  PtahMigrationPlan,
  PtahMigrationApproval,
  PtahMigrationRunAcknowledgment,
  ConfigMap: ChunkConfigMap,
  Event: KubeEvent,
} as const;
