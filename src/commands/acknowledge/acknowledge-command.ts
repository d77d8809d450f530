// `kubectl ptah acknowledge <migration>`: prints a PtahMigrationRunAcknowledgment naming the
// migration and its unresolved run's operation ID, for the person to create.
import { acknowledgmentHeader } from "../../approval/headers.ts";
import { acknowledgmentManifest, defaultName } from "../../approval/manifest.ts";
import { RefusalError, UsageError } from "../../errors.ts";
import { formatTimestamp } from "../../render/age.ts";
import { parseDryRun } from "../shared/arguments.ts";
import { namespaceFlag } from "../shared/output.ts";
import { declaredOutput, MANIFEST_OUTPUTS } from "../shared/output-flag.ts";
import { dryRun, renderManifest } from "../shared/approval-reads.ts";
import { getOrNotFound, noSuchMigration } from "../shared/read.ts";
import { MIGRATION } from "../shared/candidates.ts";
import type { CommandBody } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";

export interface AcknowledgeOptions {
  readonly name: string;
  readonly ackName: string | undefined;
  readonly output: "yaml" | "json";
  readonly dryRun: "none" | "server";
}

export const acknowledgeCommand: CommandBody<AcknowledgeOptions> = {
  positionals: [MIGRATION],
  outputs: MANIFEST_OUTPUTS,
  examples: [{ comment: "After establishing what the run did, settle it as yourself", command: "kubectl ptah acknowledge billing | kubectl create -f -" }],
  flags: [
    { name: "name", type: "string", value: "NAME", describe: "Name of the acknowledgment (default: <migration>-ack-<first 12 hex of the operation ID>)" },
    { name: "dry-run", type: "string", value: "MODE", describe: "server: send the create with dryRun=All and print what admission would store", values: ["server"] },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [
    { form: "acknowledge MIGRATION", argv: ["acknowledge", "billing"], rules: ptah("get", "ptahmigrations") },
    {
      form: "acknowledge MIGRATION --dry-run=server",
      argv: ["acknowledge", "billing", "--dry-run=server"],
      rules: [...ptah("get", "ptahmigrations"), ...ptah("create", "ptahmigrationrunacknowledgments")],
    },
  ],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahMigration", "acknowledge");
    const output = declaredOutput(args, MANIFEST_OUTPUTS, "acknowledge") ?? "yaml";
    const dryRun = parseDryRun(args.flags["dry-run"], "acknowledge");
    return { name: args.positionals[0]!, ackName: typeof args.flags.name === "string" ? args.flags.name : undefined, output, dryRun };
  },
  async run(options, ctx) {
    const c = await ctx.connect();
    const ns = c.namespace;
    const m = (await getOrNotFound(c.reader, "PtahMigration", ns, options.name, noSuchMigration(ns, options.name))).object;
    const run = m.status.unresolvedRun;
    if (!run?.operationID) {
      throw new RefusalError(`cannot acknowledge ${ns}/${options.name}: referenced migration records no unresolved run; there is nothing to settle`, 3);
    }
    if (!/^sha256:[0-9a-f]{64}$/u.test(run.operationID)) throw new RefusalError(`the unresolved run's operation ID is not a sha256 digest; refusing to name it`);
    const name = options.ackName ?? defaultName(options.name, run.operationID, "-ack");
    const manifest = acknowledgmentManifest(name, ns, { name: m.metadata.name, uid: m.metadata.uid ?? "" }, run.operationID);
    if (options.dryRun === "server") return dryRun(c, "PtahMigrationRunAcknowledgment", manifest, options.output);
    const header = acknowledgmentHeader({
      namespace: ns,
      migration: options.name,
      outcome: run.outcome,
      operationID: run.operationID,
      jobName: run.jobName,
      recorded: formatTimestamp(run.recordedAt),
      nsFlag: namespaceFlag(ctx.global, ns),
    });
    return { kind: "printed", stdout: renderManifest(manifest, header, options.output) };
  },
};
