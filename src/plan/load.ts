// Loads one selected plan and verifies it before anything may be printed:
// get PtahSchema → get PtahSchemaPlan → get each chunk, in index order. No list, except for an
// older applied record without planRef, and ConfigMap chunks on older installs.
import { ModelError, NotFoundError, PtahError, ReadError, VerificationError } from "../errors.ts";
import type { PtahSchema, PtahSchemaPlan } from "../model/kinds.ts";
import type { KindName, ObjectOf, Parsed } from "../model/parse.ts";
import type { PlanDocument } from "./document.ts";
import { verifyRecordCopies } from "./record-bindings.ts";
import { selectPlanRecord, type PlanRecord, type PlanSelection } from "./select.ts";
import { decodeChunkData, verifyChunkBytes, verifyChunkManifest, verifyChunkObject, verifyContent, verifyDocument, type ChunkObjectMeta, type ChunkSlot } from "./verify-chunks.ts";
import { CheckLog, SCHEMA_LABEL, verifyFingerprint, verifyPlanBinding, verifyPlanContract, verifyRecordNamesPlan, verifyStorageCommitted, type CheckResult } from "./verify.ts";

/**
 * The reads the loader makes: a GET and a namespaced, label-selected LIST. Commands pass their
 * ClusterReader; plan/ states only what it needs, so it knows nothing of kube/.
 */
export interface PlanReader {
  get<K extends KindName>(kind: K, namespace: string, name: string): Promise<Parsed<ObjectOf<K>>>;
  list<K extends KindName>(
    kind: K,
    options: { readonly namespace: string; readonly labelSelector: string },
  ): Promise<{ readonly items: readonly Parsed<ObjectOf<K>>[]; readonly notShown: readonly { readonly raw: Record<string, unknown>; readonly problem: string }[] }>;
}

export interface VerifiedPlan {
  readonly record: PlanRecord;
  readonly schema: Parsed<PtahSchema>;
  readonly plan: Parsed<PtahSchemaPlan>;
  /** The reconstructed, digest-verified document bytes, exactly as stored. */
  readonly documentBytes: Uint8Array;
  readonly document: PlanDocument;
  /** The fingerprint recomputed from the plan spec (equal to spec.fingerprint). */
  readonly fingerprint: string;
  readonly checks: readonly CheckResult[];
}

export interface LoadPlanOptions {
  /** Receives every check as it is made, including the failed one (for `plan --verify`). */
  readonly log?: CheckLog;
  /** The schema as already read (approve checks its preconditions first); not read again. */
  readonly schema?: Parsed<PtahSchema>;
}

/** The role rule a Forbidden read is missing, appended to the reader's message. */
const RULES: Partial<Record<KindName, string>> = {
  PtahSchema: "ptahschemas",
  PtahSchemaPlan: "ptahschemaplans",
  PtahSchemaPlanChunk: "ptahschemaplanchunks",
  ConfigMap: "configmaps",
};

function isForbidden(err: unknown): boolean {
  return err instanceof ReadError && (err.httpStatus === 403 || /\bforbidden\b/i.test(err.message));
}

function withRoleHint(message: string, err: unknown, kind: KindName, verb: "get" | "list", namespace: string): string {
  if (!isForbidden(err)) return message;
  const resource = RULES[kind] ?? kind.toLowerCase();
  const group = kind === "ConfigMap" ? "the core API group" : "apiGroup operator.ptah.run";
  return `${message}; reading a plan needs a role rule allowing ${verb} on ${resource} (${group}) in namespace ${namespace}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A read failure that keeps its exit status and HTTP status but gets our prefix and hint. */
function rewrap(err: unknown, message: string): Error {
  if (err instanceof ReadError) return new ReadError(message, err.httpStatus);
  if (err instanceof PtahError) return new VerificationError(message);
  return new ReadError(message);
}

/** The schema every plan of it is checked against (the first read of every plan command). */
export async function loadPlanSchema(reader: PlanReader, namespace: string, schemaName: string, log: CheckLog = new CheckLog()): Promise<Parsed<PtahSchema>> {
  try {
    const schema = await reader.get("PtahSchema", namespace, schemaName);
    log.pass("schema", `${namespace}/${schemaName} (UID ${schema.object.metadata.uid ?? "none"})`);
    return schema;
  } catch (err) {
    if (err instanceof NotFoundError) return log.fail("schema", new NotFoundError(`no such schema: ${namespace}/${schemaName}`));
    const message = withRoleHint(`read schema ${namespace}/${schemaName}: ${messageOf(err)}`, err, "PtahSchema", "get", namespace);
    return log.fail("schema", asPtahError(rewrap(err, message)));
  }
}

function asPtahError(err: Error): PtahError {
  return err instanceof PtahError ? err : new ReadError(err.message);
}

async function getPlan(reader: PlanReader, namespace: string, name: string, log: CheckLog): Promise<Parsed<PtahSchemaPlan>> {
  try {
    return await reader.get("PtahSchemaPlan", namespace, name);
  } catch (err) {
    if (err instanceof NotFoundError) {
      return log.fail("plan object", new NotFoundError(`no such plan: the stored plan ${name} is gone`));
    }
    const message = withRoleHint(`read the stored plan ${name}: ${messageOf(err)}`, err, "PtahSchemaPlan", "get", namespace);
    return log.fail("plan object", asPtahError(rewrap(err, message)));
  }
}

/**
 * Older applied records carry only the fingerprint: list the schema's plans by label and take the
 * one plan with that fingerprint; two are ambiguous and refused, naming both.
 */
async function findPlanByFingerprint(reader: PlanReader, record: PlanRecord, log: CheckLog): Promise<{ record: PlanRecord; plan: Parsed<PtahSchemaPlan> }> {
  const { namespace, schemaName } = record;
  let listed: Awaited<ReturnType<PlanReader["list"]>>;
  try {
    listed = await reader.list("PtahSchemaPlan", { namespace, labelSelector: `${SCHEMA_LABEL}=${schemaName}` });
  } catch (err) {
    const message = withRoleHint(`list the stored plans of ${namespace}/${schemaName}: ${messageOf(err)}`, err, "PtahSchemaPlan", "list", namespace);
    return log.fail("selection", asPtahError(rewrap(err, message)));
  }
  // A plan that does not fit the model but carries the fingerprint is the plan this command is
  // about: it must fit. The others play no part in the selection.
  const unfit = listed.notShown.find((r) => (r.raw.spec as { fingerprint?: unknown } | undefined)?.fingerprint === record.fingerprint);
  if (unfit) return log.fail("selection", new ModelError(unfit.problem));
  const items = listed.items as readonly Parsed<PtahSchemaPlan>[];
  const matches = items.filter((p) => p.object.spec.fingerprint === record.fingerprint).sort((a, b) => (a.object.metadata.name < b.object.metadata.name ? -1 : 1));
  if (matches.length === 0) {
    return log.fail("selection", new NotFoundError(`no such plan: no stored plan carries the applied fingerprint ${record.fingerprint}`));
  }
  if (matches.length > 1) {
    const names = matches.map((m) => m.object.metadata.name);
    log.fail(
      "selection",
      new VerificationError(
        `the applied record names no plan, and more than one stored plan carries its fingerprint ${record.fingerprint}: ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`,
      ),
    );
  }
  const plan = matches[0]!;
  const found: PlanRecord = { ...record, planName: plan.object.metadata.name, planUID: plan.object.metadata.uid };
  log.pass("selection", `the applied record names no plan; ${found.planName} is the one stored plan with its fingerprint`);
  return { record: found, plan };
}

interface ChunkRead {
  readonly meta: ChunkObjectMeta;
  readonly bytes: Uint8Array | undefined;
}

async function readChunk(reader: PlanReader, namespace: string, plan: PtahSchemaPlan, slot: ChunkSlot, log: CheckLog): Promise<ChunkRead> {
  const kind: KindName = slot.configMapKey === undefined ? "PtahSchemaPlanChunk" : "ConfigMap";
  const planName = plan.metadata.name;
  try {
    if (slot.configMapKey === undefined) {
      const { object } = await reader.get("PtahSchemaPlanChunk", namespace, slot.name);
      return { meta: metaOf(object.metadata), bytes: decodeChunkData(object.spec.data) };
    }
    const { object } = await reader.get("ConfigMap", namespace, slot.name);
    if (object.immutable !== true) {
      log.fail(`chunk ${slot.index}`, new VerificationError(`read the stored plan ${planName}: plan chunk ${slot.index} is not an immutable ConfigMap`));
    }
    return { meta: metaOf(object.metadata), bytes: decodeChunkData(object.binaryData?.[slot.configMapKey]) };
  } catch (err) {
    if (err instanceof VerificationError) throw err;
    const check = `chunk ${slot.index}`;
    if (err instanceof NotFoundError) {
      return log.fail(check, new VerificationError(`read the stored plan ${planName}: plan chunk ${slot.index} is missing: ${messageOf(err)}`));
    }
    const message = withRoleHint(`read the stored plan ${planName}: plan chunk ${slot.index}: ${messageOf(err)}`, err, kind, "get", namespace);
    return log.fail(check, asPtahError(rewrap(err, message)));
  }
}

function metaOf(m: PtahSchemaPlan["metadata"]): ChunkObjectMeta {
  return { name: m.name, uid: m.uid, labels: m.labels, ownerReferences: m.ownerReferences ?? [] };
}

/**
 * Reads and verifies the selected plan. Throws NotFoundError (3) when nothing is stored to print,
 * ReadError (1) when the cluster cannot be read, VerificationError (1) when any check fails.
 */
export async function loadVerifiedPlan(reader: PlanReader, namespace: string, schemaName: string, selection: PlanSelection, options: LoadPlanOptions = {}): Promise<VerifiedPlan> {
  const log = options.log ?? new CheckLog();
  const schema = options.schema ?? (await loadPlanSchema(reader, namespace, schemaName, log));
  const record = log.run("selection", () => selectPlanRecord(schema.object, namespace, selection));
  return loadRecordedPlan(reader, schema, record, { log });
}

/**
 * Reads and verifies the plan a record names — the schema's current or applied record, or an
 * approval's planRef and planFingerprint — with every check of loadVerifiedPlan.
 */
export async function loadRecordedPlan(reader: PlanReader, schema: Parsed<PtahSchema>, recordIn: PlanRecord, options: LoadPlanOptions = {}): Promise<VerifiedPlan> {
  const log = options.log ?? new CheckLog();
  let record = recordIn;
  let plan: Parsed<PtahSchemaPlan>;
  if (record.needsFingerprintLookup) {
    ({ record, plan } = await findPlanByFingerprint(reader, record, log));
  } else {
    const planName = verifyRecordNamesPlan(log, record);
    plan = await getPlan(reader, record.namespace, planName, log);
  }
  return verifyStoredPlan(reader, schema, record, plan, log);
}

/**
 * Reads and verifies a plan a person named: the object under that name is the subject, so its
 * own UID and fingerprint make the record; it must still belong to the schema and verify.
 */
export async function loadNamedPlan(reader: PlanReader, schema: Parsed<PtahSchema>, planName: string, options: LoadPlanOptions = {}): Promise<VerifiedPlan> {
  const log = options.log ?? new CheckLog();
  const namespace = schema.object.metadata.namespace ?? "";
  const plan = await getPlan(reader, namespace, planName, log);
  const record: PlanRecord = {
    selection: "named",
    namespace,
    schemaName: schema.object.metadata.name,
    planName,
    planUID: plan.object.metadata.uid,
    fingerprint: plan.object.spec.fingerprint || undefined,
    completedAt: undefined,
    needsFingerprintLookup: false,
  };
  return verifyStoredPlan(reader, schema, record, plan, log);
}

/** Everything after the plan object was read: binding, contract, fingerprint, storage, chunks, document. */
async function verifyStoredPlan(reader: PlanReader, schema: Parsed<PtahSchema>, record: PlanRecord, plan: Parsed<PtahSchemaPlan>, log: CheckLog): Promise<VerifiedPlan> {
  const namespace = record.namespace;
  const p = plan.object;
  verifyPlanBinding(log, record, schema.object, p);
  verifyPlanContract(log, p);
  const fingerprint = verifyFingerprint(log, record, p);
  verifyRecordCopies(log, record, p);
  verifyStorageCommitted(log, p);
  const slots = verifyChunkManifest(log, p);

  // Each chunk's verified bytes go straight into the document (the manifest's sizes, checked
  // against the limit above): the chunks are not held beside it.
  const documentBytes = Buffer.alloc(slots.reduce((sum, slot) => sum + slot.size, 0));
  let total = 0;
  for (const slot of slots) {
    const chunk = await readChunk(reader, namespace, p, slot, log);
    verifyChunkObject(log, p, slot, chunk.meta);
    verifyChunkBytes(log, p, slot, chunk.bytes, total);
    documentBytes.set(chunk.bytes!, total);
    total += chunk.bytes!.length;
  }
  verifyContent(log, p, documentBytes);
  const document = verifyDocument(log, p, documentBytes);
  return { record, schema, plan, documentBytes, document, fingerprint, checks: log.results };
}
