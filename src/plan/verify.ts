// Every check between reading a plan and printing it (go-client §2.2–2.4, operator-api §5.3),
// with upstream's messages and exit statuses, plus the recomputed fingerprint (§5.2). Each check
// is also recorded as data in a CheckLog, so `plan --verify` can report what held. Pure.
import { NotFoundError, PtahError, VerificationError } from "../errors.ts";
import type { ChunkManifestEntry, PtahSchema, PtahSchemaPlan } from "../model/kinds.ts";
import { PTAH_API_VERSION } from "../model/api.ts";
import { digestBytes } from "./canonical.ts";
import { crossCheckDocument, decodePlanDocument, type PlanDocument } from "./document.ts";
import {
  bindingOfPlanSpec,
  digestSchemaPlanBinding,
  EXECUTION_BINDING_ID,
  SUPPORTED_PLAN_CONTRACT_VERSIONS,
  validateSchemaPlanBinding,
} from "./fingerprint.ts";
import type { PlanRecord } from "./select.ts";

/** Storage limits (operator-api §5.3). */
export const CHUNK_SIZE = 524288;
export const MAX_CHUNKS = 16;
export const MAX_PLAN_BYTES = 8388608;

export const PLAN_LABEL = "operator.ptah.run/plan";
export const SCHEMA_LABEL = "operator.ptah.run/schema";

export interface CheckResult {
  /** Short name, e.g. "storage" or "chunk 2". */
  readonly check: string;
  readonly ok: boolean;
  /** What held, or the refusal message. */
  readonly detail: string;
}

/** Collects check results in order; a failed check records the error and throws it. */
export class CheckLog {
  readonly results: CheckResult[] = [];

  pass(check: string, detail: string): void {
    this.results.push({ check, ok: true, detail });
  }

  fail(check: string, error: PtahError): never {
    this.results.push({ check, ok: false, detail: error.message });
    throw error;
  }

  /** Runs `step`; a PtahError it throws is recorded against `check` before it propagates. */
  run<T>(check: string, step: () => T): T {
    try {
      return step();
    } catch (err) {
      if (err instanceof PtahError && !this.results.some((r) => !r.ok && r.detail === err.message)) {
        this.results.push({ check, ok: false, detail: err.message });
      }
      throw err;
    }
  }
}

function storeError(planName: string, what: string): VerificationError {
  return new VerificationError(`read the stored plan ${planName}: ${what}`);
}

// ------------------------------------------------------------------ §2.2 binding to the record

/** Steps 1–2 of §2.2: the record must name a plan, with a UID. Returns the plan name. */
export function verifyRecordNamesPlan(log: CheckLog, record: PlanRecord): string {
  if (!record.planName) {
    return log.fail("selection", new NotFoundError("no such plan: the record names no stored plan"));
  }
  if (!record.planUID) {
    log.fail(
      "selection",
      new VerificationError(
        `the record names the stored plan ${record.planName} without a UID, so nothing says it is still the same object`,
      ),
    );
  }
  log.pass("selection", `the ${record.selection} record names ${record.planName} (UID ${record.planUID})`);
  return record.planName;
}

/** Steps 4–6 of §2.2: same object, same fingerprint, same schema. */
export function verifyPlanBinding(
  log: CheckLog,
  record: PlanRecord,
  schema: PtahSchema,
  plan: PtahSchemaPlan,
): void {
  const name = plan.metadata.name;
  const uid = plan.metadata.uid ?? "";
  if (uid !== record.planUID) {
    log.fail(
      "plan object",
      new VerificationError(
        `the stored plan ${name} has UID ${JSON.stringify(uid)} and the record names ${JSON.stringify(record.planUID ?? "")}, so it is a different object under the same name`,
      ),
    );
  }
  const fingerprint = plan.spec.fingerprint ?? "";
  if (record.fingerprint && fingerprint !== record.fingerprint) {
    log.fail(
      "plan object",
      new VerificationError(
        `the stored plan ${name} carries the fingerprint ${fingerprint || "(none)"} and the record names ${record.fingerprint}`,
      ),
    );
  }
  const ref = plan.spec.schemaRef;
  if (ref?.name !== schema.metadata.name || !ref.uid || ref.uid !== schema.metadata.uid) {
    log.fail(
      "plan object",
      new VerificationError(
        `the stored plan ${name} belongs to ${record.namespace}/${ref?.name ?? "(no schema)"}, not to this schema`,
      ),
    );
  }
  log.pass("plan object", `${name} has the recorded UID and fingerprint and belongs to this schema`);
}

// ------------------------------------------------------------------ §2.3 the store

const PINNED_IMAGE = /^[^\s@]+@sha256:[0-9a-f]{64}$/;

function isValidRevision(rev: string | undefined): boolean {
  if (rev === undefined || rev.length < 1 || rev.length > 128) return false;
  if (rev.trim() !== rev) return false;
  // eslint-disable-next-line no-control-regex -- a revision must not carry control characters
  return !/[\u0000-\u001f\u007f]/.test(rev);
}

/** Step 1 of §2.3: the plan contract. */
export function verifyPlanContract(log: CheckLog, plan: PtahSchemaPlan): void {
  const name = plan.metadata.name;
  const s = plan.spec;
  const fail: (what: string) => never = (what) => log.fail("contract", storeError(name, what));
  if (s.contractVersion === undefined || !SUPPORTED_PLAN_CONTRACT_VERSIONS.includes(s.contractVersion)) {
    fail(
      `plan contract version ${s.contractVersion ?? "(none)"} is not supported (this plugin reads ${SUPPORTED_PLAN_CONTRACT_VERSIONS.join(" and ")})`,
    );
  }
  if (!EXECUTION_BINDING_ID.test(s.executionBindingID ?? "")) {
    fail(`plan execution binding ID ${JSON.stringify(s.executionBindingID ?? "")} is not v1- and 32 lowercase hex digits`);
  }
  if (!PINNED_IMAGE.test(s.controllerImage ?? "")) {
    fail(`plan controller image ${JSON.stringify(s.controllerImage ?? "")} is not pinned by a sha256 digest`);
  }
  if (!isValidRevision(s.controllerRevision)) fail("plan controller revision is empty or malformed");
  if (s.controllerStateVersion === undefined || s.controllerStateVersion < 1) {
    fail(`plan controller state version ${s.controllerStateVersion ?? "(none)"} is below 1`);
  }
  log.pass(
    "contract",
    `version ${s.contractVersion}, execution binding ${s.executionBindingID}, controller image pinned by digest`,
  );
}

/**
 * Beyond upstream: recompute the fingerprint from the plan spec (operator-api §5.2) and compare
 * it with spec.fingerprint, which verifyPlanBinding already compared with the record.
 */
export function verifyFingerprint(log: CheckLog, record: PlanRecord, plan: PtahSchemaPlan): string {
  const name = plan.metadata.name;
  const binding = bindingOfPlanSpec(plan.spec);
  const problems = validateSchemaPlanBinding(binding);
  if (problems.length > 0) {
    log.fail(
      "fingerprint",
      new VerificationError(`the stored plan ${name} cannot be fingerprinted: ${problems.join("; ")}`),
    );
  }
  const recomputed = digestSchemaPlanBinding(binding);
  const stated = plan.spec.fingerprint ?? "";
  if (recomputed !== stated) {
    log.fail(
      "fingerprint",
      new VerificationError(
        `the stored plan ${name} carries the fingerprint ${stated || "(none)"}, but its spec recomputes to ${recomputed}, so what it binds is not what was fingerprinted`,
      ),
    );
  }
  const also = record.fingerprint ? " and the schema's record" : "";
  log.pass("fingerprint", `recomputed from the plan spec: ${recomputed}, equal to the plan's${also}`);
  return recomputed;
}

const PUBLISHED_MESSAGE = /^Verified (\d+) immutable plan chunks?$/;

/** Step 2 of §2.3: publication (manifest → chunks → Ready) has completed at this generation. */
export function verifyStorageCommitted(log: CheckLog, plan: PtahSchemaPlan): void {
  const name = plan.metadata.name;
  const generation = plan.metadata.generation;
  const ready = plan.status.conditions.find((c) => c.type === "Ready");
  // The Ready message counts the chunks whose UIDs were committed to status.
  const chunkCount = plan.status.publishedChunks?.length ?? 0;
  const countInMessage = PUBLISHED_MESSAGE.exec(ready?.message ?? "")?.[1];
  const committed =
    generation !== undefined &&
    plan.status.observedGeneration === generation &&
    ready !== undefined &&
    ready.status === "True" &&
    ready.reason === "Published" &&
    (ready.observedGeneration === undefined || ready.observedGeneration === generation) &&
    (countInMessage === undefined || Number(countInMessage) === chunkCount);
  if (!committed) log.fail("storage", storeError(name, "plan storage is not committed"));
  log.pass("storage", `committed: Ready=True (Published) at generation ${generation}`);
}

/** One chunk as the manifest and the committed status agree it should be. */
export interface ChunkSlot {
  readonly index: number;
  readonly name: string;
  readonly uid: string;
  readonly size: number;
  readonly digest: string;
  /** Older installs: the ConfigMap binaryData key holding the bytes (go-client §0). */
  readonly configMapKey: string | undefined;
}

/** Steps 3–4 of §2.3 and the size limits, before any chunk is read. */
export function verifyChunkManifest(log: CheckLog, plan: PtahSchemaPlan): ChunkSlot[] {
  const name = plan.metadata.name;
  const manifest: readonly ChunkManifestEntry[] = plan.spec.chunks ?? [];
  const committed = [...(plan.status.publishedChunks ?? [])].sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
  if (manifest.length === 0 || manifest.length !== committed.length) {
    log.fail("chunk manifest", storeError(name, "plan chunk manifest and committed status do not match"));
  }
  const declared = manifest.reduce((sum, c) => sum + (c.size ?? 0), 0);
  if (declared > MAX_PLAN_BYTES || (plan.spec.size ?? 0) > MAX_PLAN_BYTES) {
    log.fail("chunk manifest", storeError(name, `reconstructed plan exceeds ${MAX_PLAN_BYTES} bytes`));
  }
  if (manifest.length > MAX_CHUNKS) {
    log.fail("chunk manifest", storeError(name, `plan has ${manifest.length} chunks; at most ${MAX_CHUNKS} are stored`));
  }
  const slots: ChunkSlot[] = manifest.map((entry, i) => {
    const c = committed[i];
    const ok =
      entry.index === i && c !== undefined && c.index === i && !!entry.name && c.name === entry.name && !!c.uid;
    if (!ok) log.fail("chunk manifest", storeError(name, `plan chunk ${i} has an invalid ordering or commit binding`));
    const size = entry.size ?? 0;
    if (size < 1 || size > CHUNK_SIZE || !entry.digest) {
      log.fail("chunk manifest", storeError(name, `plan chunk ${i} does not match the manifest`));
    }
    return {
      index: i,
      name: entry.name!,
      uid: c!.uid!,
      size,
      digest: entry.digest!,
      configMapKey: entry.key || undefined,
    };
  });
  log.pass("chunk manifest", `${slots.length} chunk${slots.length === 1 ? "" : "s"} committed in order`);
  return slots;
}

/** The metadata of a chunk object (PtahSchemaPlanChunk or an older ConfigMap). */
export interface ChunkObjectMeta {
  readonly name: string;
  readonly uid: string | undefined;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly ownerReferences: readonly {
    apiVersion?: string | undefined;
    kind?: string | undefined;
    name?: string | undefined;
    uid?: string | undefined;
    controller?: boolean | undefined;
    blockOwnerDeletion?: boolean | undefined;
  }[];
}

/** Steps 5–6 of §2.3: the chunk object is the committed one, owned by and labelled for the plan. */
export function verifyChunkObject(log: CheckLog, plan: PtahSchemaPlan, slot: ChunkSlot, chunk: ChunkObjectMeta): void {
  const planName = plan.metadata.name;
  const check = `chunk ${slot.index}`;
  const fail: (what: string) => never = (what) => log.fail(check, storeError(planName, `plan chunk ${slot.index} ${what}`));
  if (chunk.uid !== slot.uid) fail("was replaced");
  if (chunk.name !== slot.name) fail(`is named ${chunk.name}, not ${slot.name}`);
  const labels = chunk.labels ?? {};
  const schemaName = plan.spec.schemaRef?.name ?? "";
  if (labels[PLAN_LABEL] !== planName) {
    fail(`does not belong to this plan: label ${PLAN_LABEL} is ${JSON.stringify(labels[PLAN_LABEL] ?? "")}`);
  }
  if (labels[SCHEMA_LABEL] !== schemaName) {
    fail(`does not belong to this plan: label ${SCHEMA_LABEL} is ${JSON.stringify(labels[SCHEMA_LABEL] ?? "")}`);
  }
  const owners = chunk.ownerReferences;
  const owner = owners[0];
  if (owners.length !== 1 || owner === undefined) {
    fail(`does not belong to this plan: it has ${owners.length} owner references, not exactly one`);
  }
  const ownerOk =
    owner.apiVersion === PTAH_API_VERSION &&
    owner.kind === "PtahSchemaPlan" &&
    owner.name === planName &&
    owner.uid === plan.metadata.uid &&
    owner.controller === true &&
    owner.blockOwnerDeletion === true;
  if (!ownerOk) {
    fail(`does not belong to this plan: its owner reference names ${owner.kind ?? "?"} ${owner.name ?? "?"} (UID ${owner.uid ?? "?"})`);
  }
}

/** Base64 as Go's StdEncoding writes it; anything else cannot be the bytes the operator stored. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeChunkData(data: string | undefined): Uint8Array | undefined {
  if (data === undefined || !BASE64.test(data)) return undefined;
  return Buffer.from(data, "base64");
}

/** Step 7 of §2.3: the bytes are the manifest's, then step 8: the running total stays bounded. */
export function verifyChunkBytes(
  log: CheckLog,
  plan: PtahSchemaPlan,
  slot: ChunkSlot,
  bytes: Uint8Array | undefined,
  totalBefore: number,
): void {
  const planName = plan.metadata.name;
  const check = `chunk ${slot.index}`;
  if (bytes === undefined || bytes.length !== slot.size || digestBytes(bytes) !== slot.digest) {
    log.fail(check, storeError(planName, `plan chunk ${slot.index} does not match the manifest`));
  }
  if (totalBefore + bytes.length > MAX_PLAN_BYTES) {
    log.fail(check, storeError(planName, `reconstructed plan exceeds ${MAX_PLAN_BYTES} bytes`));
  }
  log.pass(check, `the committed object, owned by the plan, ${bytes.length} bytes matching ${slot.digest}`);
}

/** Step 9 of §2.3: the whole document is the one the plan binds. */
export function verifyContent(log: CheckLog, plan: PtahSchemaPlan, bytes: Uint8Array): void {
  const digest = digestBytes(bytes);
  if (bytes.length !== plan.spec.size || digest !== plan.spec.contentDigest) {
    log.fail("content", storeError(plan.metadata.name, "reconstructed plan does not match its content binding"));
  }
  log.pass("content", `${bytes.length} bytes matching ${digest}`);
}

/** §2.4 and operator-api §5.3: strict decode, then the document against its plan object. */
export function verifyDocument(log: CheckLog, plan: PtahSchemaPlan, bytes: Uint8Array): PlanDocument {
  const name = plan.metadata.name;
  const doc = log.run("document", () => decodePlanDocument(bytes, name, plan.spec.dialect ?? ""));
  log.pass(
    "document",
    `format_version ${doc.formatVersion}, ${doc.statements.length} statement${doc.statements.length === 1 ? "" : "s"}, dialect ${doc.dialect}`,
  );
  const problems = crossCheckDocument(doc, plan.spec);
  if (problems.length > 0) {
    log.fail("cross-checks", new VerificationError(`the plan document does not match the stored plan ${name}: ${problems[0]}`));
  }
  log.pass("cross-checks", "state fingerprints, statement count and destructive flag match the plan");
  return doc;
}
