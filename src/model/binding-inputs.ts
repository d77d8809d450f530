// The inputs of the schema plan fingerprint that a plan spec states, named
// as the plan spec names them, in the fingerprint's order. The schema UID is left out: two plans
// of one schema share it by construction. No zod: offline code (explain) reads these names too.

export const PLAN_BINDING_INPUTS = [
  "contractVersion",
  "contentDigest",
  "artifactDigest",
  "coordinationDigest",
  "targetIdentityDigest",
  "actualStateFingerprint",
  "desiredStateFingerprint",
  "policyFingerprint",
  "verificationPolicyUID",
  "verificationPolicyDigest",
  "executionBindingID",
  "controllerStateVersion",
  "ptahVersion",
  "executorImage",
  "runnerProtocolVersion",
  "destructive",
  "privilegeChanges",
  "statementCount",
] as const;

export type PlanBindingInput = (typeof PLAN_BINDING_INPUTS)[number];

/** A value a binding input can hold (privilege changes are a normalised list). */
export type PlanBindingValue = string | number | boolean | readonly string[];
