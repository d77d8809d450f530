// `kubectl ptah approvals [SCHEMA | migration NAME]`: every approval with its derived state
// (Consumed, Stale, Superseded, Reserved, Pending). Reads one LIST per kind.
import { migrationApprovalRows, schemaApprovalRows, type ApprovalRow } from "../approval/rows.ts";
import { bindsSchema } from "../approval/state.ts";
import { NotFoundError } from "../errors.ts";
import type { PtahMigration, PtahMigrationApproval, PtahSchema, PtahSchemaApproval } from "../model/kinds.ts";
import type { Parsed } from "../model/parse.ts";
import { formatAge } from "../render/age.ts";
import { paintWord } from "../render/color.ts";
import { renderMachine } from "../render/formats.ts";
import { sanitize } from "../render/sanitize.ts";
import { renderTable } from "../render/table.ts";
import { parseOptionalTarget, type OptionalTarget } from "./arguments.ts";
import { noResources, parseViewOutput, type ViewOutput } from "./output.ts";
import type { Command, RunContext } from "./types.ts";

export interface ApprovalsOptions {
  readonly target: OptionalTarget;
  readonly output: ViewOutput;
}

type Row = ApprovalRow<unknown, unknown>;

function renderRows(rows: readonly Row[], ownerHeader: string, ctx: RunContext, prefix: string): string {
  const all = ctx.global.allNamespaces;
  const headers = [...(all ? ["NAMESPACE"] : []), "NAME", ownerHeader, "PLAN", "APPROVER", "STATE", "REASON", "AGE"];
  const body = rows.map((r) => {
    const state = paintWord(r.state.state, ctx.global.color) + (r.state.state === "Consumed" && r.state.alsoStale ? ", stale" : "");
    return [
      ...(all ? [sanitize(r.namespace)] : []),
      prefix + sanitize(r.name),
      sanitize(r.owner),
      sanitize(r.plan),
      sanitize(r.approver),
      state,
      sanitize(r.state.reason || "-"),
      formatAge(r.created, ctx.now),
    ];
  });
  return renderTable(headers, body, { noHeaders: ctx.global.noHeaders });
}

export const approvalsCommand: Command<ApprovalsOptions> = {
  name: "approvals",
  summary: "List approvals with their derived state: Pending, Reserved, Consumed, Stale or Superseded",
  usage: "kubectl ptah approvals [SCHEMA | migration MIGRATION] [-n NAMESPACE | -A] [-o wide|json|yaml|name|jsonpath=TEMPLATE]",
  examples: [
    { comment: "Every schema and migration approval in the namespace", command: "kubectl ptah approvals" },
    { comment: "The approvals that bind one schema", command: "kubectl ptah approvals storefront -n app" },
    { comment: "The approvals of one migration", command: "kubectl ptah approvals migration billing" },
    { comment: "Everything, everywhere, as a kubectl List", command: "kubectl ptah approvals -A -o yaml" },
  ],
  flags: [],
  toOptions(args) {
    const output = parseViewOutput(args.global.output, "approvals");
    return { target: parseOptionalTarget(args.positionals, args.global.allNamespaces, "approvals"), output };
  },
  async run(options, ctx) {
    const { reader, namespace: contextNamespace } = await ctx.connect();
    const namespace = ctx.global.allNamespaces ? undefined : contextNamespace;
    const t = options.target;
    const wantSchemas = t.kind !== "migration";
    const wantMigrations = t.kind !== "schema";
    const none = Promise.resolve({ items: [] as Parsed<never>[], resourceVersion: "" });
    // Only machine output prints the served approvals; schemas and migrations are never printed.
    const keepRaw = options.output.kind !== "human";
    const [sApprovals, schemas, mApprovals, migrations] = await Promise.all([
      wantSchemas ? reader.list("PtahSchemaApproval", { namespace, labelSelector: ctx.global.selector, keepRaw }) : none,
      wantSchemas ? reader.list("PtahSchema", { namespace, keepRaw: false }) : none,
      wantMigrations ? reader.list("PtahMigrationApproval", { namespace, labelSelector: ctx.global.selector, keepRaw }) : none,
      wantMigrations ? reader.list("PtahMigration", { namespace, keepRaw: false }) : none,
    ]);
    let schemaItems = sApprovals.items as readonly Parsed<PtahSchemaApproval>[];
    let migrationItems = mApprovals.items as readonly Parsed<PtahMigrationApproval>[];
    if (t.kind === "schema") {
      const schema = (schemas.items as readonly Parsed<PtahSchema>[]).find((s) => s.object.metadata.name === t.name);
      if (!schema) throw new NotFoundError(`no such schema: ${contextNamespace}/${t.name}`);
      schemaItems = schemaItems.filter((a) => bindsSchema(a.object, schema.object));
    }
    if (t.kind === "migration") {
      const m = (migrations.items as readonly Parsed<PtahMigration>[]).find((x) => x.object.metadata.name === t.name);
      if (!m) throw new NotFoundError(`no PtahMigration by that name: ${contextNamespace}/${t.name}`);
      migrationItems = migrationItems.filter((a) => a.object.spec.migrationRef?.name === t.name);
    }
    if (schemaItems.length === 0 && migrationItems.length === 0) {
      if (options.output.kind !== "json" && options.output.kind !== "yaml") return { kind: "printed", stdout: "", stderr: noResources(namespace) };
    }
    if (options.output.kind !== "human") {
      return { kind: "printed", stdout: renderMachine(options.output, [...schemaItems, ...migrationItems].map((i) => i.raw), false) };
    }
    const both = schemaItems.length > 0 && migrationItems.length > 0;
    const parts: string[] = [];
    if (schemaItems.length > 0) {
      const rows = schemaApprovalRows(schemaItems.map((i) => i.object), (schemas.items as readonly Parsed<PtahSchema>[]).map((s) => s.object));
      parts.push(renderRows(rows, "SCHEMA", ctx, both ? "ptahschemaapproval/" : ""));
    }
    if (migrationItems.length > 0) {
      const rows = migrationApprovalRows(migrationItems.map((i) => i.object), (migrations.items as readonly Parsed<PtahMigration>[]).map((m) => m.object));
      parts.push(renderRows(rows, "MIGRATION", ctx, both ? "ptahmigrationapproval/" : ""));
    }
    return { kind: "printed", stdout: parts.join("\n") };
  },
};
