// The chunk checks of a stored plan (verify.ts runs the record and store checks first): the manifest against the committed
// status, each chunk object, its bytes, the reassembled document. Pure, like verify.ts, whose
// CheckLog records every check.
import { VerificationError } from "../errors.ts";
import type { ChunkManifestEntry, PtahSchemaPlan } from "../model/kinds.ts";
import { PTAH_API_VERSION } from "../model/api.ts";
import { digestBytes } from "./canonical.ts";
import { crossCheckDocument, decodePlanDocument, type PlanDocument } from "./document.ts";
import { CHUNK_SIZE, MAX_CHUNKS, MAX_PLAN_BYTES, PLAN_LABEL, SCHEMA_LABEL, storeError, type CheckLog } from "./verify.ts";

/** One chunk as the manifest and the committed status agree it should be. */
export interface ChunkSlot {
  readonly index: number;
  readonly name: string;
  readonly uid: string;
  readonly size: number;
  readonly digest: string;
  /** Older installs: the ConfigMap binaryData key holding the bytes. */
  readonly configMapKey: string | undefined;
}

/** The manifest against the committed status, and the size limits, before any chunk is read. */
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
    const ok = entry.index === i && c !== undefined && c.index === i && !!entry.name && c.name === entry.name && !!c.uid;
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

/** The chunk object is the committed one, owned by and labelled for the plan. */
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
export function decodeChunkData(data: string | undefined): Uint8Array | undefined {
  // The pattern is written here, not in a module constant, so a mutation tester can change it per
  // test: a constant is built once, when the module loads, before any mutant is switched on.
  if (data === undefined || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/u.test(data)) return undefined;
  return Buffer.from(data, "base64");
}

/** The bytes are the manifest's, then the running total stays bounded. */
export function verifyChunkBytes(log: CheckLog, plan: PtahSchemaPlan, slot: ChunkSlot, bytes: Uint8Array | undefined, totalBefore: number): void {
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

/** The whole document is the one the plan binds. */
export function verifyContent(log: CheckLog, plan: PtahSchemaPlan, bytes: Uint8Array): void {
  const digest = digestBytes(bytes);
  if (bytes.length !== plan.spec.size || digest !== plan.spec.contentDigest) {
    log.fail("content", storeError(plan.metadata.name, "reconstructed plan does not match its content binding"));
  }
  log.pass("content", `${bytes.length} bytes matching ${digest}`);
}

/** Strict decode, then the document against its plan object (document.ts). */
export function verifyDocument(log: CheckLog, plan: PtahSchemaPlan, bytes: Uint8Array): PlanDocument {
  const name = plan.metadata.name;
  const doc = log.run("document", () => decodePlanDocument(bytes, name, plan.spec.dialect ?? ""));
  log.pass("document", `format_version ${doc.formatVersion}, ${doc.statements.length} statement${doc.statements.length === 1 ? "" : "s"}, dialect ${doc.dialect}`);
  const problems = crossCheckDocument(doc, plan.spec);
  if (problems.length > 0) {
    log.fail("cross-checks", new VerificationError(`the plan document does not match the stored plan ${name}: ${problems[0]}`));
  }
  log.pass("cross-checks", "state fingerprints, statement count and destructive flag match the plan");
  return doc;
}
