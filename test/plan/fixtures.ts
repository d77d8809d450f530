// Cluster states for the plan and migration tests: a schema with a current and an applied plan,
// published through publishSchemaPlan exactly as the operator would publish them.
import { FakeReader, type FakeObject } from "../support/fake-reader.ts";
import { aSchema } from "../support/builders.ts";
import { appliedStatus, currentPlanStatus, fakeObjectsOf, publishSchemaPlan, type PublishedPlan, type PublishPlanInput, type StatementInput } from "../support/publish-plan.ts";

/** The clock of the plan and migration suites (the fixtures are dated 2026-09-13). */
export const FIXTURES_NOW = new Date("2026-09-13T09:00:00Z");

export const NS = "application";
export const SCHEMA = "storefront";
export const SCHEMA_UID = "6f1c2a8e-93b1-4d0c-a7e2-5b9f0c3d1e42";
export const SCHEMA_REF = { name: SCHEMA, namespace: NS, uid: SCHEMA_UID };

export const APPLIED_STATEMENTS: StatementInput[] = [
  {
    sql: '-- POSTGRES TABLE: customers --\nCREATE TABLE "customers" (\n  "id" bigint PRIMARY KEY NOT NULL,\n  "email" text NOT NULL\n);',
    severity: "safe",
    reason: "table customers added",
  },
];

export const CURRENT_STATEMENTS: StatementInput[] = [
  {
    sql: 'ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamptz;',
    severity: "safe",
    reason: "column customers.signed_up_at added",
  },
  {
    sql: 'CREATE OR REPLACE FUNCTION "touch"() RETURNS trigger AS $body$\nBEGIN\n  NEW.updated_at := now(); -- keep; going\n  RETURN NEW;\nEND;\n$body$ LANGUAGE plpgsql SECURITY DEFINER',
    severity: "warning",
    reason: "function touch replaced",
  },
  {
    sql: 'INSERT INTO "settings" ("key", "value") VALUES (\'motd\', \'a; b <c> & "d"\'); /* not; split */',
    severity: "info",
    reason: "reference row settings/motd",
  },
  { sql: 'GRANT SELECT ON "customers" TO "reporting";', severity: "warning", reason: "grant to reporting" },
];

export function publishApplied(extra: Partial<PublishPlanInput> = {}): PublishedPlan {
  return publishSchemaPlan({
    schema: SCHEMA_REF,
    statements: APPLIED_STATEMENTS,
    createdAt: "2026-09-13T08:04:05Z",
    binding: { desiredStateFingerprint: "sha256:" + "a1".repeat(32), actualStateFingerprint: "sha256:" + "0e".repeat(32) },
    ...extra,
  });
}

export function publishCurrent(extra: Partial<PublishPlanInput> = {}): PublishedPlan {
  return publishSchemaPlan({
    schema: SCHEMA_REF,
    statements: CURRENT_STATEMENTS,
    createdAt: "2026-09-14T10:00:00Z",
    privilegeChanges: ["Grant", "FunctionReplacement"],
    binding: { actualStateFingerprint: "sha256:" + "a1".repeat(32), desiredStateFingerprint: "sha256:" + "b2".repeat(32) },
    ...extra,
  });
}

export interface State {
  readonly reader: FakeReader;
  readonly current: PublishedPlan;
  readonly applied: PublishedPlan;
  readonly schema: Record<string, unknown>;
}

export interface StateOptions {
  readonly current?: PublishedPlan | null;
  readonly applied?: PublishedPlan | null;
  /** Overrides status.plan / status.applied records. */
  readonly currentRecord?: Record<string, unknown>;
  readonly appliedRecord?: Record<string, unknown>;
  readonly extra?: FakeObject[];
}

/** A schema waiting for approval of `current`, after `applied` was applied. */
export function clusterState(options: StateOptions = {}): State {
  const current = options.current === undefined ? publishCurrent() : options.current;
  const applied = options.applied === undefined ? publishApplied() : options.applied;
  const schema = aSchema({
    name: SCHEMA,
    namespace: NS,
    uid: SCHEMA_UID,
    phase: "AwaitingApproval",
    conditions: [],
    ...(current ? { plan: options.currentRecord ?? currentPlanStatus(current) } : {}),
    ...(applied ? { applied: options.appliedRecord ?? appliedStatus(applied) } : {}),
  });
  const objects: FakeObject[] = [
    { kind: "PtahSchema", raw: schema },
    ...(current ? fakeObjectsOf(current) : []),
    ...(applied ? fakeObjectsOf(applied) : []),
    ...(options.extra ?? []),
  ];
  return { reader: new FakeReader(objects), current: current!, applied: applied!, schema };
}

export interface ApprovalOptions {
  readonly name: string;
  /** planRef and planFingerprint; default the plan's own. */
  readonly record?: { readonly name: unknown; readonly uid: unknown; readonly fingerprint: unknown };
  readonly created?: string;
  readonly conditions?: Record<string, unknown>[];
  /** Older generations: binding copies in the spec. */
  readonly copies?: Record<string, unknown>;
  readonly schemaUID?: string;
}

/** A PtahSchemaApproval of the fixture schema naming `plan` (or a record of it). */
export function approvalOf(plan: PublishedPlan | undefined, o: ApprovalOptions): FakeObject {
  const meta = plan?.plan.metadata as Record<string, unknown> | undefined;
  const record = o.record ?? { name: plan?.name, uid: meta?.uid, fingerprint: plan?.fingerprint };
  const created = o.created ?? "2026-09-13T08:04:10Z";
  return {
    kind: "PtahSchemaApproval",
    raw: {
      apiVersion: "operator.ptah.run/v1alpha1",
      kind: "PtahSchemaApproval",
      metadata: { name: o.name, namespace: NS, uid: `approval-uid-${o.name}`, generation: 1, creationTimestamp: created },
      spec: {
        schemaRef: { name: SCHEMA, uid: o.schemaUID ?? SCHEMA_UID },
        planRef: { name: record.name, uid: record.uid },
        planFingerprint: record.fingerprint,
        approver: { username: "alice@example.com", uid: "u-1", groups: ["system:authenticated"] },
        approvedAt: created,
        mutationRequestUID: `m-${o.name}`,
        ...o.copies,
      },
      status: { observedGeneration: 1, conditions: o.conditions ?? [] },
    },
  };
}

const T = "2026-09-13T08:04:24Z";
/** Consumed at dispatch, then stale once its plan was no longer current (the seed's story). */
export const CONSUMED_THEN_STALE: Record<string, unknown>[] = [
  { type: "Accepted", status: "False", reason: "PlanNoLongerCurrent", message: "The approved plan no longer matches the current database state", lastTransitionTime: T },
  { type: "Stale", status: "True", reason: "PlanNoLongerCurrent", message: "The approved plan no longer matches the current database state", lastTransitionTime: T },
  { type: "Consumed", status: "True", reason: "DispatchCommitted", message: "The exact plan was committed to one Apply Job dispatch", lastTransitionTime: T },
];
export const STALE: Record<string, unknown>[] = CONSUMED_THEN_STALE.slice(0, 2);
