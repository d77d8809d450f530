// Every check between reading a plan and printing it,
// with upstream's messages and exit statuses, plus the recomputed fingerprint. Each check
// is also recorded as data in a CheckLog, so `plan --verify` can report what held. Pure. The
// chunk checks are in verify-chunks.ts.
import { NotFoundError, PtahError, VerificationError } from "../errors.ts";
import type { PtahSchema, PtahSchemaPlan } from "../model/kinds.ts";
import { bindingOfPlanSpec, digestSchemaPlanBinding, EXECUTION_BINDING_ID, SUPPORTED_PLAN_CONTRACT_VERSIONS, validateSchemaPlanBinding } from "./fingerprint.ts";
import { trimSpace } from "./trim-space.ts";
import type { PlanRecord } from "./select.ts";

/** Storage limits. */
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

export function storeError(planName: string, what: string): VerificationError {
  return new VerificationError(`read the stored plan ${planName}: ${what}`);
}

// ------------------------------------------------------------------ binding to the record

/** The record must name a plan, with a UID. Returns the plan name. */
export function verifyRecordNamesPlan(log: CheckLog, record: PlanRecord): string {
  if (!record.planName) {
    return log.fail("selection", new NotFoundError("no such plan: the record names no stored plan"));
  }
  if (!record.planUID) {
    log.fail("selection", new VerificationError(`the record names the stored plan ${record.planName} without a UID, so nothing says it is still the same object`));
  }
  log.pass("selection", `the ${record.selection} record names ${record.planName} (UID ${record.planUID})`);
  return record.planName;
}

/** Same object, same fingerprint, same schema. */
export function verifyPlanBinding(log: CheckLog, record: PlanRecord, schema: PtahSchema, plan: PtahSchemaPlan): void {
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
    log.fail("plan object", new VerificationError(`the stored plan ${name} carries the fingerprint ${fingerprint || "(none)"} and the record names ${record.fingerprint}`));
  }
  const ref = plan.spec.schemaRef;
  if (ref?.name !== schema.metadata.name || !ref.uid || ref.uid !== schema.metadata.uid) {
    log.fail("plan object", new VerificationError(`the stored plan ${name} belongs to ${record.namespace}/${ref?.name ?? "(no schema)"}, not to this schema`));
  }
  log.pass("plan object", `${name} has the recorded UID and fingerprint and belongs to this schema`);
}

// ------------------------------------------------------------------ the store

const PINNED_IMAGE = /^[^\s@]+@sha256:[0-9a-f]{64}$/;

function isValidRevision(rev: string | undefined): boolean {
  if (rev === undefined || rev.length < 1 || rev.length > 128) return false;
  if (trimSpace(rev) !== rev) return false; // Go's strings.TrimSpace, as the operator checks it
  // eslint-disable-next-line no-control-regex -- a revision must not carry control characters
  return !/[\u0000-\u001f\u007f]/.test(rev);
}

/** The plan contract. */
export function verifyPlanContract(log: CheckLog, plan: PtahSchemaPlan): void {
  const name = plan.metadata.name;
  const s = plan.spec;
  const fail: (what: string) => never = (what) => log.fail("contract", storeError(name, what));
  if (s.contractVersion === undefined || !SUPPORTED_PLAN_CONTRACT_VERSIONS.includes(s.contractVersion)) {
    fail(`plan contract version ${s.contractVersion ?? "(none)"} is not supported (this plugin reads ${SUPPORTED_PLAN_CONTRACT_VERSIONS.join(" and ")})`);
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
  log.pass("contract", `version ${s.contractVersion}, execution binding ${s.executionBindingID}, controller image pinned by digest`);
}

/**
 * Beyond upstream: recompute the fingerprint from the plan spec and compare
 * it with spec.fingerprint, which verifyPlanBinding already compared with the record.
 */
export function verifyFingerprint(log: CheckLog, record: PlanRecord, plan: PtahSchemaPlan): string {
  const name = plan.metadata.name;
  const binding = bindingOfPlanSpec(plan.spec);
  const problems = validateSchemaPlanBinding(binding);
  if (problems.length > 0) {
    log.fail("fingerprint", new VerificationError(`the stored plan ${name} cannot be fingerprinted: ${problems.join("; ")}`));
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

/** Publication (manifest → chunks → Ready) has completed at this generation. */
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
