// The field shapes every Ptah kind is built from: optional scalars, the
// envelope, a spec that may be missing, and the binding and status records several kinds repeat.
import { z } from "zod";
import { ApprovalIdentity, Conditions, ObjectMeta } from "./meta.ts";

export const str = z.string().optional();
export const int = z.number().int().optional();
export const bool = z.boolean().optional();
export const strList = z.array(z.string()).optional();

/** Every kind's envelope; spec and status may be missing on the wire. */
export const head = { apiVersion: str, kind: str, metadata: ObjectMeta };
export function optionalSpec<T extends z.ZodRawShape>(shape: T) {
  // Every field of a spec shape is optional, so {} is a value of it; the generic cannot show that.
  return z.object(shape).default(() => ({}) as never);
}

/** The plan bindings a schema's record repeats (required in the newest CRD). */
export const recordedBindings = {
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
export const stateBindings = {
  actualStateFingerprint: str,
  desiredStateFingerprint: str,
  policyFingerprint: str,
  verificationPolicyUID: str,
  verificationPolicyDigest: str,
};

/** The digests a plan binds, repeated by older approvals' binding copies. */
export const bindingFields = {
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

export const approvalStamp = {
  approver: ApprovalIdentity.optional(),
  approvedAt: str,
  mutationRequestUID: str,
};

export const simpleStatus = z.object({ observedGeneration: int, conditions: Conditions }).default(() => ({ conditions: [] }));
