// The schema plan fingerprint: the approval identity computed from the
// published plan spec alone, with the operator's validation before hashing. Pure.
import { VerificationError } from "../errors.ts";
import type { PtahSchemaPlan } from "../model/kinds.ts";
import { digestCanonicalJSON, struct, type CanonicalValue } from "./canonical.ts";
import { trimSpace } from "./trim-space.ts";

/** The newest operator's `CurrentPlanContractVersion` ("Version 1 is the only one"). */
export const CURRENT_PLAN_CONTRACT_VERSION = 1;

/**
 * Contract versions this plugin reads and verifies. An earlier operator generation wrote 3 with
 * the same field set (the contract leaves that generation's key set open); we accept it so that older installs can
 * still be read, and the recomputed fingerprint must still match, so nothing is trusted blindly.
 */
export const SUPPORTED_PLAN_CONTRACT_VERSIONS: readonly number[] = [1, 3];

export const EXECUTION_BINDING_ID = /^v1-[0-9a-f]{32}$/;

/** Every input of the fingerprint, in the operator's order. */
export interface SchemaPlanBinding {
  readonly contractVersion: number;
  readonly schemaUID: string;
  readonly planContentDigest: string;
  readonly artifactDigest: string;
  readonly coordinationDigest: string;
  readonly targetIdentityDigest: string;
  readonly actualStateFingerprint: string;
  readonly desiredStateFingerprint: string;
  readonly policyFingerprint: string;
  readonly verificationPolicyUID: string;
  readonly verificationPolicyDigest: string;
  readonly executionBindingID: string;
  readonly controllerStateVersion: number;
  readonly ptahVersion: string;
  readonly executorImage: string;
  readonly runnerProtocolVersion: number;
  readonly destructive: boolean;
  readonly privilegeChanges: readonly string[];
  readonly statementCount: number;
}

/** Trimmed (as Go trims), empties dropped, de-duplicated, sorted by bytes; `[]` when empty (never null). */
export function normalizePrivilegeChanges(kinds: readonly string[] | undefined): string[] {
  const set = new Set<string>();
  for (const k of kinds ?? []) {
    const t = trimSpace(k);
    if (t) set.add(t);
  }
  return [...set].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

type PlanSpec = PtahSchemaPlan["spec"];

/** The binding as the plan spec states it; missing fields read as empty so validation names them. */
export function bindingOfPlanSpec(spec: PlanSpec): SchemaPlanBinding {
  return {
    contractVersion: spec.contractVersion ?? 0,
    schemaUID: spec.schemaRef?.uid ?? "",
    planContentDigest: spec.contentDigest ?? "",
    artifactDigest: spec.artifactDigest ?? "",
    coordinationDigest: spec.coordinationDigest ?? "",
    targetIdentityDigest: spec.targetIdentityDigest ?? "",
    actualStateFingerprint: spec.actualStateFingerprint ?? "",
    desiredStateFingerprint: spec.desiredStateFingerprint ?? "",
    policyFingerprint: spec.policyFingerprint ?? "",
    verificationPolicyUID: spec.verificationPolicyUID ?? "",
    verificationPolicyDigest: spec.verificationPolicyDigest ?? "",
    executionBindingID: spec.executionBindingID ?? "",
    controllerStateVersion: spec.controllerStateVersion ?? 0,
    ptahVersion: spec.ptahVersion ?? "",
    executorImage: spec.executorImage ?? "",
    runnerProtocolVersion: spec.runnerProtocolVersion ?? 0,
    destructive: spec.destructive ?? false,
    privilegeChanges: spec.privilegeChanges ?? [],
    statementCount: spec.statementCount ?? 0,
  };
}

const STRING_FIELDS: readonly (readonly [keyof SchemaPlanBinding, string])[] = [
  ["schemaUID", "schema_uid"],
  ["planContentDigest", "plan_content_digest"],
  ["artifactDigest", "artifact_digest"],
  ["coordinationDigest", "coordination_digest"],
  ["targetIdentityDigest", "target_identity_digest"],
  ["actualStateFingerprint", "actual_state_fingerprint"],
  ["desiredStateFingerprint", "desired_state_fingerprint"],
  ["policyFingerprint", "policy_fingerprint"],
  ["verificationPolicyUID", "verification_policy_uid"],
  ["verificationPolicyDigest", "verification_policy_digest"],
  ["executionBindingID", "execution_binding_id"],
  ["ptahVersion", "ptah_version"],
  ["executorImage", "executor_image"],
];

/**
 * The operator's validation before hashing, as a list of problems (empty when valid).
 * `contractVersions` defaults to the versions this plugin verifies.
 */
export function validateSchemaPlanBinding(binding: SchemaPlanBinding, contractVersions: readonly number[] = SUPPORTED_PLAN_CONTRACT_VERSIONS): string[] {
  const problems: string[] = [];
  if (!contractVersions.includes(binding.contractVersion)) {
    problems.push(`contract version ${binding.contractVersion} is not supported`);
  }
  for (const [field, wire] of STRING_FIELDS) {
    if (trimSpace(String(binding[field])) === "") problems.push(`${wire} is empty`);
  }
  if (trimSpace(binding.executionBindingID) !== "" && !EXECUTION_BINDING_ID.test(binding.executionBindingID)) {
    problems.push(`execution_binding_id is not v1- and 32 lowercase hex digits`);
  }
  if (!isPositiveInteger(binding.controllerStateVersion)) problems.push("controller_state_version is below 1");
  if (!isPositiveInteger(binding.runnerProtocolVersion)) problems.push("runner_protocol_version is below 1");
  if (!isPositiveInteger(binding.statementCount)) problems.push("statement_count is below 1");
  return problems;
}

function isPositiveInteger(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}

/**
 * An integer field as Go's int64 holds it: JSON's `-0` decodes to 0, where a JavaScript number
 * keeps the sign and canonical JSON (Go's float64 form) would write `-0`. Found by the Go oracle.
 */
const int64 = (n: number): number => (Object.is(n, -0) ? 0 : n);

/** The hashed object: the fields in the contract's order (canonicalJSON of it is what is hashed). */
export function schemaPlanBindingStruct(b: SchemaPlanBinding): CanonicalValue {
  return struct([
    ["contract_version", int64(b.contractVersion)],
    ["schema_uid", b.schemaUID],
    ["plan_content_digest", b.planContentDigest],
    ["artifact_digest", b.artifactDigest],
    ["coordination_digest", b.coordinationDigest],
    ["target_identity_digest", b.targetIdentityDigest],
    ["actual_state_fingerprint", b.actualStateFingerprint],
    ["desired_state_fingerprint", b.desiredStateFingerprint],
    ["policy_fingerprint", b.policyFingerprint],
    ["verification_policy_uid", b.verificationPolicyUID],
    ["verification_policy_digest", b.verificationPolicyDigest],
    ["execution_binding_id", b.executionBindingID],
    ["controller_state_version", int64(b.controllerStateVersion)],
    ["ptah_version", b.ptahVersion],
    ["executor_image", b.executorImage],
    ["runner_protocol_version", int64(b.runnerProtocolVersion)],
    ["destructive", b.destructive],
    ["privilege_changes", normalizePrivilegeChanges(b.privilegeChanges)],
    ["statement_count", int64(b.statementCount)],
  ]);
}

/** The hash alone, without validation. */
export function digestSchemaPlanBinding(b: SchemaPlanBinding): string {
  return digestCanonicalJSON(schemaPlanBindingStruct(b));
}

/**
 * Validates, then computes `sha256:<hex>` exactly as the operator does. Throws a
 * VerificationError naming every problem when the binding would not be hashed by the operator.
 */
export function computeSchemaPlanFingerprint(binding: SchemaPlanBinding, contractVersions: readonly number[] = SUPPORTED_PLAN_CONTRACT_VERSIONS): string {
  const problems = validateSchemaPlanBinding(binding, contractVersions);
  if (problems.length > 0) {
    throw new VerificationError(`the plan binding cannot be fingerprinted: ${problems.join("; ")}`);
  }
  return digestSchemaPlanBinding(binding);
}
