// Which inputs of the fingerprint differ between two plans, or between
// what an approval or applied record copied from its plan and a plan. Pure.
import { PLAN_BINDING_INPUTS, type PlanBindingInput, type PlanBindingValue } from "../model/binding-inputs.ts";
import type { PtahSchemaApproval, PtahSchemaPlan } from "../model/kinds.ts";
import { bindingOfPlanSpec, normalizePrivilegeChanges, type SchemaPlanBinding } from "./fingerprint.ts";

export type BindingValues = Readonly<Record<PlanBindingInput, PlanBindingValue>>;
/** What a record copied: only the inputs it carries. */
export type RecordedBindingValues = Readonly<Partial<Record<PlanBindingInput, PlanBindingValue>>>;

/** The model's names agree with the fingerprint's: a renamed input does not compile. */
type FingerprintName<I extends PlanBindingInput> = I extends "contentDigest" ? "planContentDigest" : I;
const NAMES_AGREE: { readonly [I in PlanBindingInput]: FingerprintName<I> extends keyof SchemaPlanBinding ? true : never } = {
  contractVersion: true,
  contentDigest: true,
  artifactDigest: true,
  coordinationDigest: true,
  targetIdentityDigest: true,
  actualStateFingerprint: true,
  desiredStateFingerprint: true,
  policyFingerprint: true,
  verificationPolicyUID: true,
  verificationPolicyDigest: true,
  executionBindingID: true,
  controllerStateVersion: true,
  ptahVersion: true,
  executorImage: true,
  runnerProtocolVersion: true,
  destructive: true,
  privilegeChanges: true,
  statementCount: true,
};
void NAMES_AGREE;

export function bindingValuesOfPlan(plan: PtahSchemaPlan): BindingValues {
  const b = bindingOfPlanSpec(plan.spec);
  const { schemaUID: _schema, planContentDigest, ...rest } = b;
  return { ...rest, contentDigest: planContentDigest, privilegeChanges: normalizePrivilegeChanges(b.privilegeChanges) };
}

/**
 * The binding copies an older operator generation's webhook hydrated into an approval's spec;
 * the newest approvals carry none.
 */
export function recordedBindingValuesOfApproval(approval: PtahSchemaApproval): RecordedBindingValues {
  const s = approval.spec;
  const out: Partial<Record<PlanBindingInput, PlanBindingValue>> = {};
  for (const input of PLAN_BINDING_INPUTS) {
    const v = (s as Partial<Record<string, unknown>>)[input];
    if (typeof v === "string" ? v !== "" : typeof v === "number" || typeof v === "boolean") out[input] = v as PlanBindingValue;
  }
  return out;
}

export interface BindingChange {
  readonly input: PlanBindingInput;
  readonly from: PlanBindingValue;
  readonly to: PlanBindingValue;
}

export interface BindingComparison {
  readonly changed: readonly BindingChange[];
  readonly unchanged: readonly PlanBindingInput[];
  /** Inputs the `from` side does not record (a record of a plan that is gone). */
  readonly notCompared: readonly PlanBindingInput[];
}

function same(a: PlanBindingValue, b: PlanBindingValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    const x = normalizePrivilegeChanges(Array.isArray(a) ? (a as readonly string[]) : []);
    const y = normalizePrivilegeChanges(Array.isArray(b) ? (b as readonly string[]) : []);
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  return a === b;
}

/** Every input in the fingerprint's order: changed, unchanged, or not recorded on the `from` side. */
export function compareBindings(from: RecordedBindingValues, to: BindingValues): BindingComparison {
  const changed: BindingChange[] = [];
  const unchanged: PlanBindingInput[] = [];
  const notCompared: PlanBindingInput[] = [];
  for (const input of PLAN_BINDING_INPUTS) {
    const f = from[input];
    if (f === undefined) notCompared.push(input);
    else if (same(f, to[input])) unchanged.push(input);
    else changed.push({ input, from: f, to: to[input] });
  }
  return { changed, unchanged, notCompared };
}
