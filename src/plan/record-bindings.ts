// The binding copies in a schema's record: in the newest CRD,
// status.plan and status.applied repeat the plan's bindings, and each copy equals the same field
// of the plan's spec for a consistent record. Where the record carries a copy, it must equal the
// plan's; a mismatch is refused like a fingerprint mismatch. Pure.
import { VerificationError } from "../errors.ts";
import type { AppliedStatus, CurrentPlanStatus, PtahSchemaPlan } from "../model/kinds.ts";
import { normalizePrivilegeChanges } from "./fingerprint.ts";
import type { PlanRecord, PlanSelection } from "./select.ts";
import type { CheckLog } from "./verify.ts";

type Spec = PtahSchemaPlan["spec"];
export type CopyValue = string | number | boolean | readonly string[];

/** What the record repeats, by spec field name, with where it sits in the schema. */
export interface RecordCopies {
  /** "status.plan" or "status.applied". */
  readonly path: string;
  readonly values: Readonly<Partial<Record<keyof Spec, CopyValue>>>;
}

/** Both records repeat these. */
export const APPLIED_COPY_FIELDS = [
  "artifactDigest",
  "coordinationDigest",
  "targetIdentityDigest",
  "executionBindingID",
  "controllerImage",
  "controllerRevision",
  "controllerStateVersion",
  "ptahVersion",
  "executorImage",
  "runnerImage",
  "runnerProtocolVersion",
] as const satisfies readonly (keyof Spec & keyof AppliedStatus & keyof CurrentPlanStatus)[];

/** status.plan repeats these as well. */
const CURRENT_ONLY = [
  "contentDigest",
  "actualStateFingerprint",
  "desiredStateFingerprint",
  "policyFingerprint",
  "verificationPolicyUID",
  "verificationPolicyDigest",
  "destructive",
  "statementCount",
] as const satisfies readonly (keyof Spec & keyof CurrentPlanStatus)[];

/** Every binding copy status.plan carries (privilegeChanges aside, which may be left out). */
export const CURRENT_COPY_FIELDS = [...APPLIED_COPY_FIELDS, ...CURRENT_ONLY] as const;

/** The copies a record carries; a field the record leaves out (an older operator) is not compared. */
export function recordCopies(selection: PlanSelection, record: CurrentPlanStatus | AppliedStatus): RecordCopies {
  const values: Partial<Record<keyof Spec, CopyValue>> = {};
  const fields: readonly (keyof Spec)[] = selection === "current" ? CURRENT_COPY_FIELDS : APPLIED_COPY_FIELDS;
  const source = record as Partial<Record<keyof Spec, CopyValue | undefined>>;
  for (const field of fields) {
    const v = source[field];
    if (v !== undefined && v !== "") values[field] = v;
  }
  // privilegeChanges is optional even in the newest CRD (left out when empty): a record that
  // repeats every required binding and leaves it out says "none"; an older record says nothing.
  if (selection === "current") {
    const kinds = (record as CurrentPlanStatus).privilegeChanges;
    const newest = fields.every((f) => values[f] !== undefined);
    if (kinds !== undefined || newest) values.privilegeChanges = normalizePrivilegeChanges(kinds);
  }
  return { path: selection === "current" ? "status.plan" : "status.applied", values };
}

function specValue(spec: Spec, field: keyof Spec): CopyValue | undefined {
  if (field === "privilegeChanges") return normalizePrivilegeChanges(spec.privilegeChanges);
  if (field === "destructive") return spec.destructive === true;
  return spec[field] as CopyValue | undefined;
}

function same(a: CopyValue | undefined, b: CopyValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

const show = (v: CopyValue | undefined): string => (v === undefined ? "(none)" : JSON.stringify(v));

/**
 * The new step (after the fingerprint is recomputed, so a spec edited after fingerprinting is
 * named as that): every binding copy the record carries equals the plan's spec. Exit 1 otherwise.
 */
export function verifyRecordCopies(log: CheckLog, record: PlanRecord, plan: PtahSchemaPlan): void {
  const name = plan.metadata.name;
  if (!record.copies) return;
  const { path, values } = record.copies;
  const fields = Object.keys(values) as (keyof Spec)[];
  for (const field of fields) {
    const recorded = values[field]!;
    const stored = specValue(plan.spec, field);
    if (!same(stored, recorded)) {
      log.fail("record bindings", new VerificationError(`the stored plan ${name} carries ${field} ${show(stored)} and the record names ${show(recorded)} in ${path}.${field}`));
    }
  }
  log.pass(
    "record bindings",
    fields.length === 0
      ? `${path} repeats none of the plan's bindings (an older operator's record); nothing more to compare`
      : `${path} repeats ${fields.length} of the plan's bindings, each equal to the plan's spec`,
  );
}

/** The bindings a record pins, in words, for `status SCHEMA` (empty when it repeats none). */
const GROUPS: readonly (readonly [string, readonly (keyof Spec)[]])[] = [
  ["content", ["contentDigest"]],
  ["artifact", ["artifactDigest"]],
  ["coordination", ["coordinationDigest"]],
  ["target identity", ["targetIdentityDigest"]],
  ["actual state", ["actualStateFingerprint"]],
  ["desired state", ["desiredStateFingerprint"]],
  ["policy", ["policyFingerprint"]],
  ["verification policy", ["verificationPolicyUID", "verificationPolicyDigest"]],
  ["execution binding", ["executionBindingID"]],
  ["controller state version", ["controllerStateVersion"]],
  ["ptah version", ["ptahVersion"]],
  ["images", ["controllerImage", "executorImage", "runnerImage"]],
  ["runner protocol", ["runnerProtocolVersion"]],
  ["privilege kinds", ["privilegeChanges"]],
];

export function pinnedBindings(copies: RecordCopies): string[] {
  return GROUPS.filter(([, fields]) => fields.some((f) => copies.values[f] !== undefined)).map(([label]) => label);
}
