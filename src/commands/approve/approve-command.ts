// `kubectl ptah approve <schema>` / `approve migration <name>`: prints an approval manifest
// bound to the live, verified plan, for the person to create (`| kubectl create -f -`).
// Order: schema preconditions → full verification (same code as `plan`) of the plan that read
// names → the second and last schema read, which must name exactly the verified plan. The only write the plugin may send is the create
// with dryRun=All of --dry-run=server. Four-eyes: when the object read last records its
// last spec writer, one SelfSubjectReview says who you are; the writer is refused (exit 1) unless
// --allow-self. --dry-run=server skips that check: there admission itself answers.
import { rowValueTables } from "../../plan/document.ts";
import { migrationApprovalHeader, schemaApprovalHeader } from "../../approval/headers.ts";
import { defaultName, migrationApprovalManifest } from "../../approval/manifest.ts";
import { migrationApprovable, planContractApprovable } from "../../approval/preconditions.ts";
import { isDnsSubdomain } from "../../model/names.ts";
import { sanitize, UsageError, VerificationError } from "../../errors.ts";
import { parseDryRun, parseTarget } from "../shared/arguments.ts";
import { namespaceFlag } from "../shared/output.ts";
import { declaredOutput, MANIFEST_OUTPUTS } from "../shared/output-flag.ts";
import { buildSchemaApproval, dryRun, loadMigrationPlan, refuse, renderManifest } from "../shared/approval-reads.ts";
import { getOrNotFound, noSuchMigration } from "../shared/read.ts";
import type { CommandBody, Connection, Printed, RunContext } from "../command-types.ts";
import { SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import { fourEyes, startFourEyes, type FourEyesReads } from "./approve-four-eyes.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import { APPROVAL_POLICIES, FOUR_EYES_SWITCH, ptah, WHO_AM_I } from "../shared/permissions.ts";
import { approvalPolicyWarning } from "../shared/policy-readback.ts";

export interface ApproveOptions {
  readonly target: "schema" | "migration";
  readonly name: string;
  readonly approvalName: string | undefined;
  readonly output: "yaml" | "json";
  readonly dryRun: "none" | "server";
  /** --allow-self: print the approval even if you last changed the spec. */
  readonly allowSelf: boolean;
}

/** The manifest, and the policies' warning (if any) for stderr, sanitised. */
function printed(stdout: string, warning: string | undefined): Printed {
  return warning === undefined ? { kind: "printed", stdout } : { kind: "printed", stdout, stderr: `${sanitize(warning)}\n` };
}

async function approveSchema(o: ApproveOptions, ctx: RunContext, c: Connection): Promise<Printed> {
  const ns = c.namespace;
  const nsFlag = namespaceFlag(ctx.global, ns);
  // The four-eyes reads (not sent with --dry-run=server, where admission answers) go beside the plan's.
  const side: { reads?: FourEyesReads } = {};
  const early = o.dryRun === "server" ? undefined : (first: PtahSchema) => void (side.reads = startFourEyes(c, first.metadata));
  const { manifest, verified, plan, planRef, schema } = await buildSchemaApproval(c, nsFlag, o.name, o.approvalName, early);
  if (o.dryRun === "server") return dryRun(c, "PtahSchemaApproval", manifest, o.output);
  const retry = `kubectl ptah approve ${o.name}${nsFlag}`;
  const eyes = await fourEyes(c, { metadata: schema.metadata, allowSelf: o.allowSelf, what: `approve ${ns}/${o.name}`, retry }, side.reads);
  // The analyser loads only here, after every check held: approve's other paths never pay for it.
  const impact = await import("../shared/lock-impact.ts");
  const report = await impact.analysePlan(verified);
  const header = schemaApprovalHeader({
    namespace: ns,
    schema: o.name,
    plan: planRef,
    fingerprint: verified.fingerprint,
    statements: verified.document.statements.length,
    destructive: plan.spec.destructive === true,
    privilegeChanges: plan.spec.privilegeChanges ?? [],
    rowValueTables: rowValueTables(verified.document),
    fourEyes: eyes,
    nsFlag,
    locks: { line: impact.lockImpactLine(report), findings: report.findings },
  });
  const warning = await approvalPolicyWarning(c, { kind: "PtahSchemaApproval", approval: manifest, schemas: [schema], now: ctx.now });
  return printed(renderManifest(manifest, header, o.output), warning);
}

async function approveMigration(o: ApproveOptions, ctx: RunContext, c: Connection): Promise<Printed> {
  const ns = c.namespace;
  const nsFlag = namespaceFlag(ctx.global, ns);
  const notFound = noSuchMigration(ns, o.name);
  const first = (await getOrNotFound(c.reader, "PtahMigration", ns, o.name, notFound)).object;
  refuse(migrationApprovable(first, nsFlag), `approve migration ${ns}/${o.name}`);
  const started = o.dryRun === "server" ? undefined : startFourEyes(c, first.metadata);
  const plan = await loadMigrationPlan(c, first);
  refuse(planContractApprovable("migration", o.name, plan.spec.contractVersion, nsFlag), `approve migration ${ns}/${o.name}`);
  const last = (await getOrNotFound(c.reader, "PtahMigration", ns, o.name, notFound)).object;
  if (last.status.plan?.uid !== first.status.plan?.uid || last.metadata.uid !== first.metadata.uid) {
    throw new VerificationError(`the current plan of migration ${ns}/${o.name} moved while it was being read; run the command again`);
  }
  refuse(migrationApprovable(last, nsFlag), `approve migration ${ns}/${o.name}`);
  const fingerprint = plan.spec.fingerprint!;
  const name = o.approvalName ?? defaultName(o.name, fingerprint);
  const manifest = migrationApprovalManifest(
    name,
    ns,
    { name: last.metadata.name, uid: last.metadata.uid ?? "" },
    { name: plan.metadata.name, uid: plan.metadata.uid ?? "" },
    fingerprint,
  );
  if (o.dryRun === "server") return dryRun(c, "PtahMigrationApproval", manifest, o.output);
  const retry = `kubectl ptah approve migration ${o.name}${nsFlag}`;
  const eyes = await fourEyes(c, { metadata: last.metadata, allowSelf: o.allowSelf, what: `approve migration ${ns}/${o.name}`, retry }, started);
  const header = migrationApprovalHeader({
    namespace: ns,
    migration: o.name,
    plan: { name: plan.metadata.name, uid: plan.metadata.uid ?? "" },
    fingerprint,
    currentVersion: plan.spec.currentVersion ?? 0,
    versions: (plan.spec.migrations ?? []).map((x) => String(x.version ?? "?")),
    fourEyes: eyes,
    nsFlag,
  });
  const warning = await approvalPolicyWarning(c, { kind: "PtahMigrationApproval", approval: manifest, schemas: [], now: ctx.now });
  return printed(renderManifest(manifest, header, o.output), warning);
}

export const approveCommand: CommandBody<ApproveOptions> = {
  positionals: SCHEMA_OR_MIGRATION,
  outputs: MANIFEST_OUTPUTS,
  examples: [
    { comment: "Read the plan, then approve exactly that plan as yourself", command: "kubectl ptah plan storefront && kubectl ptah approve storefront | kubectl create -f -" },
    { comment: "Ask admission whether it would accept the approval (needs create permission)", command: "kubectl ptah approve storefront --dry-run=server" },
    { comment: "Approve a migration's current plan", command: "kubectl ptah approve migration billing | kubectl create -f -" },
    { comment: "You last changed the spec and the operator does not require a distinct approver", command: "kubectl ptah approve storefront --allow-self" },
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
    {
      name: "allow-self",
      type: "boolean",
      describe: "Print the approval even though you last changed the spec (only where the operator does not set approvals.requireDistinctApprover)",
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [
    {
      form: "approve SCHEMA",
      argv: ["approve", "storefront"],
      rules: ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"),
      note: `${WHO_AM_I}; ${FOUR_EYES_SWITCH}; ${APPROVAL_POLICIES}, and create \`selfsubjectreviews.authentication.k8s.io\` when one is bound (would it admit you?)`,
    },
    {
      form: "approve SCHEMA --dry-run=server",
      argv: ["approve", "storefront", "--dry-run=server"],
      rules: [...ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"), ...ptah("create", "ptahschemaapprovals")],
    },
    {
      form: "approve SCHEMA | kubectl create -f -",
      rules: [...ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"), ...ptah("create", "ptahschemaapprovals")],
      note: "kubectl sends the create",
    },
    {
      form: "approve migration MIGRATION",
      argv: ["approve", "migration", "billing"],
      rules: ptah("get", "ptahmigrations", "ptahmigrationplans"),
      note: `${WHO_AM_I}; ${FOUR_EYES_SWITCH}; ${APPROVAL_POLICIES}, and create \`selfsubjectreviews.authentication.k8s.io\` when one is bound (would it admit you?)`,
    },
    {
      form: "approve migration MIGRATION --dry-run=server",
      argv: ["approve", "migration", "billing", "--dry-run=server"],
      rules: [...ptah("get", "ptahmigrations", "ptahmigrationplans"), ...ptah("create", "ptahmigrationapprovals")],
    },
  ],
  toOptions(args) {
    const { target, name } = parseTarget(args.positionals, "approve");
    const output = declaredOutput(args, MANIFEST_OUTPUTS, "approve") ?? "yaml";
    const dryRun = parseDryRun(args.flags["dry-run"], "approve");
    const approvalName = typeof args.flags.name === "string" ? args.flags.name : undefined;
    if (approvalName !== undefined && !isDnsSubdomain(approvalName)) {
      throw new UsageError(`invalid --name "${approvalName}": use a lowercase DNS subdomain`, "approve");
    }
    const allowSelf = args.flags["allow-self"] === true;
    return { target, name, approvalName, output, dryRun, allowSelf };
  },
  async run(options, ctx) {
    const c = await ctx.connect();
    return options.target === "schema" ? approveSchema(options, ctx, c) : approveMigration(options, ctx, c);
  },
};
