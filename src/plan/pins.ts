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

const key = (family: PlanFamily, namespace: string, name: string): string => `${family}\u0000${namespace}\u0000${name}`;

/**
 * Every reference, keyed by the plan it names. A reference pins by name within its namespace and
 * family, whatever UID it carries: a reference whose UID is another object's still says that a
 * plan of that name mattered, and `--unpinned` must never offer what anything names.
 */
export function collectPins(inputs: PinInputs): Map<string, PlanPin[]> {
  const pins = new Map<string, PlanPin[]>();
  const add = (family: PlanFamily, namespace: string | undefined, ref: Ref | undefined, pin: Omit<PlanPin, "uid">): void => {
    if (!ref?.name) return;
    const k = key(family, namespace ?? "", ref.name);
    const list = pins.get(k) ?? [];
    list.push({ ...pin, uid: ref.uid || undefined });
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
  }
  for (const a of inputs.schemaApprovals) {
    add("PtahSchemaPlan", a.metadata.namespace, a.spec.planRef, { kind: "PtahSchemaApproval", name: a.metadata.name, field: "spec.planRef" });
  }
  for (const a of inputs.migrationApprovals) {
    add("PtahMigrationPlan", a.metadata.namespace, a.spec.planRef, { kind: "PtahMigrationApproval", name: a.metadata.name, field: "spec.planRef" });
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
