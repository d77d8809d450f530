// A plan export: one self-contained file that `plan --verify -f FILE` re-verifies offline, years
// later, with every check `plan` makes against a cluster. It holds the objects exactly as they
// were served (the schema, the plan, each chunk, the approvals naming the plan), the document
// bytes, and the fingerprint's inputs; a seal over the rest makes any changed byte a refusal.
// Pure: the command reads the cluster and the file system, this builds and checks the text.
import { NotFoundError, PtahError, VerificationError } from "../errors.ts";
import type { PtahSchemaApproval } from "../model/kinds.ts";
import { MAX_DEPTH, nestsDeeperThan } from "../model/depth.ts";
import { endorsementKey, endorsersOf } from "../model/endorsement-key.ts";
import { parseObject, type KindName, type ObjectOf, type Parsed } from "../model/parse.ts";
import { digestBytes } from "./canonical.ts";
import { bindingOfPlanSpec, digestSchemaPlanBinding } from "./fingerprint.ts";
import { loadNamedPlan, type PlanReader, type VerifiedPlan } from "./load.ts";
import { CheckLog, MAX_PLAN_BYTES } from "./verify.ts";

export const EXPORT_FORMAT = "kubectl-ptah/plan-export";
export const EXPORT_FORMAT_VERSION = 1;

/**
 * The most bytes an export file may have: 64 MiB. An export holds a plan's document bytes twice as
 * base64 (the document itself, and the chunk objects it was reassembled from): at the operator's
 * limit of 8 MiB (verify.ts MAX_PLAN_BYTES) that is 22.4 MB. Beside them it holds the schema, the
 * plan and the approvals naming the plan, each an object the API server stored, so at most 1.5 MiB
 * in etcd: 64 MiB leaves room for more than 25 of those at that size. The largest plan the
 * operator stores exports to about 22 MB (test/plan/export-limit.test.ts: 22,166,880 bytes). `plan --verify -f`
 * reads no more than this, so /dev/zero or a stray disk image is refused at once, not read for ever.
 */
export const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

/** Why an export has that bound, for the refusal of a larger file. */
export const EXPORT_BOUND = `an export is at most ${MAX_EXPORT_BYTES} bytes (a plan's ${MAX_PLAN_BYTES} bytes at most, twice as base64, and the objects around them)`;

/**
 * How deep an export may nest: the objects it holds, each within the one bound (MAX_DEPTH), and the
 * four levels around a chunk's object (the file, objects, chunks, the chunk's entry).
 */
export const MAX_EXPORT_DEPTH = MAX_DEPTH + 4;

/** Every object a load read, as served, in the order it was read (the recorder's log). */
export interface ServedObject {
  readonly kind: KindName;
  readonly raw: Record<string, unknown>;
}

/** A PlanReader that remembers what it served, so the export holds exactly the objects verified. */
export function recordingReader(inner: PlanReader, served: ServedObject[]): PlanReader {
  return {
    async get(kind, namespace, name) {
      const got = await inner.get(kind, namespace, name);
      served.push({ kind, raw: got.raw });
      return got;
    },
    list: (kind, options) => inner.list(kind, options),
  };
}

export interface ExportInput {
  readonly verified: VerifiedPlan;
  /** What the verified load read: the schema, the plan and its chunks. */
  readonly served: readonly ServedObject[];
  /** Approvals whose spec.planRef names the plan, as served; undefined when they could not be read. */
  readonly approvals: readonly Record<string, unknown>[] | undefined;
  readonly exportedAt: string;
  readonly exportedBy: string;
}

const utf8 = new TextEncoder();

function seal(body: Record<string, unknown>): string {
  return digestBytes(utf8.encode(JSON.stringify(body, null, 2)));
}

/** The file's text: pretty JSON, a seal over everything before it, a final newline. */
export function buildExport(input: ExportInput): string {
  const v = input.verified;
  const plan = v.plan.object;
  const chunks = input.served.filter((o) => o.kind === "PtahSchemaPlanChunk" || o.kind === "ConfigMap");
  const body: Record<string, unknown> = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: input.exportedAt,
    exportedBy: input.exportedBy,
    namespace: v.record.namespace,
    schema: v.record.schemaName,
    plan: plan.metadata.name,
    fingerprint: v.fingerprint,
    fingerprintInputs: bindingOfPlanSpec(plan.spec),
    document: { size: v.documentBytes.length, digest: digestBytes(v.documentBytes), base64: Buffer.from(v.documentBytes).toString("base64") },
    objects: {
      schema: v.schema.raw,
      plan: v.plan.raw,
      chunks: chunks.map((c) => ({ kind: c.kind, object: c.raw })),
      approvals: input.approvals ?? null,
    },
  };
  return JSON.stringify({ ...body, seal: seal(body) }, null, 2) + "\n";
}

/** What offline verification found: the verified plan and every check, the failed one last. */
export interface ExportVerification {
  readonly namespace: string;
  readonly schemaName: string;
  readonly planName: string;
  readonly checks: CheckLog["results"];
  readonly verified: VerifiedPlan | undefined;
  readonly error: PtahError | undefined;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function fileError(what: string): VerificationError {
  return new VerificationError(`the export file ${what}`);
}

/** The file's own form: UTF-8, JSON, canonical (byte for byte as written), sealed, this format. */
function readSealed(log: CheckLog, bytes: Uint8Array): Json {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return log.fail("file", fileError("is not UTF-8 text"));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return log.fail("file", fileError("is not JSON"));
  }
  // Measured before anything recurses into it (the canonical form below is JSON.stringify's).
  if (nestsDeeperThan(parsed, MAX_EXPORT_DEPTH))
    return log.fail("file", fileError(`nests deeper than ${MAX_EXPORT_DEPTH} levels, which no export does (each object in it at most ${MAX_DEPTH})`));
  if (!isObject(parsed) || parsed.format !== EXPORT_FORMAT) return log.fail("file", fileError(`is not a ${EXPORT_FORMAT} file`));
  if (parsed.formatVersion !== EXPORT_FORMAT_VERSION) {
    return log.fail("file", fileError(`has format version ${JSON.stringify(parsed.formatVersion)}; this plugin reads ${EXPORT_FORMAT_VERSION}`));
  }
  if (JSON.stringify(parsed, null, 2) + "\n" !== text) return log.fail("file", fileError("is not byte for byte as an export writes it"));
  const { seal: stated, ...body } = parsed;
  const recomputed = seal(body);
  if (stated !== recomputed) {
    return log.fail("file", fileError(`was changed after it was written: its seal is ${JSON.stringify(stated)}, its content seals to ${recomputed}`));
  }
  log.pass("file", `${bytes.length} bytes, sealed ${recomputed}, exported ${String(body.exportedAt)} by ${String(body.exportedBy)}`);
  return body;
}

function parseIn<K extends KindName>(log: CheckLog, kind: K, raw: unknown, what: string): Parsed<ObjectOf<K>> {
  return log.run("file", () => {
    if (!isObject(raw)) throw fileError(`holds no ${what}`);
    return parseObject(kind, raw);
  });
}

/** A PlanReader over the file's objects: the checks read them exactly as they read a cluster. */
function fileReader(log: CheckLog, objects: Json): PlanReader {
  const held: ServedObject[] = [];
  // Read before the lookups below, which read each held object's metadata.
  held.push({ kind: "PtahSchemaPlan", raw: isObject(objects.plan) ? objects.plan : log.fail("file", fileError("holds no plan")) });
  for (const c of Array.isArray(objects.chunks) ? (objects.chunks as unknown[]) : []) {
    if (!isObject(c) || (c.kind !== "PtahSchemaPlanChunk" && c.kind !== "ConfigMap") || !isObject(c.object))
      log.fail("file", fileError("holds a chunk entry that is not a chunk object"));
    held.push({ kind: c.kind, raw: c.object });
  }
  return {
    get(kind, namespace, name) {
      const hit = held.find((o) => o.kind === kind && (o.raw.metadata as Json | undefined)?.name === name && (o.raw.metadata as Json | undefined)?.namespace === namespace);
      if (!hit) return Promise.reject(new NotFoundError(`${kind.toLowerCase()} ${namespace}/${name} is not in the export file`));
      return Promise.resolve(parseIn(log, kind, hit.raw, kind));
    },
    list: () => Promise.reject(new VerificationError("the export file holds one named plan; nothing is listed")),
  };
}

function checkExtras(log: CheckLog, body: Json, v: VerifiedPlan): void {
  const doc = body.document as Json | undefined;
  const held = typeof doc?.base64 === "string" ? Buffer.from(doc.base64, "base64") : undefined;
  if (held === undefined || held.toString("base64") !== doc!.base64 || Buffer.compare(held, Buffer.from(v.documentBytes)) !== 0) {
    log.fail("document bytes", fileError("holds document bytes that are not the ones its chunks reconstruct"));
  }
  if (doc!.size !== held.length || doc!.digest !== digestBytes(held)) log.fail("document bytes", fileError("states a size or digest its document bytes do not have"));
  log.pass("document bytes", `${held.length} bytes, identical to the reconstructed chunks`);
  const inputs = bindingOfPlanSpec(v.plan.object.spec);
  if (JSON.stringify(body.fingerprintInputs) !== JSON.stringify(inputs) || body.fingerprint !== v.fingerprint || digestSchemaPlanBinding(inputs) !== v.fingerprint) {
    log.fail("fingerprint inputs", fileError("states fingerprint inputs or a fingerprint its plan does not have"));
  }
  log.pass("fingerprint inputs", `${Object.keys(inputs).length} inputs, digesting to ${v.fingerprint}`);
  // The endorsements travel inside the schema as served (its annotation for this plan's
  // fingerprint), under the seal and any signature; named only where there are some.
  const endorsers = endorsersOf(v.schema.object.metadata.annotations?.[endorsementKey(v.fingerprint)]);
  if (endorsers.length > 0) log.pass("endorsements", `${endorsers.join(", ")} (the schema's endorsement annotation for this plan, as exported)`);
  const approvals = (body.objects as Json).approvals;
  if (approvals === null) {
    log.pass("approvals", "not exported (they could not be read)");
    return;
  }
  const list = Array.isArray(approvals) ? approvals : log.fail("approvals", fileError("holds approvals that are not a list"));
  const names: string[] = [];
  for (const raw of list) {
    const a: PtahSchemaApproval = parseIn(log, "PtahSchemaApproval", raw, "approval").object;
    const plan = v.plan.object;
    if (a.spec.planRef?.name !== plan.metadata.name || a.spec.planRef.uid !== plan.metadata.uid || a.spec.planFingerprint !== v.fingerprint) {
      log.fail("approvals", fileError(`holds the approval ${a.metadata.name}, which does not name this plan, its UID and fingerprint`));
    }
    names.push(`${a.metadata.name} by ${a.spec.approver?.username ?? "(no approver stamped)"} at ${a.spec.approvedAt ?? "(no time stamped)"}`);
  }
  log.pass("approvals", names.length === 0 ? "none named this plan when it was exported" : names.join("; "));
}

/** Verifies an export file offline: its own form, then every check of `plan`, then what it adds. */
export async function verifyExport(bytes: Uint8Array): Promise<ExportVerification> {
  const log = new CheckLog();
  let where = { namespace: "", schemaName: "", planName: "" };
  try {
    const body = readSealed(log, bytes);
    where = { namespace: String(body.namespace), schemaName: String(body.schema), planName: String(body.plan) };
    const objects = isObject(body.objects) ? body.objects : log.fail("file", fileError("holds no objects"));
    const schema = parseIn(log, "PtahSchema", objects.schema, "schema");
    if (schema.object.metadata.name !== where.schemaName || schema.object.metadata.namespace !== where.namespace) {
      log.fail("file", fileError(`names ${where.namespace}/${where.schemaName} but holds the schema ${schema.object.metadata.namespace ?? ""}/${schema.object.metadata.name}`));
    }
    log.pass("schema", `${where.namespace}/${where.schemaName} (UID ${schema.object.metadata.uid ?? "none"}), as exported`);
    const verified = await loadNamedPlan(fileReader(log, objects), schema, where.planName, { log });
    checkExtras(log, body, verified);
    return { ...where, checks: log.results, verified, error: undefined };
  } catch (err) {
    if (err instanceof PtahError) return { ...where, checks: log.results, verified: undefined, error: err };
    throw err;
  }
}
