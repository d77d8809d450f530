// `kubectl ptah status [SCHEMA]`: every PtahSchema and PtahMigration as a table, or one
// schema in detail. Reads: one paginated LIST per kind, or GET schema + LIST approvals.
import { UsageError } from "../errors.ts";
import type { Parsed } from "../model/parse.ts";
import type { PtahSchema, PtahSchemaApproval } from "../model/kinds.ts";
import { renderMachine } from "../render/formats.ts";
import { renderSchemaDetail } from "../views/schema-detail.ts";
import { renderStatusList } from "../views/status-list.ts";
import { namespaceFlag, noResources, parseViewOutput, type ViewOutput } from "./output.ts";
import { getOrNotFound, noSuchSchema } from "./read.ts";
import { gapWarning, readSecondary, rejectedWarnings, servedObjects, type Secondary } from "./tolerance.ts";
import type { ListResult } from "../kube/types.ts";
import type { Command, CommandOutput, Connection, RunContext } from "./types.ts";
import { watchStatus } from "./status-watch.ts";

const NO_APPROVALS: Secondary<ListResult<PtahSchemaApproval>> = { value: { items: [], resourceVersion: "" } };

export interface StatusOptions {
  readonly name: string | undefined;
  readonly output: ViewOutput;
  readonly watch: boolean;
}

export function loadSchema(connection: Connection, name: string): Promise<Parsed<PtahSchema>> {
  return getOrNotFound(connection.reader, "PtahSchema", connection.namespace, name, noSuchSchema(connection.namespace, name));
}

async function runDetail(options: StatusOptions, name: string, ctx: RunContext, connection: Connection): Promise<CommandOutput> {
  // Machine output is the schema alone: no need to list the namespace's approvals.
  if (options.output.kind !== "human") return { stdout: renderMachine(options.output, [(await loadSchema(connection, name)).raw], true) };
  const [schema, approvals] = await Promise.all([
    loadSchema(connection, name),
    readSecondary(connection.reader.list("PtahSchemaApproval", { namespace: connection.namespace, keepRaw: false, tolerant: true })),
  ]);
  const stdout = renderSchemaDetail({
    schema: schema.object,
    approvals: (approvals.value?.items ?? []).map((a: Parsed<PtahSchemaApproval>) => a.object),
    approvalsGap: approvals.gap,
    now: ctx.now,
    color: ctx.global.color,
    nsFlag: namespaceFlag(ctx.global, connection.namespace),
  });
  const stderr = approvals.gap !== undefined ? gapWarning("approvals", approvals.gap) : rejectedWarnings([approvals.value]);
  return stderr ? { stdout, stderr } : { stdout };
}

export const statusCommand: Command<StatusOptions> = {
  name: "status",
  summary: "Show every PtahSchema and PtahMigration, or one schema in detail, with what to do next",
  usage: "kubectl ptah status [SCHEMA] [-n NAMESPACE | -A] [-l SELECTOR] [-o wide|json|yaml|name|jsonpath=TEMPLATE] [--watch]",
  examples: [
    { comment: "Schemas and migrations in the current namespace", command: "kubectl ptah status" },
    { comment: "Everything, in every namespace, with digests, drift and last apply", command: "kubectl ptah status -A -o wide" },
    { comment: "One schema: conditions, current plan, approvals, last apply and the next command", command: "kubectl ptah status storefront -n app" },
    { comment: "The phase and fingerprint, as the seed's jsonpath line prints them", command: "kubectl ptah status storefront -o jsonpath='{.status.phase}{\"\\n\"}{.status.plan.fingerprint}{\"\\n\"}'" },
  ],
  flags: [{ name: "watch", alias: "w", type: "boolean", describe: "Keep watching: redraw on a terminal, one record per change otherwise" }],
  toOptions(args) {
    if (args.positionals.length > 1) throw new UsageError("name at most one PtahSchema", "status");
    const name = args.positionals[0];
    if (name !== undefined && args.global.allNamespaces) throw new UsageError("a schema name cannot be combined with --all-namespaces", "status");
    if (name !== undefined && args.global.selector) throw new UsageError("a schema name cannot be combined with --selector", "status");
    return { name, output: parseViewOutput(args.global.output, "status"), watch: args.flags.watch === true };
  },
  async run(options, ctx) {
    const connection = await ctx.connect();
    if (options.watch) return watchStatus(options, ctx, connection);
    if (options.name !== undefined) return runDetail(options, options.name, ctx, connection);
    const namespace = ctx.global.allNamespaces ? undefined : connection.namespace;
    const labelSelector = ctx.global.selector;
    // Only machine output prints the served objects (schemas and migrations, never approvals).
    const keepRaw = options.output.kind !== "human";
    const [schemas, migrations, approvals] = await Promise.all([
      connection.reader.list("PtahSchema", { namespace, labelSelector, keepRaw, tolerant: true }),
      connection.reader.list("PtahMigration", { namespace, labelSelector, keepRaw, tolerant: true }),
      // Approvals only fill the APPROVAL column: without them it still says waiting/reserved.
      options.output.kind === "human"
        ? readSecondary(connection.reader.list("PtahSchemaApproval", { namespace, keepRaw: false, tolerant: true }))
        : NO_APPROVALS,
    ]);
    if (options.output.kind !== "human") {
      const served = [...servedObjects(schemas), ...servedObjects(migrations)];
      if (served.length === 0 && (options.output.kind === "name" || options.output.kind === "jsonpath")) return { stdout: "", stderr: noResources(namespace) };
      return { stdout: renderMachine(options.output, served, false) };
    }
    const warnings = rejectedWarnings([schemas, migrations, ...(approvals.value ? [approvals.value] : [])]) + (approvals.gap !== undefined ? gapWarning("approvals (APPROVAL column from the schemas' status only)", approvals.gap) : "");
    if (schemas.items.length === 0 && migrations.items.length === 0) return { stdout: "", stderr: warnings + noResources(namespace) };
    return {
      ...(warnings ? { stderr: warnings } : {}),
      stdout: renderStatusList({
        schemas: schemas.items.map((s) => s.object),
        migrations: migrations.items.map((m) => m.object),
        approvals: (approvals.value?.items ?? []).map((a) => a.object),
        allNamespaces: ctx.global.allNamespaces,
        wide: options.output.wide,
        noHeaders: ctx.global.noHeaders,
        color: ctx.global.color,
        now: ctx.now,
      }),
    };
  },
};
