// What pins a stored plan (the operator deletes none; a person may delete one nothing names): every field of a live
// object that names it. A plan nothing names may be deleted by a person; one that anything names
// must stay. Pure: the caller lists the objects, this only reads them.
import type { PtahMigration, PtahMigrationApproval, PtahMigrationPlan, PtahSchema, PtahSchemaApproval, PtahSchemaPlan } from "../model/kinds.ts";

export type PlanFamily = "PtahSchemaPlan" | "PtahMigrationPlan";

/** One reference to a plan: the object that holds it and the field it is in. */
export interface PlanPin {
  readonly kind: "PtahSchema" | "PtahMigration" | "PtahSchemaApproval" | "PtahMigrationApproval";
  readonly name: string;
  readonly field: string;
  /** The UID the reference carries, where it carries one. */
  readonly uid: string | undefined;
  /** The schema or migration the holder is about (an approval's reference; the holder itself otherwise). */
  readonly owner?: string | undefined;
}

/** One stored plan and everything that pins it. */
export interface StoredPlan {
  readonly kind: PlanFamily;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The schema or migration it was computed for (its spec's reference). */
  readonly owner: string;
  readonly fingerprint: string;
  /** Statements of a schema plan; versions of a migration plan. */
  readonly statements: number | undefined;
  readonly createdAt: string | undefined;
  readonly pinnedBy: readonly PlanPin[];
}

export interface PinInputs {
  readonly schemas: readonly PtahSchema[];
  readonly migrations: readonly PtahMigration[];
  readonly schemaApprovals: readonly PtahSchemaApproval[];
  readonly migrationApprovals: readonly PtahMigrationApproval[];
}

interface Ref {
  readonly name?: string | undefined;
  readonly uid?: string | undefined;
}

export const UNRESOLVED_RUN_ANNOTATION = "operator.ptah.run/unresolved-run";

/** The plan the unresolved-run annotation names; an unreadable annotation names none. */
function annotationPlanRef(m: PtahMigration): Ref | undefined {
  const text = m.metadata.annotations?.[UNRESOLVED_RUN_ANNOTATION];
  if (!text) return undefined;
  try {
    const ref = (JSON.parse(text) as { planRef?: unknown }).planRef as Record<string, unknown> | undefined;
    if (!ref || typeof ref.name !== "string") return undefined;
    return { name: ref.name, uid: typeof ref.uid === "string" ? ref.uid : undefined };
  } catch {
    return undefined;
  }
}

const key = (family: PlanFamily, namespace: string, name: string): string => `${family}\u0000${namespace}\u0000${name}`;

/**
 * Every reference, keyed by the plan it names. A reference pins by name within its namespace and
 * family, whatever UID it carries: a reference whose UID is another object's still says that a
 * plan of that name mattered, and `--unpinned` must never offer what anything names.
 */
export function collectPins(inputs: PinInputs): Map<string, PlanPin[]> {
  const pins = new Map<string, PlanPin[]>();
  const add = (family: PlanFamily, namespace: string | undefined, ref: Ref | undefined, pin: Omit<PlanPin, "uid" | "owner"> & { owner?: string | undefined }): void => {
    if (!ref?.name) return;
    const k = key(family, namespace ?? "", ref.name);
    const list = pins.get(k) ?? [];
    list.push({ ...pin, uid: ref.uid || undefined, owner: pin.owner ?? (pin.kind === "PtahSchema" || pin.kind === "PtahMigration" ? pin.name : undefined) });
    pins.set(k, list);
  };
  for (const s of inputs.schemas) {
    const { name, namespace } = s.metadata;
    const st = s.status;
    const pin = (field: string) => ({ kind: "PtahSchema" as const, name, field });
    add("PtahSchemaPlan", namespace, st.plan, pin("status.plan"));
    add("PtahSchemaPlan", namespace, st.pendingObservation?.plan, pin("status.pendingObservation.plan"));
    add("PtahSchemaPlan", namespace, st.applied?.planRef, pin("status.applied.planRef"));
    add("PtahSchemaPlan", namespace, st.pendingBindingRetirement?.plan, pin("status.pendingBindingRetirement.plan"));
  }
  for (const m of inputs.migrations) {
    const { name, namespace } = m.metadata;
    const st = m.status;
    const pin = (field: string) => ({ kind: "PtahMigration" as const, name, field });
    add("PtahMigrationPlan", namespace, st.plan, pin("status.plan"));
    add("PtahMigrationPlan", namespace, st.activeOperation?.planRef, pin("status.activeOperation.planRef"));
    add("PtahMigrationPlan", namespace, st.unresolvedRun?.planRef, pin("status.unresolvedRun.planRef"));
    // The annotation's copy of the run pins its plan too, even once status says the run was settled.
    add("PtahMigrationPlan", namespace, annotationPlanRef(m), pin(`metadata.annotations[${UNRESOLVED_RUN_ANNOTATION}].planRef`));
  }
  for (const a of inputs.schemaApprovals) {
    add("PtahSchemaPlan", a.metadata.namespace, a.spec.planRef, { kind: "PtahSchemaApproval", name: a.metadata.name, field: "spec.planRef", owner: a.spec.schemaRef?.name });
  }
  for (const a of inputs.migrationApprovals) {
    add("PtahMigrationPlan", a.metadata.namespace, a.spec.planRef, {
      kind: "PtahMigrationApproval",
      name: a.metadata.name,
      field: "spec.planRef",
      owner: a.spec.migrationRef?.name,
    });
  }
  return pins;
}

const order = (a: StoredPlan, b: StoredPlan): number =>
  a.namespace.localeCompare(b.namespace) || a.owner.localeCompare(b.owner) || (a.createdAt ?? "").localeCompare(b.createdAt ?? "") || a.name.localeCompare(b.name);

/** Each stored plan with its pins: schema plans first, then migration plans; oldest first within an owner. */
export function storedPlans(schemaPlans: readonly PtahSchemaPlan[], migrationPlans: readonly PtahMigrationPlan[], inputs: PinInputs): StoredPlan[] {
  const pins = collectPins(inputs);
  const row = (kind: PlanFamily, p: PtahSchemaPlan | PtahMigrationPlan, owner: string | undefined, fingerprint: string | undefined, statements: number | undefined): StoredPlan => {
    const namespace = p.metadata.namespace ?? "";
    return {
      kind,
      namespace,
      name: p.metadata.name,
      uid: p.metadata.uid ?? "",
      owner: owner ?? "",
      fingerprint: fingerprint ?? "",
      statements,
      createdAt: p.metadata.creationTimestamp,
      pinnedBy: pins.get(key(kind, namespace, p.metadata.name)) ?? [],
    };
  };
  const schema = schemaPlans.map((p) => row("PtahSchemaPlan", p, p.spec.schemaRef?.name, p.spec.fingerprint, p.spec.statementCount));
  const migration = migrationPlans.map((p) => row("PtahMigrationPlan", p, p.spec.migrationRef?.name, p.spec.fingerprint, p.spec.migrations?.length));
  return [...schema.sort(order), ...migration.sort(order)];
}

/** A pin whose plan is not there as named: missing, replaced (same name, another UID) or being deleted. */
export interface DanglingPin {
  readonly family: PlanFamily;
  readonly namespace: string;
  readonly plan: string;
  readonly pin: PlanPin;
  readonly problem: "missing" | "replaced" | "deleting";
}

type Stored = PtahSchemaPlan | PtahMigrationPlan;

/**
 * Every pin checked the way the operator's retention binds one: by family, namespace, name and
 * UID (a pin without a UID binds by name). Each that does not reach a live plan is a finding.
 */
export function danglingPins(schemaPlans: readonly PtahSchemaPlan[], migrationPlans: readonly PtahMigrationPlan[], inputs: PinInputs): DanglingPin[] {
  const plans = new Map<string, Stored>();
  for (const p of schemaPlans) plans.set(key("PtahSchemaPlan", p.metadata.namespace ?? "", p.metadata.name), p);
  for (const p of migrationPlans) plans.set(key("PtahMigrationPlan", p.metadata.namespace ?? "", p.metadata.name), p);
  const out: DanglingPin[] = [];
  for (const [k, pins] of collectPins(inputs)) {
    const [family, namespace, plan] = k.split("\u0000") as [PlanFamily, string, string];
    const stored = plans.get(k);
    for (const pin of pins) {
      const problem = !stored
        ? "missing"
        : pin.uid && stored.metadata.uid && pin.uid !== stored.metadata.uid
          ? "replaced"
          : stored.metadata.deletionTimestamp
            ? "deleting"
            : undefined;
      if (problem) out.push({ family, namespace, plan, pin, problem });
    }
  }
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.family.localeCompare(b.family) || a.plan.localeCompare(b.plan) || a.pin.name.localeCompare(b.pin.name));
}
