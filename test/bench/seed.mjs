// Seeds the benchmark lab straight through the Kubernetes HTTP API as lab-admin (client
// certificate from lab.json): node:https with keep-alive and a bounded number of requests in
// flight, never one kubectl process per object. Objects are written the way the operator (and the
// operator simulator, test/sim/) publishes them: PtahSchema → PtahSchemaPlan → chunks owned by the
// plan (with its real UID) → plan status with the chunks' real UIDs → schema status.plan with the
// plan's real UID; then three PtahSchemaApprovals per schema, stamped by us (approver, approvedAt,
// mutationRequestUID) because the lab runs without the operator's mutating webhook.
//
// Plan documents, digests, chunking and fingerprints come from test/support/publish-plan.ts
// (bundled with esbuild by bench.mjs), so what is seeded verifies exactly as a real plan does.
// The HTTP client (keep-alive, bounded concurrency, retries) is api.mjs.
import { createHash } from "node:crypto";
import { API_VERSION, ApiClient, pool } from "./api.mjs";

export { API_VERSION, ApiClient, GROUP, pool } from "./api.mjs";

export const NAMESPACES = Array.from({ length: 10 }, (_, i) => `bench-${String(i).padStart(2, "0")}`);
export const BIG_NAMESPACE = "bench-big";
export const BIG_SCHEMA = "big";
const CREATED_AT = "2026-09-13T08:04:05Z";

/** Schema i of the benchmark: name and namespace (round-robin over the 10 namespaces). */
export function schemaAt(i) {
  return { name: `schema-${String(i).padStart(5, "0")}`, namespace: NAMESPACES[i % NAMESPACES.length] };
}

function sha(seed) {
  return createHash("sha256").update(seed).digest("hex");
}

function digest(seed) {
  return `sha256:${sha(seed)}`;
}

function uid(seed) {
  const h = sha(`uid:${seed}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function cond(type, status, reason, message, lastTransitionTime = CREATED_AT) {
  return { type, status, reason, message, lastTransitionTime, observedGeneration: 1 };
}

// ---------------------------------------------------------------------------------------------
// Objects

function schemaObject(name, namespace) {
  return {
    apiVersion: API_VERSION,
    kind: "PtahSchema",
    metadata: { name, namespace, labels: { "app.kubernetes.io/part-of": "ptah-bench" } },
    spec: {
      target: { engine: "PostgreSQL", coordinationKey: `db-${name}`, urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: `oci://registry.lab/schemas/${name}:v3`, verificationPolicyFrom: { name: "policy", key: "policy.json" } },
    },
  };
}

function withoutServerFields(raw) {
  const meta = { ...raw.metadata };
  delete meta.uid;
  delete meta.resourceVersion;
  delete meta.creationTimestamp;
  delete meta.generation;
  const out = { ...raw, metadata: meta };
  delete out.status;
  return out;
}

/**
 * Publishes `published` (a publishSchemaPlan result) for the schema: plan, chunks owned by the
 * plan's real UID, plan status naming the chunks' real UIDs. Returns the schema's status.plan.
 */
async function publishPlan(api, published, currentPlanStatus, namespace) {
  const plan = await api.create("ptahschemaplans", namespace, withoutServerFields(published.plan));
  const planUid = plan.metadata.uid;
  const chunks = [];
  for (const c of published.chunks) {
    const raw = withoutServerFields(c);
    raw.metadata.ownerReferences = [{ apiVersion: API_VERSION, kind: "PtahSchemaPlan", name: published.name, uid: planUid, controller: true, blockOwnerDeletion: true }];
    chunks.push(await api.create("ptahschemaplanchunks", namespace, raw));
  }
  const status = structuredClone(published.plan.status);
  status.publishedChunks = chunks.map((c, index) => ({ name: c.metadata.name, uid: c.metadata.uid, index }));
  status.observedGeneration = plan.metadata.generation ?? 1;
  await api.patchStatus("ptahschemaplans", namespace, published.name, status);
  return { ...currentPlanStatus(published), uid: planUid, createdAt: plan.metadata.creationTimestamp };
}

function smallStatements(i) {
  return [
    {
      sql: `CREATE TABLE "orders_${i}" ("id" bigint PRIMARY KEY NOT NULL, "customer_id" bigint NOT NULL, "total" numeric(12,2) NOT NULL)`,
      severity: "safe",
      reason: "tables_added",
    },
    { sql: `CREATE INDEX "orders_${i}_customer_idx" ON "orders_${i}" ("customer_id")`, severity: "safe", reason: "indexes_added" },
    { sql: `ALTER TABLE "customers" ADD COLUMN "segment_${i}" text`, severity: "info", reason: "columns_added" },
  ];
}

function approvalObject({ name, namespace, schema, schemaUid, planName, planUid, fingerprint, approver, approvedAt }) {
  return {
    apiVersion: API_VERSION,
    kind: "PtahSchemaApproval",
    metadata: { name, namespace },
    spec: {
      schemaRef: { name: schema, uid: schemaUid },
      planRef: { name: planName, uid: planUid },
      planFingerprint: fingerprint,
      // Stamped by the operator's mutating webhook on a real cluster; the lab has none.
      approver: { username: approver, uid: uid(`user/${approver}`), groups: ["system:authenticated", "dba"] },
      approvedAt,
      mutationRequestUID: uid(`mutation/${namespace}/${name}`),
    },
  };
}

/**
 * One schema with a current (small, one-chunk) plan and three approvals: one consumed and since
 * stale, one superseded, one bound to the current plan (reserved on every other schema).
 */
export async function seedSchema(api, lib, i) {
  const { name, namespace } = schemaAt(i);
  const schema = await api.create("ptahschemas", namespace, schemaObject(name, namespace));
  const schemaUid = schema.metadata.uid;
  const published = lib.publishSchemaPlan({ schema: { name, namespace, uid: schemaUid }, statements: smallStatements(i), createdAt: CREATED_AT });
  const planStatus = await publishPlan(api, published, lib.currentPlanStatus, namespace);

  const old1 = { planName: `ptah-plan-${sha(`${name}/old1`).slice(0, 24)}`, planUid: uid(`${namespace}/${name}/old1`), fingerprint: digest(`${name}/old1`) };
  const old2 = { planName: `ptah-plan-${sha(`${name}/old2`).slice(0, 24)}`, planUid: uid(`${namespace}/${name}/old2`), fingerprint: digest(`${name}/old2`) };
  const base = { namespace, schema: name, schemaUid };
  const a1 = await api.create(
    "ptahschemaapprovals",
    namespace,
    approvalObject({ ...base, ...old1, name: `${name}-v1`, approver: "alice@example.com", approvedAt: "2026-09-10T10:00:00Z" }),
  );
  const a2 = await api.create(
    "ptahschemaapprovals",
    namespace,
    approvalObject({ ...base, ...old2, name: `${name}-v2`, approver: "bob@example.com", approvedAt: "2026-09-12T10:00:00Z" }),
  );
  const a3 = await api.create(
    "ptahschemaapprovals",
    namespace,
    approvalObject({
      ...base,
      planName: published.name,
      planUid: planStatus.uid,
      fingerprint: published.fingerprint,
      name: `${name}-v3`,
      approver: "carol@example.com",
      approvedAt: "2026-09-13T09:00:00Z",
    }),
  );
  await api.patchStatus("ptahschemaapprovals", namespace, a1.metadata.name, {
    observedGeneration: 1,
    conditions: [
      cond("Consumed", "True", "DispatchCommitted", "The exact plan was committed to one Apply Job dispatch", "2026-09-10T10:01:00Z"),
      cond("Stale", "True", "PlanNoLongerCurrent", "The approved plan no longer matches the current database state", "2026-09-12T09:00:00Z"),
    ],
  });
  await api.patchStatus("ptahschemaapprovals", namespace, a2.metadata.name, {
    observedGeneration: 1,
    conditions: [cond("Stale", "True", "SupersededApproval", "A newer approval binds the same schema", "2026-09-13T09:00:00Z")],
  });

  const reserved = i % 2 === 1;
  await api.patchStatus("ptahschemas", namespace, name, {
    observedGeneration: 1,
    phase: reserved ? "Applying" : "AwaitingApproval",
    source: {
      requestedReference: `oci://registry.lab/schemas/${name}:v3`,
      resolvedReference: `oci://registry.lab/schemas/${name}@${digest(`${name}/artifact`)}`,
      digest: digest(`${name}/artifact`),
      verified: true,
      resolvedAt: CREATED_AT,
      verifiedAt: CREATED_AT,
    },
    plan: reserved
      ? { ...planStatus, approval: { name: a3.metadata.name, uid: a3.metadata.uid, approver: { username: "carol@example.com" }, approvedAt: "2026-09-13T09:00:00Z" } }
      : planStatus,
    // The newest CRD requires the binding copies; the older plan shares the current one's manager.
    applied: {
      ...lib.appliedStatus(published, "2026-09-10T10:02:00Z"),
      artifactDigest: digest(`${name}/artifact-v2`),
      planRef: { name: old1.planName, uid: old1.planUid },
      planFingerprint: old1.fingerprint,
      ptahVersion: "v0.3.0",
    },
    lastAttemptTime: CREATED_AT,
    conditions: [
      cond("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks"),
      reserved
        ? cond("ApprovalRequired", "False", "Approved", "An approval bound to the current plan is reserved")
        : cond("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"),
      cond("Ready", "False", reserved ? "Applying" : "AwaitingApproval", reserved ? "The approved plan is being applied" : "The current plan requires a new approval"),
    ],
  });
}

/** Statements of roughly `bytes` serialized bytes in total (CREATE TABLE with many columns). */
function bigStatements(count) {
  const out = [];
  for (let t = 0; t < count; t++) {
    const cols = Array.from({ length: 24 }, (_, c) => `"column_${String(c).padStart(2, "0")}_of_table_${t}" text`).join(", ");
    out.push({ sql: `CREATE TABLE "bench_table_${String(t).padStart(5, "0")}" ("id" bigint PRIMARY KEY NOT NULL, ${cols})`, severity: "safe", reason: "tables_added" });
  }
  return out;
}

/**
 * The schema with the 8 MiB plan: a document between 15 and 16 × 512 KiB, so exactly 16 chunks.
 * Returns its plan and chunk names and the document size.
 */
export async function seedBigPlan(api, lib) {
  const namespace = BIG_NAMESPACE;
  const name = BIG_SCHEMA;
  await api.ensureNamespace(namespace);
  const schema = await api.create("ptahschemas", namespace, schemaObject(name, namespace));
  const schemaUid = schema.metadata.uid;
  const CHUNK = 512 * 1024;
  const low = 15 * CHUNK;
  const high = 16 * CHUNK;
  const target = high - 64 * 1024; // ~8.13 MB: 16 chunks, the last one nearly full
  const probe = lib.publishSchemaPlan({ schema: { name, namespace, uid: schemaUid }, statements: bigStatements(100), createdAt: CREATED_AT });
  const perStatement = probe.documentBytes.length / 100;
  let count = Math.floor(target / perStatement);
  let published;
  for (let attempt = 0; attempt < 20; attempt++) {
    published = lib.publishSchemaPlan({ schema: { name, namespace, uid: schemaUid }, statements: bigStatements(count), createdAt: CREATED_AT });
    const size = published.documentBytes.length;
    if (size > low && size <= high) break;
    count += size <= low ? Math.ceil((low - size) / perStatement) + 1 : -Math.ceil((size - high) / perStatement) - 1;
  }
  if (published.chunks.length !== 16) throw new Error(`the big plan has ${published.chunks.length} chunks, not 16`);
  const planStatus = await publishPlan(api, published, lib.currentPlanStatus, namespace);
  await api.patchStatus("ptahschemas", namespace, name, {
    observedGeneration: 1,
    phase: "AwaitingApproval",
    plan: planStatus,
    conditions: [
      cond("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks"),
      cond("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"),
      cond("Ready", "False", "AwaitingApproval", "The current plan requires a new approval"),
    ],
  });
  // The plan a person approved before (`diff --from plan`): as large, every 16th statement different.
  const earlierStatements = bigStatements(count).map((st, i) => (i % 16 === 0 ? { ...st, sql: st.sql.replace(/ text\)$/u, " varchar)") } : st));
  const earlier = lib.publishSchemaPlan({
    schema: { name, namespace, uid: schemaUid },
    statements: earlierStatements,
    createdAt: CREATED_AT,
    binding: { desiredStateFingerprint: `sha256:${"e".repeat(64)}` },
  });
  if (earlier.chunks.length !== 16) throw new Error(`the earlier big plan has ${earlier.chunks.length} chunks, not 16`);
  await publishPlan(api, earlier, lib.currentPlanStatus, namespace);
  return {
    namespace,
    schema: name,
    earlierPlan: earlier.name,
    earlierDocumentBytes: earlier.documentBytes.length,
    plan: published.name,
    chunks: published.chunks.map((c) => c.metadata.name),
    documentBytes: published.documentBytes.length,
    statements: count,
    sqlBytes: published.document.length,
  };
}
