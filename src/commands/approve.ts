// `kubectl ptah approve <schema>` / `approve migration <name>`: prints an approval manifest
// bound to the live, verified plan, for the person to create (`| kubectl create -f -`).
// Order: schema preconditions → full verification (same code as `plan`) of the plan that read
// names → the second and last schema read, which must name exactly the verified plan. The only write the plugin may send is the create
// with dryRun=All of --dry-run=server.
import { commentBlock, defaultName, migrationApprovalManifest, schemaApprovalManifest } from "../approval/manifest.ts";
import { migrationApprovable, planContractApprovable, schemaApprovable, type Precondition } from "../approval/preconditions.ts";
import { ReadError, RefusalError, UsageError, VerificationError } from "../errors.ts";
import type { PtahMigration, PtahMigrationPlan, PtahSchema } from "../model/kinds.ts";
import type { DryRunKind } from "../kube/types.ts";
import { loadVerifiedPlan } from "../plan/load.ts";
import { verifyMigrationPlanBinding } from "../plan/migration-plan.ts";
import { formatJson, formatYaml } from "../render/formats.ts";
import { sanitize } from "../render/sanitize.ts";
import { parseDryRun, parseManifestOutput, parseTarget } from "./arguments.ts";
import { namespaceFlag } from "./output.ts";
import { getOrNotFound, noSuchMigration, noSuchSchema } from "./read.ts";
import { SCHEMA_OR_MIGRATION } from "./candidates.ts";
import type { Command, Printed, Connection, RunContext } from "./types.ts";

export interface ApproveOptions {
  readonly target: "schema" | "migration";
  readonly name: string;
  readonly approvalName: string | undefined;
  readonly output: "yaml" | "json";
  readonly dryRun: "none" | "server";
}

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
    const header = ["Server dry run (nothing was stored): admission accepted this approval and would store:"];
    return { kind: "printed", stdout: output === "json" ? formatJson(object, 2) : commentBlock(header) + formatYaml(object) };
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
export async function buildSchemaApproval(c: Connection, nsFlag: string, schemaName: string, approvalName: string | undefined) {
  const ns = c.namespace;
  const first = await getOrNotFound(c.reader, "PtahSchema", ns, schemaName, noSuchSchema(ns, schemaName));
  refuse(schemaApprovable(first.object, nsFlag), `approve ${ns}/${schemaName}`);
  // Approve only what was verified: chunks, content digest, recomputed fingerprint — of the plan
  // this very read names (the loader does not read the schema again).
  const verified = await loadVerifiedPlan(c.reader, ns, schemaName, "current", { schema: first });
  const plan = verified.plan.object;
  refuse(planContractApprovable("schema", schemaName, plan.spec.contractVersion, nsFlag), `approve ${ns}/${schemaName}`);
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
  refuse(schemaApprovable(last, nsFlag), `approve ${ns}/${schemaName}`);
  const schemaRef = { name: last.metadata.name, uid: last.metadata.uid ?? "" };
  const planRef = { name: plan.metadata.name, uid: plan.metadata.uid ?? "" };
  const name = approvalName ?? defaultName(schemaName, verified.fingerprint);
  return { manifest: schemaApprovalManifest(name, ns, schemaRef, planRef, verified.fingerprint), verified, plan, planRef };
}

async function approveSchema(o: ApproveOptions, ctx: RunContext, c: Connection): Promise<Printed> {
  const ns = c.namespace;
  const nsFlag = namespaceFlag(ctx.global, ns);
  const { manifest, verified, plan, planRef } = await buildSchemaApproval(c, nsFlag, o.name, o.approvalName);
  if (o.dryRun === "server") return dryRun(c, "PtahSchemaApproval", manifest, o.output);
  const privileges = plan.spec.privilegeChanges ?? [];
  const header = [
    `Approves the current plan of ${sanitize(ns)}/${sanitize(o.name)}, verified by kubectl ptah (chunks, content digest, fingerprint):`,
    `  plan:              ${sanitize(planRef.name)} (uid ${sanitize(planRef.uid)})`,
    `  fingerprint:       ${sanitize(verified.fingerprint)}`,
    `  statements:        ${verified.document.statements.length}`,
    `  destructive:       ${plan.spec.destructive === true ? "YES" : "no"}`,
    `  privilege changes: ${privileges.length > 0 ? privileges.map(sanitize).join(", ") : "none"}`,
    `Read the SQL first:  kubectl ptah plan ${sanitize(o.name)}${nsFlag}`,
    `Then create it:      kubectl ptah approve ${sanitize(o.name)}${nsFlag} | kubectl create -f -`,
    "Admission stamps you as the approver; the approval authorises this exact plan once.",
  ];
  return { kind: "printed", stdout: renderManifest(manifest, header, o.output) };
}

/** Reads the migration's current plan and checks it binds the migration (no SQL is involved). */
export async function loadMigrationPlan(c: Connection, m: PtahMigration): Promise<PtahMigrationPlan> {
  const ref = m.status.plan!;
  const planName = ref.name!;
  const plan = (await getOrNotFound(c.reader, "PtahMigrationPlan", c.namespace, planName, `no such plan: the migration plan ${planName} is gone`)).object;
  verifyMigrationPlanBinding(m, plan);
  return plan;
}

async function approveMigration(o: ApproveOptions, ctx: RunContext, c: Connection): Promise<Printed> {
  const ns = c.namespace;
  const nsFlag = namespaceFlag(ctx.global, ns);
  const notFound = noSuchMigration(ns, o.name);
  const first = (await getOrNotFound(c.reader, "PtahMigration", ns, o.name, notFound)).object;
  refuse(migrationApprovable(first, nsFlag), `approve migration ${ns}/${o.name}`);
  const plan = await loadMigrationPlan(c, first);
  refuse(planContractApprovable("migration", o.name, plan.spec.contractVersion, nsFlag), `approve migration ${ns}/${o.name}`);
  const last = (await getOrNotFound(c.reader, "PtahMigration", ns, o.name, notFound)).object;
  if (last.status.plan?.uid !== first.status.plan?.uid || last.metadata.uid !== first.metadata.uid) {
    throw new VerificationError(`the current plan of migration ${ns}/${o.name} moved while it was being read; run the command again`);
  }
  refuse(migrationApprovable(last, nsFlag), `approve migration ${ns}/${o.name}`);
  const fingerprint = plan.spec.fingerprint!;
  const name = o.approvalName ?? defaultName(o.name, fingerprint);
  const manifest = migrationApprovalManifest(name, ns, { name: last.metadata.name, uid: last.metadata.uid ?? "" }, { name: plan.metadata.name, uid: plan.metadata.uid ?? "" }, fingerprint);
  if (o.dryRun === "server") return dryRun(c, "PtahMigrationApproval", manifest, o.output);
  const versions = (plan.spec.migrations ?? []).map((x) => String(x.version ?? "?"));
  const header = [
    `Approves the current plan of migration ${sanitize(ns)}/${sanitize(o.name)}:`,
    `  plan:         ${sanitize(plan.metadata.name)} (uid ${sanitize(plan.metadata.uid ?? "")})`,
    `  fingerprint:  ${sanitize(fingerprint)}`,
    `  migrations:   ${versions.length} from version ${plan.spec.currentVersion ?? 0}: ${versions.map(sanitize).join(", ")}`,
    "The migration fingerprint is compared, not recomputed: its key set is not pinned by the contract.",
    `Read the plan first: kubectl ptah migration ${sanitize(o.name)}${nsFlag}`,
    `Then create it:      kubectl ptah approve migration ${sanitize(o.name)}${nsFlag} | kubectl create -f -`,
  ];
  return { kind: "printed", stdout: renderManifest(manifest, header, o.output) };
}

export const approveCommand: Command<ApproveOptions> = {
  name: "approve",
  summary: "Print an approval bound to the live, verified plan, to pipe into kubectl create -f -",
  usage: "kubectl ptah approve (SCHEMA | migration MIGRATION) [--name NAME] [-o yaml|json] [--dry-run=server]",
  positionals: SCHEMA_OR_MIGRATION,
  outputs: ["yaml", "json"],
  examples: [
    { comment: "Read the plan, then approve exactly that plan as yourself", command: "kubectl ptah plan storefront && kubectl ptah approve storefront | kubectl create -f -" },
    { comment: "Ask admission whether it would accept the approval (needs create permission)", command: "kubectl ptah approve storefront --dry-run=server" },
    { comment: "Approve a migration's current plan", command: "kubectl ptah approve migration billing | kubectl create -f -" },
  ],
  flags: [
    { name: "name", type: "string", value: "NAME", describe: "Name of the approval (default: <schema>-<first 12 hex of the fingerprint>)" },
    {
      name: "dry-run",
      type: "string",
      value: "MODE",
      describe: "server: send the create with dryRun=All and print what admission would store; none/client: print only",
      values: ["none", "client", "server"],
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  toOptions(args) {
    const { target, name } = parseTarget(args.positionals, "approve");
    const output = parseManifestOutput(args.global.output, "approve");
    const dryRun = parseDryRun(args.flags["dry-run"], "approve");
    const approvalName = typeof args.flags.name === "string" ? args.flags.name : undefined;
    if (approvalName !== undefined && !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/u.test(approvalName)) {
      throw new UsageError(`invalid --name "${approvalName}": use a lowercase DNS subdomain`, "approve");
    }
    return { target, name, approvalName, output, dryRun };
  },
  async run(options, ctx) {
    const c = await ctx.connect();
    return options.target === "schema" ? approveSchema(options, ctx, c) : approveMigration(options, ctx, c);
  },
};
