// Publishing plans the operator's way: the PtahSchemaPlan
// spec (chunk manifest, content digest, fingerprint) is created first, then the chunk objects
// owned by the plan's real UID, then the plan status Ready=Published with the chunks' real UIDs
// and observedGeneration == generation. Reading a published plan back (for the "Apply Job")
// verifies the chunk UIDs and the content digest. Migration plans carry no SQL.
import { digestBytes } from "../../src/plan/canonical.ts";
import { planRecordOf, publishSchemaPlan, type ManagedRowsInput, type PlanBindingFields } from "../support/publish-plan.ts";
import type { Statement } from "./catalog.ts";
import { MANAGER, digestOf, nowISO } from "./common.ts";
import { API_VERSION, ApiError, resourcePath, type Kube, type Obj } from "./kube.ts";

export interface SchemaPlanInputs {
  artifactDigest: string;
  coordinationDigest: string;
  targetIdentityDigest: string;
  actualStateFingerprint: string;
  desiredStateFingerprint: string;
  policyFingerprint: string;
  verificationPolicyUID: string;
  verificationPolicyDigest: string;
}

function stripServerFields(meta: Record<string, unknown>): Record<string, unknown> {
  const { uid: _u, resourceVersion: _r, generation: _g, creationTimestamp: _c, ...rest } = meta;
  return rest;
}

async function createOrGet(kube: Kube, collection: string, obj: Obj): Promise<Obj> {
  try {
    return await kube.create(collection, obj);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      const existing = await kube.get(`${collection}/${encodeURIComponent(obj.metadata.name)}`);
      if (existing) return existing;
    }
    throw err;
  }
}

/** Publishes (or finds, when already published) the plan of `statements` for `schema`. Returns the stored plan. */
export async function publishLiveSchemaPlan(
  kube: Kube,
  schema: Obj,
  statements: Statement[],
  inputs: SchemaPlanInputs,
  managedRows: readonly ManagedRowsInput[] = [],
): Promise<Obj> {
  const ns = schema.metadata.namespace!;
  const binding: PlanBindingFields = {
    contractVersion: 1,
    ...inputs,
    executionBindingID: MANAGER.executionBindingID,
    controllerImage: MANAGER.controllerImage,
    controllerRevision: MANAGER.controllerRevision,
    controllerStateVersion: MANAGER.controllerStateVersion,
    ptahVersion: MANAGER.ptahVersion,
    executorImage: MANAGER.executorImage,
    runnerImage: MANAGER.runnerImage,
    runnerProtocolVersion: MANAGER.runnerProtocolVersion,
  };
  const p = publishSchemaPlan({
    schema: { name: schema.metadata.name, namespace: ns, uid: schema.metadata.uid! },
    statements,
    binding,
    // A declarative-data plan: the document marks the tables whose rows its statements carry.
    ...(managedRows.length > 0 ? { managedRows } : {}),
    createdAt: nowISO(),
  });
  const plans = resourcePath("ptahschemaplans", ns);
  const raw = p.plan as Obj;
  let plan = await createOrGet(kube, plans, {
    apiVersion: API_VERSION,
    kind: "PtahSchemaPlan",
    metadata: stripServerFields(raw.metadata) as Obj["metadata"],
    spec: raw.spec,
  });
  if (plan.spec?.fingerprint !== p.fingerprint) throw new Error(`plan ${plan.metadata.name} exists with another fingerprint`);
  const ready = (plan.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === "Ready" && c.status === "True");
  if (ready && plan.status?.observedGeneration === plan.metadata.generation) return plan;

  const chunksPath = resourcePath("ptahschemaplanchunks", ns);
  const published: { name: string; uid: string; index: number }[] = [];
  for (const [index, chunk] of (p.chunks as Obj[]).entries()) {
    const meta = stripServerFields(chunk.metadata) as Obj["metadata"];
    meta.ownerReferences = [{ apiVersion: API_VERSION, kind: "PtahSchemaPlan", name: plan.metadata.name, uid: plan.metadata.uid, controller: true, blockOwnerDeletion: true }];
    const stored = await createOrGet(kube, chunksPath, { apiVersion: API_VERSION, kind: "PtahSchemaPlanChunk", metadata: meta, spec: chunk.spec });
    const owner = stored.metadata.ownerReferences?.find((o) => o.kind === "PtahSchemaPlan");
    if (owner?.uid !== plan.metadata.uid) throw new Error(`chunk ${stored.metadata.name} is owned by another plan`);
    published.push({ name: stored.metadata.name, uid: stored.metadata.uid!, index });
  }
  plan = await kube.mergePatch(`${plans}/${plan.metadata.name}/status`, {
    status: {
      observedGeneration: plan.metadata.generation,
      publishedChunks: published,
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "Published",
          message: `Verified ${published.length} immutable plan chunks`,
          lastTransitionTime: nowISO(),
          observedGeneration: plan.metadata.generation,
        },
      ],
    },
  });
  return plan;
}

/** `status.plan` of a schema whose current plan is `plan`: every binding copy the newest CRD requires. */
export function currentPlanStatus(plan: Obj): Record<string, unknown> {
  return planRecordOf(plan as unknown as Record<string, unknown>);
}

/** Reads a published plan's statements back the way the Apply Job gets them: chunk UIDs and digests checked. */
export async function readPlanStatements(kube: Kube, namespace: string, planName: string, planUID: string): Promise<Statement[]> {
  const plan = await kube.get(resourcePath("ptahschemaplans", namespace, planName));
  if (!plan || plan.metadata.uid !== planUID) throw new Error(`plan ${planName} was replaced or deleted`);
  const parts: Buffer[] = [];
  for (const pc of [...(plan.status?.publishedChunks ?? [])].sort((a: { index: number }, b: { index: number }) => a.index - b.index)) {
    const chunk = await kube.get(resourcePath("ptahschemaplanchunks", namespace, pc.name));
    if (!chunk || chunk.metadata.uid !== pc.uid) throw new Error(`chunk ${pc.name} was replaced`);
    parts.push(Buffer.from(chunk.spec.data, "base64"));
  }
  const bytes = Buffer.concat(parts);
  if (digestBytes(new Uint8Array(bytes)) !== plan.spec.contentDigest) throw new Error(`plan ${planName}: content digest mismatch`);
  const doc = JSON.parse(bytes.toString("utf8")) as { statements: Statement[] };
  return doc.statements;
}

// ---------------------------------------------------------------------------------------------
// migration plans

export interface MigrationStep {
  version: number;
  versionKey: string;
  description: string;
  checksum: string;
  checkpoint: boolean;
  transactionMode: string;
}

export function sequenceDigest(steps: MigrationStep[]): string {
  return digestOf(steps.map((s) => ({ checkpoint: s.checkpoint, checksum: s.checksum, transaction_mode: s.transactionMode, version: s.version, version_key: s.versionKey })));
}

export interface MigrationPlanInputs {
  historyFingerprint: string;
  currentVersion: number;
  artifactDigest: string;
  coordinationDigest: string;
  targetIdentityDigest: string;
  policyFingerprint: string;
  verificationPolicyUID: string;
  verificationPolicyDigest: string;
}

export async function publishLiveMigrationPlan(kube: Kube, migration: Obj, steps: MigrationStep[], inputs: MigrationPlanInputs): Promise<Obj> {
  const ns = migration.metadata.namespace!;
  // The fingerprint key set of the variant the contract pins, sorted as a Go map.
  const fingerprint = digestOf({
    contract_version: 1,
    migration_uid: migration.metadata.uid!,
    history_fingerprint: inputs.historyFingerprint,
    sequence_digest: sequenceDigest(steps),
    artifact_digest: inputs.artifactDigest,
    coordination_digest: inputs.coordinationDigest,
    target_identity_digest: inputs.targetIdentityDigest,
    policy_fingerprint: inputs.policyFingerprint,
    verification_policy_uid: inputs.verificationPolicyUID,
    verification_policy_digest: inputs.verificationPolicyDigest,
    execution_binding_id: MANAGER.executionBindingID,
    controller_image: MANAGER.controllerImage,
    controller_revision: MANAGER.controllerRevision,
    controller_state_version: MANAGER.controllerStateVersion,
    ptah_version: MANAGER.ptahVersion,
    executor_image: MANAGER.executorImage,
    runner_image: MANAGER.runnerImage,
    runner_protocol_version: MANAGER.runnerProtocolVersion,
  });
  const name = `ptah-mplan-${fingerprint.slice(7, 31)}`;
  const body: Obj = {
    apiVersion: API_VERSION,
    kind: "PtahMigrationPlan",
    metadata: {
      name,
      namespace: ns,
      labels: { "operator.ptah.run/migration": migration.metadata.name },
      ownerReferences: [{ apiVersion: API_VERSION, kind: "PtahMigration", name: migration.metadata.name, uid: migration.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      contractVersion: 1,
      migrationRef: { name: migration.metadata.name, uid: migration.metadata.uid },
      fingerprint,
      migrations: steps,
      historyFingerprint: inputs.historyFingerprint,
      currentVersion: inputs.currentVersion,
      artifactDigest: inputs.artifactDigest,
      coordinationDigest: inputs.coordinationDigest,
      targetIdentityDigest: inputs.targetIdentityDigest,
      policyFingerprint: inputs.policyFingerprint,
      verificationPolicyUID: inputs.verificationPolicyUID,
      verificationPolicyDigest: inputs.verificationPolicyDigest,
      executionBindingID: MANAGER.executionBindingID,
      controllerImage: MANAGER.controllerImage,
      controllerRevision: MANAGER.controllerRevision,
      controllerStateVersion: MANAGER.controllerStateVersion,
      ptahVersion: MANAGER.ptahVersion,
      executorImage: MANAGER.executorImage,
      runnerImage: MANAGER.runnerImage,
      runnerProtocolVersion: MANAGER.runnerProtocolVersion,
      createdAt: nowISO(),
    },
  };
  const plan = await createOrGet(kube, resourcePath("ptahmigrationplans", ns), body);
  if (plan.spec?.fingerprint !== fingerprint) throw new Error(`migration plan ${name} exists with another fingerprint`);
  if (plan.status?.observedGeneration !== plan.metadata.generation) {
    // Per the docs a migration plan publishes no conditions; observedGeneration is recorded.
    return kube.mergePatch(`${resourcePath("ptahmigrationplans", ns, name)}/status`, { status: { observedGeneration: plan.metadata.generation } });
  }
  return plan;
}
