// Publishes a schema plan the way the operator does: the document
// bytes, 512 KiB chunks with digests, the manifest, committed chunk UIDs, Ready=Published and the
// fingerprint of the binding. Deterministic (UIDs derive from names and a seed). For fixtures,
// the operator simulator and benchmarks; tamper with the returned raw objects to test refusals.
import { digestBytes } from "../../src/plan/canonical.ts";
import { normalizePrivilegeChanges, type SchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import { APPLIED_COPY_FIELDS, CURRENT_COPY_FIELDS } from "../../src/plan/record-bindings.ts";
import { CHUNK_SIZE, PLAN_LABEL, SCHEMA_LABEL } from "../../src/plan/verify.ts";
import type { FakeObject } from "./fake-reader.ts";
import { publishedFingerprint } from "./oracle-fingerprint.ts";
import { API_VERSION, fakeUID, defaultBinding, serializePlanDocument, toBase64, type ManagedRowsInput, type PlanBindingFields, type StatementInput } from "./plan-document.ts";

// What fixtures import from here, defined beside the document.
export { API_VERSION, defaultBinding, fakeDigest, fakeUID, serializePlanDocument, type ManagedRowsInput, type PlanBindingFields, type StatementInput } from "./plan-document.ts";

export interface PublishPlanInput {
  readonly schema: { readonly name: string; readonly namespace: string; readonly uid: string };
  readonly statements: readonly StatementInput[];
  /** Plan and document dialect; default "postgres". */
  readonly dialect?: string;
  readonly binding?: Partial<PlanBindingFields>;
  /** Default: true when any statement has severity "destructive". */
  readonly destructive?: boolean;
  readonly privilegeChanges?: readonly string[];
  /** The document's `name`; default the schema name. */
  readonly documentName?: string;
  readonly exclude?: readonly string[];
  readonly managedRows?: readonly ManagedRowsInput[];
  readonly rowsFingerprint?: string;
  /** metadata.creationTimestamp of the plan and its chunks; default 2026-09-13T08:04:05Z. */
  readonly createdAt?: string;
  /** Older installs kept chunks in immutable ConfigMaps (binaryData key `chunk`). */
  readonly storage?: "chunks" | "configmaps";
  /** Changes every UID (e.g. a plan deleted and published again under the same name). */
  readonly uidSeed?: string;
  /** Replaces the serialized document (e.g. a future format_version); digests follow the bytes. */
  readonly transformDocument?: (document: string) => string;
}

export interface PublishedPlan {
  readonly name: string;
  /** Raw PtahSchemaPlan as the API server would serve it. */
  readonly plan: Record<string, unknown>;
  /** Raw PtahSchemaPlanChunk objects (or ConfigMaps for storage "configmaps"), in index order. */
  readonly chunks: Record<string, unknown>[];
  readonly chunkKind: "PtahSchemaPlanChunk" | "ConfigMap";
  /** The serialized document (with its trailing newline) and its bytes. */
  readonly document: string;
  readonly documentBytes: Uint8Array;
  readonly fingerprint: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const served = (s: string): string => s.replace(LONE_SURROGATE, "\ufffd");
function servedStrings<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? served(v) : v])) as T;
}

export function publishSchemaPlan(input: PublishPlanInput): PublishedPlan {
  const { schema } = input;
  const dialect = input.dialect ?? "postgres";
  const seed = `${schema.namespace}/${schema.name}/${input.uidSeed ?? ""}`;
  // As an API server serves them: its JSON decoder makes a lone surrogate U+FFFD, and the operator
  // hashes what it decoded (a hostile fixture's raw lone surrogate would bind another fingerprint).
  const binding = servedStrings<PlanBindingFields>({ ...defaultBinding(`${schema.namespace}/${schema.name}`), ...input.binding });
  const destructive = input.destructive ?? input.statements.some((s) => s.severity === "destructive");
  const privilegeChanges = normalizePrivilegeChanges(input.privilegeChanges?.map(served));
  const createdAt = input.createdAt ?? "2026-09-13T08:04:05Z";

  let document = serializePlanDocument({
    name: input.documentName ?? schema.name,
    dialect,
    fromFingerprint: binding.actualStateFingerprint,
    toFingerprint: binding.desiredStateFingerprint,
    exclude: input.exclude,
    managedRows: input.managedRows,
    rowsFingerprint: input.rowsFingerprint,
    destructive,
    statements: input.statements,
  });
  if (input.transformDocument) document = input.transformDocument(document);
  const documentBytes = new Uint8Array(Buffer.from(document, "utf8"));
  const contentDigest = digestBytes(documentBytes);

  const fingerprintInput: SchemaPlanBinding = {
    contractVersion: binding.contractVersion,
    schemaUID: schema.uid,
    planContentDigest: contentDigest,
    artifactDigest: binding.artifactDigest,
    coordinationDigest: binding.coordinationDigest,
    targetIdentityDigest: binding.targetIdentityDigest,
    actualStateFingerprint: binding.actualStateFingerprint,
    desiredStateFingerprint: binding.desiredStateFingerprint,
    policyFingerprint: binding.policyFingerprint,
    verificationPolicyUID: binding.verificationPolicyUID,
    verificationPolicyDigest: binding.verificationPolicyDigest,
    executionBindingID: binding.executionBindingID,
    controllerStateVersion: binding.controllerStateVersion,
    ptahVersion: binding.ptahVersion,
    executorImage: binding.executorImage,
    runnerProtocolVersion: binding.runnerProtocolVersion,
    destructive,
    privilegeChanges,
    statementCount: input.statements.length,
  };
  // Hashed by the Go oracle, not the plugin (./oracle-fingerprint.ts), and without the operator's
  // validation, so tests can publish bindings it would refuse.
  const fingerprint = publishedFingerprint(fingerprintInput);
  const name = `ptah-plan-${fingerprint.slice("sha256:".length, "sha256:".length + 24)}`;
  const planUID = fakeUID(`${seed}/plan/${name}`);
  const storage = input.storage ?? "chunks";

  const slices: Uint8Array[] = [];
  for (let at = 0; at < documentBytes.length; at += CHUNK_SIZE) slices.push(documentBytes.subarray(at, at + CHUNK_SIZE));

  const ownedByPlan = [{ apiVersion: API_VERSION, kind: "PtahSchemaPlan", name, uid: planUID, controller: true, blockOwnerDeletion: true }];
  const chunkLabels = { [PLAN_LABEL]: name, [SCHEMA_LABEL]: schema.name };
  const chunks = slices.map((bytes, index) => {
    const chunkName = `${name}-${String(index).padStart(3, "0")}`;
    const metadata = {
      name: chunkName,
      namespace: schema.namespace,
      uid: fakeUID(`${seed}/chunk/${chunkName}`),
      resourceVersion: String(1000 + index),
      creationTimestamp: createdAt,
      labels: { ...chunkLabels },
      ownerReferences: structuredClone(ownedByPlan),
    };
    return storage === "chunks"
      ? { apiVersion: API_VERSION, kind: "PtahSchemaPlanChunk", metadata, spec: { data: toBase64(bytes) } }
      : { apiVersion: "v1", kind: "ConfigMap", metadata, immutable: true, binaryData: { chunk: toBase64(bytes) } };
  });

  const plan = {
    apiVersion: API_VERSION,
    kind: "PtahSchemaPlan",
    metadata: {
      name,
      namespace: schema.namespace,
      uid: planUID,
      generation: 1,
      resourceVersion: "999",
      creationTimestamp: createdAt,
      labels: { [SCHEMA_LABEL]: schema.name },
      ownerReferences: [{ apiVersion: API_VERSION, kind: "PtahSchema", name: schema.name, uid: schema.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      contractVersion: binding.contractVersion,
      schemaRef: { name: schema.name, uid: schema.uid },
      fingerprint,
      contentDigest,
      size: documentBytes.length,
      artifactDigest: binding.artifactDigest,
      coordinationDigest: binding.coordinationDigest,
      targetIdentityDigest: binding.targetIdentityDigest,
      actualStateFingerprint: binding.actualStateFingerprint,
      desiredStateFingerprint: binding.desiredStateFingerprint,
      policyFingerprint: binding.policyFingerprint,
      verificationPolicyUID: binding.verificationPolicyUID,
      verificationPolicyDigest: binding.verificationPolicyDigest,
      executionBindingID: binding.executionBindingID,
      controllerImage: binding.controllerImage,
      controllerRevision: binding.controllerRevision,
      controllerStateVersion: binding.controllerStateVersion,
      ptahVersion: binding.ptahVersion,
      executorImage: binding.executorImage,
      runnerImage: binding.runnerImage,
      runnerProtocolVersion: binding.runnerProtocolVersion,
      dialect,
      destructive,
      ...(privilegeChanges.length > 0 ? { privilegeChanges } : {}),
      statementCount: input.statements.length,
      chunks: chunks.map((c, index) => ({
        name: c.metadata.name,
        index,
        digest: digestBytes(slices[index]!),
        size: slices[index]!.length,
        ...(storage === "configmaps" ? { key: "chunk" } : {}),
      })),
    },
    status: {
      observedGeneration: 1,
      publishedChunks: chunks.map((c, index) => ({ name: c.metadata.name, uid: c.metadata.uid, index })),
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "Published",
          message: `Verified ${chunks.length} immutable plan chunks`,
          lastTransitionTime: createdAt,
          observedGeneration: 1,
        },
      ],
    },
  };

  return {
    name,
    plan,
    chunks,
    chunkKind: storage === "chunks" ? "PtahSchemaPlanChunk" : "ConfigMap",
    document,
    documentBytes,
    fingerprint,
  };
}

function copiesOf(spec: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, spec[f]]));
}

/** `status.plan` of the schema when this plan is the current one, in the newest CRD's shape. */
export function currentPlanStatus(p: PublishedPlan): Record<string, unknown> {
  return planRecordOf(p.plan);
}

/** `status.plan` naming a stored plan object (raw, as served), as the operator writes it. */
export function planRecordOf(plan: Record<string, unknown>): Record<string, unknown> {
  const spec = plan.spec as Record<string, unknown>;
  const meta = plan.metadata as Record<string, unknown>;
  return {
    name: meta.name,
    uid: meta.uid,
    fingerprint: spec.fingerprint,
    ...copiesOf(spec, CURRENT_COPY_FIELDS),
    ...(spec.privilegeChanges ? { privilegeChanges: spec.privilegeChanges } : {}),
    createdAt: meta.creationTimestamp,
  };
}

/**
 * `status.applied` of the schema after this plan was applied, in the newest CRD's shape;
 * `planRef: false` is an older record (no planRef), `copies: false` one without binding copies.
 */
export function appliedStatus(p: PublishedPlan, completedAt = "2026-09-13T08:04:24Z", options: { planRef?: boolean; copies?: boolean } = {}): Record<string, unknown> {
  const spec = p.plan.spec as Record<string, unknown>;
  const meta = p.plan.metadata as Record<string, unknown>;
  return {
    ...(options.planRef === false ? {} : { planRef: { name: p.name, uid: meta.uid } }),
    planFingerprint: p.fingerprint,
    ...(options.copies === false ? { artifactDigest: spec.artifactDigest, ptahVersion: spec.ptahVersion } : copiesOf(spec, APPLIED_COPY_FIELDS)),
    completedAt,
  };
}

/** The plan and its chunks as FakeReader objects. */
export function fakeObjectsOf(p: PublishedPlan): FakeObject[] {
  return [{ kind: "PtahSchemaPlan", raw: p.plan }, ...p.chunks.map((raw) => ({ kind: p.chunkKind, raw }))];
}
