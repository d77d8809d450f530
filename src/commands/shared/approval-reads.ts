// What `approve` and doctor's --probe share: refusing on a precondition, the schema approval built
// from a fully verified plan, the migration plan that binds a migration, and the printed manifest
// or --dry-run=server's answer (the one create the plugin may send, with dryRun=All).
import { commentBlock, defaultName, schemaApprovalManifest } from "../../approval/manifest.ts";
import { DRY_RUN_HEADER } from "../../approval/headers.ts";
import { planContractApprovable, schemaApprovable, type Precondition } from "../../approval/preconditions.ts";
import { ReadError, RefusalError, VerificationError } from "../../errors.ts";
import type { DryRunKind } from "../../kube/types.ts";
import type { PtahMigration, PtahMigrationPlan, PtahSchema } from "../../model/kinds.ts";
import { loadVerifiedPlan } from "../../plan/load.ts";
import { verifyMigrationPlanBinding } from "../../plan/migration-plan.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { Connection, Printed } from "../command-types.ts";
import { getOrNotFound, noSuchSchema } from "./read.ts";

export function refuse(p: Precondition, what: string): void {
  if (p.ok) return;
  throw new RefusalError(`cannot ${what}: ${p.why}; next: ${p.todo}`, p.exitStatus);
}

export function renderManifest(manifest: Record<string, unknown>, header: readonly string[], output: "yaml" | "json"): string {
  return output === "json" ? formatJson(manifest, 2) : commentBlock(header) + formatYaml(manifest);
}

/** --dry-run=server: what admission would store, or its refusal. */
export async function dryRun(c: Connection, kind: DryRunKind, manifest: Record<string, unknown>, output: "yaml" | "json"): Promise<Printed> {
  try {
    const { object } = await c.reader.dryRunCreate(kind, c.namespace, manifest);
    return { kind: "printed", stdout: renderManifest(object, DRY_RUN_HEADER, output) };
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403 && / cannot create resource /u.test(err.message)) {
      throw new ReadError(`${err.message}; --dry-run=server sends a create (with dryRun=All) and needs create permission, while plain approve needs only read access`, 403);
    }
    if (err instanceof ReadError && err.httpStatus !== undefined && err.httpStatus >= 400 && err.httpStatus < 500) {
      throw new RefusalError(`admission refused the approval: ${err.message}`);
    }
    throw err;
  }
}

/**
 * The approval `approve SCHEMA` prints, after its preconditions, the full plan verification and
 * the last read of the schema (also doctor's --probe).
 */
export async function buildSchemaApproval(
  c: Connection,
  nsFlag: string,
  schemaName: string,
  approvalName: string | undefined,
  /** Told the first read once its preconditions hold: the caller may start reads of its own beside the plan's. */
  approvable?: (first: PtahSchema) => void,
  /** The refusals' verb: "approve", or "endorse" (which verifies exactly as approve does). */
  verb = "approve",
) {
  const ns = c.namespace;
  const first = await getOrNotFound(c.reader, "PtahSchema", ns, schemaName, noSuchSchema(ns, schemaName));
  refuse(schemaApprovable(first.object, nsFlag), `${verb} ${ns}/${schemaName}`);
  approvable?.(first.object);
  // Approve only what was verified: chunks, content digest, recomputed fingerprint — of the plan
  // this very read names (the loader does not read the schema again).
  const verified = await loadVerifiedPlan(c.reader, ns, schemaName, "current", { schema: first });
  const plan = verified.plan.object;
  refuse(planContractApprovable("schema", schemaName, plan.spec.contractVersion, nsFlag), `${verb} ${ns}/${schemaName}`);
  // The second and last read of the schema: the manifest binds what was verified only if that is
  // still the schema's current plan. Comparing with this read (not with the first) also refuses
  // a plan that moved away and back while its pieces were read.
  const last = (await getOrNotFound(c.reader, "PtahSchema", ns, schemaName, noSuchSchema(ns, schemaName))).object as PtahSchema;
  const now = last.status.plan;
  if (now?.name !== plan.metadata.name || now?.uid !== plan.metadata.uid || now?.fingerprint !== verified.fingerprint || last.metadata.uid !== first.object.metadata.uid) {
    throw new VerificationError(
      `the current plan of ${ns}/${schemaName} moved while it was being verified (${sanitize(plan.metadata.name)} → ${sanitize(now?.name ?? "none")}); read it again with kubectl ptah plan ${schemaName}${nsFlag}`,
    );
  }
  refuse(schemaApprovable(last, nsFlag), `${verb} ${ns}/${schemaName}`);
  const schemaRef = { name: last.metadata.name, uid: last.metadata.uid ?? "" };
  const planRef = { name: plan.metadata.name, uid: plan.metadata.uid ?? "" };
  const name = approvalName ?? defaultName(schemaName, verified.fingerprint);
  return { manifest: schemaApprovalManifest(name, ns, schemaRef, planRef, verified.fingerprint), verified, plan, planRef, schema: last };
}

/** Reads the migration's current plan and checks it binds the migration (no SQL is involved). */
export async function loadMigrationPlan(c: Connection, m: PtahMigration): Promise<PtahMigrationPlan> {
  const ref = m.status.plan!;
  const planName = ref.name!;
  const plan = (await getOrNotFound(c.reader, "PtahMigrationPlan", c.namespace, planName, `no such plan: the migration plan ${planName} is gone`)).object;
  verifyMigrationPlanBinding(m, plan);
  return plan;
}
