// The operator's approval admission, served for real: a mutating pass that
// stamps the authenticated identity (approver/acknowledgedBy {username, uid, groups sorted and
// de-duplicated}, approvedAt/acknowledgedAt, mutationRequestUID = the AdmissionReview UID) and
// then validates the binding, and a validating pass that re-checks the stamp against the
// request's user and re-validates the binding. Refusals use the contract's messages, in its
// check order. Reads go straight to the API server. No side effects (sideEffects: None), so a
// dryRun request is answered exactly like a real one.
import { canonicalJSON } from "../../src/plan/canonical.ts";
import { coordinationDigest, readVerificationPolicy } from "./binding.ts";
import { conditionOf, normalizeGroups, nowISO } from "./common.ts";
import { ApiError, resourcePath, type Kube, type Obj } from "./kube.ts";
import { SPEC_WRITER_RESOURCES, distinctApproverRefusal, stampSpecWriter } from "./spec-writer.ts";

export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  namespace?: string;
  operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  userInfo: { username?: string; uid?: string; groups?: string[] };
  object?: Obj;
  oldObject?: Obj;
  dryRun?: boolean;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; message: string; reason?: string };
  patch?: string;
  patchType?: "JSONPatch";
}

interface Refusal {
  code: number;
  message: string;
}

const refuse = (message: string, code = 403): Refusal => ({ code, message });

type Flavor = "schemaApproval" | "migrationApproval" | "acknowledgment";

function flavorOf(resource: string): Flavor | undefined {
  if (resource === "ptahschemaapprovals") return "schemaApproval";
  if (resource === "ptahmigrationapprovals") return "migrationApproval";
  if (resource === "ptahmigrationrunacknowledgments") return "acknowledgment";
  return undefined;
}

const STAMP = {
  schemaApproval: { who: "approver", when: "approvedAt", noun: "approval" },
  migrationApproval: { who: "approver", when: "approvedAt", noun: "approval" },
  acknowledgment: { who: "acknowledgedBy", when: "acknowledgedAt", noun: "acknowledgment" },
} as const;

function sameJSON(a: unknown, b: unknown): boolean {
  return canonicalJSON(JSON.parse(JSON.stringify(a ?? null))) === canonicalJSON(JSON.parse(JSON.stringify(b ?? null)));
}

function isReady(plan: Obj): boolean {
  const ready = conditionOf(plan, "Ready");
  const chunks = plan.spec?.chunks ?? [];
  const published = plan.status?.publishedChunks ?? [];
  return Boolean(
    ready?.status === "True" &&
    plan.status?.observedGeneration === plan.metadata.generation &&
    chunks.length > 0 &&
    chunks.length === published.length &&
    published.every((p: { uid?: string }) => Boolean(p.uid)),
  );
}

async function readRef(kube: Kube, what: string, plural: string, ns: string, name: string): Promise<Obj | Refusal> {
  try {
    const obj = await kube.request<Obj>("GET", resourcePath(plural, ns, name));
    return obj;
  } catch (err) {
    if (err instanceof ApiError) {
      const detail = typeof (err.body as { message?: string })?.message === "string" ? (err.body as { message: string }).message : err.message;
      return refuse(`read ${what}: ${detail}`, err.status === 404 || err.status === 403 ? err.status : 500);
    }
    return refuse(`read ${what}: ${(err as Error).message}`, 500);
  }
}

const isRefusal = (x: unknown): x is Refusal => typeof x === "object" && x !== null && "code" in x && "message" in x && !("metadata" in x);

/** Admission's schema approval binding checks, in the contract's order. */
export async function checkSchemaApproval(kube: Kube, ns: string, spec: any, managerEpoch: string): Promise<Refusal | undefined> {
  if (!spec?.schemaRef?.name || !spec?.schemaRef?.uid) return refuse("approval must explicitly identify the schema name and UID");
  if (!spec?.planRef?.name || !spec?.planRef?.uid) return refuse("approval must explicitly identify the plan name and UID");
  if (!spec?.planFingerprint) return refuse("approval must explicitly identify the plan fingerprint");
  const plan = await readRef(kube, "referenced plan", "ptahschemaplans", ns, spec.planRef.name);
  if (isRefusal(plan)) return plan;
  if (plan.metadata.deletionTimestamp) return refuse("referenced plan is being deleted");
  if (plan.metadata.uid !== spec.planRef.uid) return refuse("referenced plan UID does not match; the plan was replaced");
  if (plan.spec?.schemaRef?.name !== spec.schemaRef.name || plan.spec?.schemaRef?.uid !== spec.schemaRef.uid) return refuse("approval schema reference does not match the plan");
  if (plan.spec?.fingerprint !== spec.planFingerprint) return refuse("approval plan fingerprint does not match the immutable plan");
  if (plan.spec?.contractVersion !== 1) return refuse(`referenced plan contract is not supported: contract version ${String(plan.spec?.contractVersion)} is not 1`);
  if (plan.spec?.executionBindingID !== managerEpoch) return refuse("referenced plan was computed under an execution binding this manager does not run");
  if (!isReady(plan)) return refuse("referenced plan storage is not ready");
  const schema = await readRef(kube, "referenced schema", "ptahschemas", ns, spec.schemaRef.name);
  if (isRefusal(schema)) return schema;
  if (schema.metadata.deletionTimestamp) return refuse("referenced schema is being deleted");
  if (schema.metadata.uid !== spec.schemaRef.uid || schema.metadata.uid !== plan.spec.schemaRef.uid) return refuse("schema UID does not match the plan binding");
  const current = schema.status?.plan;
  if (!current || current.name !== plan.metadata.name || current.uid !== plan.metadata.uid || current.fingerprint !== plan.spec.fingerprint) {
    return refuse("referenced plan is no longer current for the schema");
  }
  if (schema.status?.phase !== "AwaitingApproval") return refuse("referenced schema is not awaiting approval");
  if (conditionOf(schema, "ApprovalRequired")?.status !== "True") return refuse("referenced schema does not currently require approval");
  if (schema.status?.activeOperation?.type) return refuse("referenced schema has an active operation");
  if (current.approval?.name) return refuse("referenced plan already has a recorded approval");
  const distinct = await distinctApproverRefusal(kube, ns, "schema", schema, spec.approver);
  if (distinct) return refuse(distinct);
  const coord = coordinationDigest(schema);
  if (typeof coord !== "string") return refuse(`derive current database coordination digest: ${coord.error}`);
  if (coord !== plan.spec.coordinationDigest || schema.status?.source?.digest !== plan.spec.artifactDigest) {
    return refuse("schema source or target changed after the plan was generated");
  }
  const vp = await readVerificationPolicy(kube, ns, schema.spec?.desired?.verificationPolicyFrom);
  if ("error" in vp || vp.uid !== plan.spec.verificationPolicyUID || vp.digest !== plan.spec.verificationPolicyDigest) {
    return refuse("verification policy changed after the plan was generated");
  }
  return undefined;
}

/** Admission's migration approval checks (kind word `migration`). */
export async function checkMigrationApproval(kube: Kube, ns: string, spec: any, managerEpoch: string): Promise<Refusal | undefined> {
  if (!spec?.migrationRef?.name || !spec?.migrationRef?.uid) return refuse("approval must explicitly identify the migration name and UID");
  if (!spec?.planRef?.name || !spec?.planRef?.uid) return refuse("approval must explicitly identify the plan name and UID");
  if (!spec?.planFingerprint) return refuse("approval must explicitly identify the plan fingerprint");
  const plan = await readRef(kube, "referenced plan", "ptahmigrationplans", ns, spec.planRef.name);
  if (isRefusal(plan)) return plan;
  if (plan.metadata.deletionTimestamp) return refuse("referenced plan is being deleted");
  if (plan.metadata.uid !== spec.planRef.uid) return refuse("referenced plan UID does not match; the plan was replaced");
  if (plan.spec?.migrationRef?.name !== spec.migrationRef.name || plan.spec?.migrationRef?.uid !== spec.migrationRef.uid)
    return refuse("approval migration reference does not match the plan");
  if (plan.spec?.fingerprint !== spec.planFingerprint) return refuse("approval plan fingerprint does not match the immutable plan");
  if (plan.spec?.contractVersion !== 1) return refuse(`referenced plan contract version ${String(plan.spec?.contractVersion)} is not the one this manager publishes`);
  if (plan.spec?.executionBindingID !== managerEpoch) return refuse("an execution component changed after the plan was generated");
  const m = await readRef(kube, "referenced migration", "ptahmigrations", ns, spec.migrationRef.name);
  if (isRefusal(m)) return m;
  if (m.metadata.deletionTimestamp) return refuse("referenced migration is being deleted");
  if (m.metadata.uid !== spec.migrationRef.uid || m.metadata.uid !== plan.spec.migrationRef.uid) return refuse("migration UID does not match the plan binding");
  if (m.status?.plan?.name !== plan.metadata.name || m.status?.plan?.uid !== plan.metadata.uid) return refuse("referenced plan is no longer the migration's current plan");
  if (m.status?.phase !== "AwaitingApproval") return refuse("referenced migration is not awaiting approval");
  if (conditionOf(m, "ApprovalRequired")?.status !== "True") return refuse("referenced migration does not currently require approval");
  if (m.status?.activeOperation?.type) return refuse("referenced migration has an active operation");
  if (!m.status?.history) return refuse("referenced migration has no history to approve against");
  if (m.status.history.fingerprint !== plan.spec.historyFingerprint) return refuse("the database's history moved after the plan was generated");
  if (m.status.history.targetIdentityDigest && m.status.history.targetIdentityDigest !== plan.spec.targetIdentityDigest)
    return refuse("the database identity changed after the plan was generated");
  if (m.status?.artifact?.digest !== plan.spec.artifactDigest) return refuse("the resolved artifact changed after the plan was generated");
  const coord = coordinationDigest(m);
  if (typeof coord !== "string" || coord !== plan.spec.coordinationDigest) return refuse("the declared coordination realm changed after the plan was generated");
  const vp = await readVerificationPolicy(kube, ns, m.spec?.artifact?.verificationPolicyFrom);
  if ("error" in vp || vp.uid !== plan.spec.verificationPolicyUID || vp.digest !== plan.spec.verificationPolicyDigest) {
    return refuse("the verification policy changed after the plan was generated");
  }
  const distinct = await distinctApproverRefusal(kube, ns, "migration", m, spec.approver);
  return distinct ? refuse(distinct) : undefined;
}

/** Admission's run acknowledgment checks. */
export async function checkAcknowledgment(kube: Kube, ns: string, spec: any): Promise<Refusal | undefined> {
  if (!spec?.migrationRef?.name || !spec?.migrationRef?.uid) return refuse("acknowledgment must explicitly identify the migration name and UID");
  if (!spec?.operationID) return refuse("acknowledgment must name the operationID of the unresolved run");
  const m = await readRef(kube, "referenced migration", "ptahmigrations", ns, spec.migrationRef.name);
  if (isRefusal(m)) return m;
  if (m.metadata.deletionTimestamp) return refuse("referenced migration is being deleted");
  if (m.metadata.uid !== spec.migrationRef.uid) return refuse("referenced migration UID does not match; the migration was replaced");
  const run = m.status?.unresolvedRun;
  if (!run?.operationID) return refuse("referenced migration records no unresolved run");
  if (run.operationID !== spec.operationID) return refuse(`referenced migration's unresolved run is operation ${run.operationID}, not the one this acknowledgment names`);
  return undefined;
}

async function checkBinding(kube: Kube, flavor: Flavor, ns: string, spec: unknown, epoch: string): Promise<Refusal | undefined> {
  switch (flavor) {
    case "schemaApproval":
      return checkSchemaApproval(kube, ns, spec, epoch);
    case "migrationApproval":
      return checkMigrationApproval(kube, ns, spec, epoch);
    case "acknowledgment":
      return checkAcknowledgment(kube, ns, spec);
  }
}

function identityOf(req: AdmissionRequest): { username: string; uid?: string; groups: string[] } {
  const username = req.userInfo?.username ?? "";
  const uid = req.userInfo?.uid;
  return { username, ...(uid ? { uid } : {}), groups: normalizeGroups(req.userInfo?.groups) };
}

/** Common front part of both passes: operation, namespace, immutability. */
function frontChecks(req: AdmissionRequest, flavor: Flavor): Refusal | "allow-update" | undefined {
  const noun = STAMP[flavor].noun;
  if (req.operation === "UPDATE") {
    // Only metadata-preserving updates: the spec (stamp included) never changes.
    if (!sameJSON(req.object?.spec, req.oldObject?.spec)) return refuse(`${noun} spec is immutable; create a new ${noun}`);
    return "allow-update";
  }
  if (req.operation !== "CREATE") return refuse("only create and metadata-preserving updates are supported");
  const objNs = req.object?.metadata?.namespace;
  if (objNs && req.namespace && objNs !== req.namespace) return refuse(`${noun} namespace does not match the admission request`);
  return undefined;
}

export async function mutate(kube: Kube, req: AdmissionRequest, epoch: string): Promise<AdmissionResponse> {
  if (SPEC_WRITER_RESOURCES.includes(req.resource?.resource) && !req.subResource) return stampSpecWriter(req);
  const flavor = flavorOf(req.resource?.resource);
  if (!flavor || req.subResource) return { uid: req.uid, allowed: true };
  const front = frontChecks(req, flavor);
  if (front === "allow-update") return { uid: req.uid, allowed: true };
  if (front) return deny(req, front);
  const who = identityOf(req);
  const { who: whoField, when } = STAMP[flavor];
  const stampedAt = nowISO();
  const spec = { ...(req.object?.spec ?? {}), [whoField]: who, [when]: stampedAt, mutationRequestUID: req.uid };
  const refusal = await checkBinding(kube, flavor, req.namespace ?? "", spec, epoch);
  if (refusal) return deny(req, refusal);
  const patch = [
    ...(req.object?.spec ? [] : [{ op: "add", path: "/spec", value: {} }]),
    { op: "add", path: `/spec/${whoField}`, value: who },
    { op: "add", path: `/spec/${when}`, value: stampedAt },
    { op: "add", path: "/spec/mutationRequestUID", value: req.uid },
  ];
  return { uid: req.uid, allowed: true, patchType: "JSONPatch", patch: Buffer.from(JSON.stringify(patch)).toString("base64") };
}

export async function validate(kube: Kube, req: AdmissionRequest, epoch: string): Promise<AdmissionResponse> {
  const flavor = flavorOf(req.resource?.resource);
  if (!flavor || req.subResource) return { uid: req.uid, allowed: true };
  const front = frontChecks(req, flavor);
  if (front === "allow-update") return { uid: req.uid, allowed: true };
  if (front) return deny(req, front);
  const spec = req.object?.spec ?? {};
  const { who: whoField, when, noun } = STAMP[flavor];
  const who = identityOf(req);
  const label = flavor === "acknowledgment" ? "acknowledgedBy" : "approver";
  if (!who.username) return deny(req, refuse(`authenticated ${noun} username is empty`));
  const stamped = spec[whoField] as { username?: string; uid?: string; groups?: string[] } | undefined;
  if (!stamped?.username || !spec.mutationRequestUID) return deny(req, refuse(`${noun} identity was not stamped by the mutating admission webhook`));
  if (
    stamped.username !== who.username ||
    (stamped.uid ?? "") !== (who.uid ?? "") ||
    !sameJSON(normalizeGroups(stamped.groups), who.groups) ||
    !sameJSON(stamped.groups ?? [], who.groups)
  ) {
    return deny(req, refuse(`reserved ${label} identity fields do not match the authenticated request`));
  }
  if (!spec[when]) return deny(req, refuse(`${when} was not stamped by the admission webhook`));
  const refusal = await checkBinding(kube, flavor, req.namespace ?? "", spec, epoch);
  if (refusal) return deny(req, refusal);
  const message =
    flavor === "schemaApproval"
      ? "approval is bound to the current immutable plan"
      : flavor === "migrationApproval"
        ? "approval is bound to the current immutable migration plan"
        : "acknowledgment names the migration's unresolved run";
  return { uid: req.uid, allowed: true, status: { code: 200, message } };
}

function deny(req: AdmissionRequest, r: Refusal): AdmissionResponse {
  const reason = r.code === 404 ? "NotFound" : r.code === 403 ? "Forbidden" : r.code >= 500 ? "InternalError" : "Invalid";
  return { uid: req.uid, allowed: false, status: { code: r.code, message: r.message, reason } };
}
