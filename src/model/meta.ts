// Wire shapes shared by every kind: object metadata, conditions, references, identities.
// Every field is optional on read (the operator adds and drops fields over time) except
// what a Kubernetes object cannot lack; unknown fields are dropped from the parsed form.
import { z } from "zod";

export const OwnerReference = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  uid: z.string().optional(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof OwnerReference>;

export const ObjectMeta = z.object({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  generation: z.number().int().optional(),
  resourceVersion: z.string().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(OwnerReference).optional(),
});
export type ObjectMeta = z.infer<typeof ObjectMeta>;

export const ConditionStatus = z.string(); // True | False | Unknown; anything else is shown as sent
export const Condition = z.object({
  type: z.string(),
  status: ConditionStatus,
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
  observedGeneration: z.number().int().optional(),
});
export type Condition = z.infer<typeof Condition>;

export const Conditions = z.array(Condition).default(() => []);

/** ImmutableObjectReference: a name plus the UID as of writing. */
export const ObjectRef = z.object({
  name: z.string().optional(),
  uid: z.string().optional(),
});
export type ObjectRef = z.infer<typeof ObjectRef>;

/** ApprovalIdentity, stamped by the admission webhook. */
export const ApprovalIdentity = z.object({
  username: z.string().optional(),
  uid: z.string().optional(),
  groups: z.array(z.string()).optional(),
});
export type ApprovalIdentity = z.infer<typeof ApprovalIdentity>;

export const SecretKeySelector = z.object({
  name: z.string().optional(),
  key: z.string().optional(),
  optional: z.boolean().optional(),
});
