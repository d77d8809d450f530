// `kubectl ptah acknowledge <migration>`: prints a PtahMigrationRunAcknowledgment naming the
// migration and its unresolved run's operation ID, for the person to create.
import { acknowledgmentManifest } from "../approval/manifest.ts";
import { RefusalError, UsageError } from "../errors.ts";
import { formatTimestamp } from "../render/age.ts";
import { sanitize } from "../render/sanitize.ts";
import { dryRun, renderManifest } from "./approve.ts";
import { parseDryRun, parseManifestOutput } from "./arguments.ts";
import { namespaceFlag } from "./output.ts";
import { getOrNotFound, noSuchMigration } from "./read.ts";
import { MIGRATION } from "./candidates.ts";
import type { Command } from "./types.ts";

export interface AcknowledgeOptions {
  readonly name: string;
  readonly ackName: string | undefined;
  readonly output: "yaml" | "json";
  readonly dryRun: "none" | "server";
}

export const acknowledgeCommand: Command<AcknowledgeOptions> = {
  name: "acknowledge",
  summary: "Print an acknowledgment that settles a migration's unresolved Partial or Unknown run",
  usage: "kubectl ptah acknowledge MIGRATION [--name NAME] [-o yaml|json] [--dry-run=server]",
  positionals: [MIGRATION],
  outputs: ["yaml", "json"],
  examples: [
    { comment: "After establishing what the run did, settle it as yourself", command: "kubectl ptah acknowledge billing | kubectl create -f -" },
  ],
  flags: [
    { name: "name", type: "string", value: "NAME", describe: "Name of the acknowledgment (default: <migration>-ack-<first 12 hex of the operation ID>)" },
    { name: "dry-run", type: "string", value: "MODE", describe: "server: send the create with dryRun=All and print what admission would store", values: ["server"] },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahMigration", "acknowledge");
    const output = parseManifestOutput(args.global.output, "acknowledge");
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
    const name = options.ackName ?? `${options.name.slice(0, 230)}-ack-${run.operationID.slice(7, 19)}`;
    const manifest = acknowledgmentManifest(name, ns, { name: m.metadata.name, uid: m.metadata.uid ?? "" }, run.operationID);
    if (options.dryRun === "server") return dryRun(c, "PtahMigrationRunAcknowledgment", manifest, options.output);
    const nsFlag = namespaceFlag(ctx.global, ns);
    const header = [
      `Acknowledges the ${sanitize(run.outcome ?? "unresolved")} run of migration ${sanitize(ns)}/${sanitize(options.name)}:`,
      `  operation:  ${sanitize(run.operationID)}`,
      `  job:        ${sanitize(run.jobName ?? "-")}`,
      `  recorded:   ${formatTimestamp(run.recordedAt) || "-"}`,
      `A ${sanitize(run.outcome ?? "")} run may have committed some statements. Acknowledging states that you have`.replace("  ", " "),
      "established what it did; the operator then reads the database's history again before planning.",
      `Create it:   kubectl ptah acknowledge ${sanitize(options.name)}${nsFlag} | kubectl create -f -`,
    ];
    return { kind: "printed", stdout: renderManifest(manifest, header, options.output) };
  },
};


