// Zod models of every operator.ptah.run/v1alpha1 kind the plugin reads (operator-api §2).
// PtahResultRecord is deliberately absent: a read-only inspector never reads it.
import { z } from "zod";
import { head, int, str } from "./fields.ts";

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
