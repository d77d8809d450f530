// Contract-shaped fixture objects. Each builder parses its output with
// the model, so fixtures cannot drift from it.
import { parseObject, PTAH_API_VERSION, type KindName } from "../../src/model/parse.ts";

type Raw = Record<string, unknown>;

export const T0 = "2026-11-30T11:00:00Z"; // an hour before FIXED_NOW
export const T1 = "2026-11-30T11:30:00Z";
export const T2 = "2026-11-30T11:55:00Z";

export const FP1 = "sha256:e0e49e6a7aa846f8a5d5957aca886d4df47e957b821668d1641e9c141643a12d";
export const FP2 = "sha256:e1d07a487ad0a0d9ce0db115abfffed361a6e629a7c48195a75b4c374f3a8252";
export const PLAN1 = `ptah-plan-${FP1.slice(7, 31)}`;
export const PLAN2 = `ptah-plan-${FP2.slice(7, 31)}`;

function checked(kind: KindName, raw: Raw): Raw {
  parseObject(kind, raw);
  return raw;
}

export function cond(type: string, status: string, reason: string, message: string, at = T1, observedGeneration = 1): Raw {
  return { type, status, reason, message, lastTransitionTime: at, observedGeneration };
}

export interface SchemaFixture {
  name?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  phase: string;
  conditions: Raw[];
  plan?: Raw;
  applied?: Raw;
  suspend?: boolean;
  drift?: Raw;
}

export function aSchema(f: SchemaFixture): Raw {
  const status: Raw = {
    observedGeneration: f.generation ?? 1,
    phase: f.phase,
    source: {
      requestedReference: "oci://registry.example/schemas/demo:v1",
      resolvedReference: "registry.example/schemas/demo@sha256:1111111111111111111111111111111111111111111111111111111111111111",
      digest: "sha256:1111111111111111111111111111111111111111111111111111111111111111",
      verified: true,
    },
    target: f.drift ?? {
      engine: "postgresql",
      lastObservedAt: T1,
      highestDriftSeverity: "safe",
      driftFindingCount: 1,
      driftFindings: [{ category: "tables_added", count: 1, severity: "safe" }],
    },
    conditions: f.conditions,
  };
  if (f.plan) status.plan = f.plan;
  if (f.applied) status.applied = f.applied;
  return checked("PtahSchema", {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahSchema",
    metadata: {
      name: f.name ?? "storefront",
      namespace: f.namespace ?? "app",
      uid: f.uid ?? "schema-uid-1",
      generation: f.generation ?? 1,
      resourceVersion: "100",
      creationTimestamp: T0,
    },
    spec: {
      target: { engine: "PostgreSQL", coordinationKey: "shop", urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: "oci://registry.example/schemas/demo:v1" },
      policy: { apply: "OnApproval", allowDestructive: false },
      ...(f.suspend ? { suspend: true } : {}),
    },
    status,
  });
}

const digestOf = (c: string): string => `sha256:${c.repeat(64)}`;

/** The manager bindings both records repeat in the newest CRD. */
export const MANAGER_COPIES: Raw = {
  artifactDigest: digestOf("1"),
  coordinationDigest: digestOf("6"),
  targetIdentityDigest: digestOf("7"),
  executionBindingID: `v1-${"8".repeat(32)}`,
  controllerImage: `ghcr.io/stokaro/ptah-operator@${digestOf("9")}`,
  controllerRevision: "v0.4.0",
  controllerStateVersion: 1,
  ptahVersion: "v0.6.0",
  executorImage: `ghcr.io/stokaro/ptah@${digestOf("a")}`,
  runnerImage: `ghcr.io/stokaro/ptah-runner@${digestOf("b")}`,
  runnerProtocolVersion: 1,
};

/** status.plan in the newest CRD's shape: the plan's name, UID, fingerprint and every binding copy. */
export function planStatus(name = PLAN1, fingerprint = FP1, extra: Raw = {}): Raw {
  return {
    name,
    uid: `uid-${name}`,
    fingerprint,
    contentDigest: digestOf("2"),
    ...MANAGER_COPIES,
    actualStateFingerprint: digestOf("c"),
    desiredStateFingerprint: digestOf("d"),
    policyFingerprint: digestOf("e"),
    verificationPolicyUID: "verification-policy-uid-1",
    verificationPolicyDigest: digestOf("f"),
    destructive: false,
    privilegeChanges: [],
    statementCount: 3,
    createdAt: T1,
    ...extra,
  };
}

export const AWAITING_CONDITIONS = [
  cond("ArtifactResolved", "True", "DigestPinned", "Resolved to an immutable digest", T0),
  cond("ArtifactVerified", "True", "PolicySatisfied", "Artifact type and policy checks succeeded", T0),
  cond("DatabaseReachable", "True", "Observed", "Database observed", T0),
  cond("DriftDetected", "True", "ScopedChanges", "The managed scope differs from the desired schema"),
  cond("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks"),
  cond("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"),
  cond("InSync", "False", "ScopedChanges", "The managed scope differs from the desired schema"),
  cond("Ready", "False", "AwaitingApproval", "The current plan requires a new approval"),
];

export function awaitingSchema(extra: Partial<SchemaFixture> = {}): Raw {
  return aSchema({ phase: "AwaitingApproval", conditions: AWAITING_CONDITIONS, plan: planStatus(), ...extra });
}

export function inSyncSchema(extra: Partial<SchemaFixture> = {}): Raw {
  return aSchema({
    phase: "InSync",
    conditions: [
      cond("ArtifactResolved", "True", "DigestPinned", "Resolved to an immutable digest", T0),
      cond("ArtifactVerified", "True", "PolicySatisfied", "Artifact type and policy checks succeeded", T0),
      cond("DriftDetected", "False", "ScopedConverged", "The managed scope has no changes", T2),
      cond("ApprovalRequired", "False", "NotRequired", "No plan is waiting", T2),
      cond("Applying", "False", "JobCompleted", "Apply Job completed; convergence observation is pending", T2),
      cond("InSync", "True", "ScopedConverged", "Independent read-only planning proved convergence", T2),
      cond("Ready", "True", "InSync", "The schema is in sync", T2),
    ],
    plan: planStatus(PLAN1, FP1, { approval: { name: "storefront-v1", uid: "approval-uid-storefront-v1", approver: { username: "alice@example.com" }, approvedAt: T1 } }),
    applied: { planRef: { name: PLAN1, uid: `uid-${PLAN1}` }, planFingerprint: FP1, ...MANAGER_COPIES, completedAt: T2 },
    drift: { engine: "postgresql", lastObservedAt: T2 },
    ...extra,
  });
}

export function blockedSchema(): Raw {
  return aSchema({
    name: "catalog",
    uid: "schema-uid-2",
    phase: "Blocked",
    conditions: [
      cond("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks"),
      cond("ApprovalRequired", "False", "DestructiveChangesDisabled", "Plan contains destructive changes and policy disallows them"),
      cond(
        "Ready",
        "False",
        "DestructiveChangesDisabled",
        "Plan contains destructive changes and policy disallows them; read them with kubectl ptah plan, then either narrow the desired schema or set spec.policy.allowDestructive",
      ),
    ],
    plan: planStatus(PLAN2, FP2, { destructive: true, statementCount: 1 }),
  });
}

export interface ApprovalFixture {
  name: string;
  namespace?: string;
  uid?: string;
  schema?: string;
  schemaUid?: string;
  plan?: string;
  fingerprint?: string;
  conditions?: Raw[];
  approver?: string;
  created?: string;
}

export function anApproval(f: ApprovalFixture): Raw {
  const plan = f.plan ?? PLAN1;
  return checked("PtahSchemaApproval", {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahSchemaApproval",
    metadata: { name: f.name, namespace: f.namespace ?? "app", uid: f.uid ?? `approval-uid-${f.name}`, generation: 1, creationTimestamp: f.created ?? T1 },
    spec: {
      schemaRef: { name: f.schema ?? "storefront", uid: f.schemaUid ?? "schema-uid-1" },
      planRef: { name: plan, uid: `uid-${plan}` },
      planFingerprint: f.fingerprint ?? FP1,
      approver: { username: f.approver ?? "alice@example.com", uid: "u-1", groups: ["system:authenticated"] },
      approvedAt: f.created ?? T1,
      mutationRequestUID: "m-1",
    },
    status: { observedGeneration: 1, conditions: f.conditions ?? [] },
  });
}

export const CONSUMED_AND_STALE = [
  cond("Accepted", "False", "PlanNoLongerCurrent", "The approved plan no longer matches the current database state", T2),
  cond("Stale", "True", "PlanNoLongerCurrent", "The approved plan no longer matches the current database state", T2),
  cond("Consumed", "True", "DispatchCommitted", "The exact plan was committed to one Apply Job dispatch", T1),
];

/** billing's published PtahMigrationPlan (3 of 3 pending from version 2), as the operator writes it. */
export function aMigrationPlan(f: { namespace?: string; contractVersion?: number; labels?: Record<string, string> } = {}): Raw {
  return {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigrationPlan",
    metadata: {
      name: "ptah-mplan-555555555555555555555555",
      namespace: f.namespace ?? "app",
      uid: "mplan-uid-1",
      creationTimestamp: T1,
      ...(f.labels ? { labels: f.labels } : {}),
    },
    spec: {
      contractVersion: f.contractVersion ?? 1,
      migrationRef: { name: "billing", uid: "migration-uid-1" },
      fingerprint: `sha256:${"5".repeat(64)}`,
      historyFingerprint: `sha256:${"4".repeat(64)}`,
      currentVersion: 2,
      migrations: [{ version: 3, description: "add invoices", checksum: "c3" }],
    },
  };
}

export function aMigration(f: { name?: string; namespace?: string; phase: string; conditions: Raw[]; status?: Raw }): Raw {
  return checked("PtahMigration", {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigration",
    metadata: { name: f.name ?? "billing", namespace: f.namespace ?? "app", uid: "migration-uid-1", generation: 1, creationTimestamp: T0 },
    spec: { artifact: { ociRef: "oci://registry.example/migrations/billing:v3" }, policy: { apply: "OnApproval" } },
    status: {
      observedGeneration: 1,
      phase: f.phase,
      artifact: {
        resolvedReference: "registry.example/migrations/billing@sha256:3333333333333333333333333333333333333333333333333333333333333333",
        digest: "sha256:3333333333333333333333333333333333333333333333333333333333333333",
      },
      history: { observedAt: T1, currentVersion: 2, appliedCount: 2, pendingCount: 3, fingerprint: "sha256:4444444444444444444444444444444444444444444444444444444444444444" },
      plan: { name: "ptah-mplan-555555555555555555555555", uid: "mplan-uid-1" },
      conditions: f.conditions,
      ...(f.status ?? {}),
    },
  });
}
