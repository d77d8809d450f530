// Which stored plan a selection means: `current` is the schema's status.plan,
// `applied` is status.applied. Never "the newest plan object". Pure.
import { NotFoundError } from "../errors.ts";
import type { PtahSchema } from "../model/kinds.ts";
import { recordCopies, type RecordCopies } from "./record-bindings.ts";

export type PlanSelection = "current" | "applied";

/** Where a record naming a plan came from: the schema's two records, an approval, or a person naming the plan. */
export type PlanRecordSource = PlanSelection | "approval" | "named";

/** What the schema's record says about the selected plan. */
export interface PlanRecord {
  readonly selection: PlanRecordSource;
  readonly namespace: string;
  readonly schemaName: string;
  /** Undefined when the record names no plan object. */
  readonly planName: string | undefined;
  readonly planUID: string | undefined;
  /** The fingerprint the record binds; may be empty on a current record. */
  readonly fingerprint: string | undefined;
  /** `status.applied.completedAt` (applied only). */
  readonly completedAt: string | undefined;
  /**
   * An older applied record without `planRef`: the plan is found by listing
   * plans labelled with the schema and matching the fingerprint.
   */
  readonly needsFingerprintLookup: boolean;
  /**
   * The plan bindings the record repeats (newest CRD), to be compared with the plan's spec; only
   * the schema's own records (current, applied) have them, an approval's or a named plan none.
   */
  readonly copies?: RecordCopies;
}

export function selectPlanRecord(schema: PtahSchema, namespace: string, selection: PlanSelection): PlanRecord {
  const schemaName = schema.metadata.name;
  const where = `${namespace}/${schemaName}`;
  if (selection === "current") {
    const plan = schema.status.plan;
    if (!plan?.name) throw new NotFoundError(`no such plan: ${where} has no current plan`);
    return {
      selection,
      namespace,
      schemaName,
      planName: plan.name,
      planUID: plan.uid || undefined,
      fingerprint: plan.fingerprint || undefined,
      completedAt: undefined,
      needsFingerprintLookup: false,
      copies: recordCopies(selection, plan),
    };
  }
  const applied = schema.status.applied;
  if (!applied?.planFingerprint) throw new NotFoundError(`no such plan: ${where} records no confirmed apply`);
  return {
    selection,
    namespace,
    schemaName,
    planName: applied.planRef?.name || undefined,
    planUID: applied.planRef?.uid || undefined,
    fingerprint: applied.planFingerprint,
    completedAt: applied.completedAt || undefined,
    needsFingerprintLookup: applied.planRef === undefined,
    copies: recordCopies(selection, applied),
  };
}
