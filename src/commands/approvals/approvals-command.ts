// `kubectl ptah approvals [SCHEMA | migration NAME]`: every approval with its derived state
// (Consumed, Stale, Superseded, Reserved, Pending). Reads one LIST per kind.
import { migrationApprovalRows, schemaApprovalRows, type ApprovalRow } from "../../approval/rows.ts";
import { bindsSchema } from "../../approval/state.ts";
import { NotFoundError } from "../../errors.ts";
import type { PtahMigration, PtahMigrationApproval, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import type { Parsed } from "../../model/parse.ts";
import { renderMachine } from "../../render/formats.ts";
import { sortByField } from "../../render/columns.ts";
import { renderApprovalRows } from "../shared/approval-rows.ts";
import { parseOptionalTarget, type OptionalTarget } from "../shared/arguments.ts";
import { noResources, parseViewOutput, resolveViewOutput, type ViewOutput } from "../shared/output.ts";
import { PRINT_FLAGS, needsRaw, toPrintOptions, type PrintOptions, VIEW_OUTPUTS } from "../shared/printing.ts";
import type { ListResult } from "../../kube/types.ts";
import { readAll } from "../shared/read.ts";
import { notShownWarnings, servedObjects, machineNotShownWarnings } from "../shared/tolerance.ts";
import { OPTIONAL_SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import type { CommandBody, RunContext } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";

export interface ApprovalsOptions {
  readonly target: OptionalTarget;
  readonly output: ViewOutput;
  readonly print: PrintOptions;
}

function renderRows(rows: readonly ApprovalRow<unknown, unknown>[], ownerHeader: "SCHEMA" | "MIGRATION", ctx: RunContext, prefix: string, print: PrintOptions): string {
  const g = ctx.global;
  const labels = { columns: print.labelColumns, show: print.showLabels };
  return renderApprovalRows(rows, { now: ctx.now, color: g.color, nameHeader: "NAME", ownerHeader, namespaces: g.allNamespaces, prefix, labels, noHeaders: g.noHeaders });
}

export const approvalsCommand: CommandBody<ApprovalsOptions> = {
  positionals: OPTIONAL_SCHEMA_OR_MIGRATION,
  outputs: VIEW_OUTPUTS,
  examples: [
    { comment: "Every schema and migration approval in the namespace", command: "kubectl ptah approvals" },
    { comment: "The approvals that bind one schema", command: "kubectl ptah approvals storefront -n app" },
    { comment: "The approvals of one migration", command: "kubectl ptah approvals migration billing" },
    { comment: "Everything, everywhere, as a kubectl List", command: "kubectl ptah approvals -A -o yaml" },
  ],
  flags: PRINT_FLAGS,
  permissions: [{ form: "approvals", argv: ["approvals"], rules: ptah("list", "ptahschemaapprovals", "ptahschemas", "ptahmigrationapprovals", "ptahmigrations") }],
  toOptions(args) {
    const output = parseViewOutput(args.global.output, "approvals");
    const print = toPrintOptions(args.flags, output, "approvals");
    return { target: parseOptionalTarget(args.positionals, args.global.allNamespaces, "approvals"), output, print };
  },
  async run(options, ctx) {
    const output = resolveViewOutput(options.output, ctx);
    const print = options.print;
    const { reader, namespace: contextNamespace } = await ctx.connect();
    const namespace = ctx.global.allNamespaces ? undefined : contextNamespace;
    const t = options.target;
    const wantSchemas = t.kind !== "migration";
    const wantMigrations = t.kind !== "schema";
    const none = Promise.resolve<ListResult<never>>({ items: [], resourceVersion: "", notShown: [] });
    // Only machine output prints the served approvals; schemas and migrations are never printed.
    const keepRaw = output.kind !== "human" || needsRaw(print);
    const fieldSelector = print.fieldSelector;
    const [sApprovals, schemas, mApprovals, migrations] = await readAll([
      wantSchemas ? reader.list("PtahSchemaApproval", { namespace, labelSelector: ctx.global.selector, fieldSelector, keepRaw }) : none,
      wantSchemas ? reader.list("PtahSchema", { namespace, keepRaw: false }) : none,
      wantMigrations ? reader.list("PtahMigrationApproval", { namespace, labelSelector: ctx.global.selector, fieldSelector, keepRaw }) : none,
      wantMigrations ? reader.list("PtahMigration", { namespace, keepRaw: false }) : none,
    ]);
    const lists = [sApprovals, schemas, mApprovals, migrations];
    // Approvals that do not fit the model: left out of the table; in -o json|yaml as served
    // (for a named target, those whose reference names it).
    const refName = (raw: Record<string, unknown>, field: string): unknown => (raw.spec as Record<string, { name?: unknown } | undefined> | undefined)?.[field]?.name;
    const unfit = [
      ...(t.kind === "all" ? [] : sApprovals.notShown.filter((r) => t.kind === "schema" && refName(r.raw, "schemaRef") === t.name)),
      ...(t.kind === "all" ? [] : mApprovals.notShown.filter((r) => t.kind === "migration" && refName(r.raw, "migrationRef") === t.name)),
    ].filter((r) => !r.unprintable);
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
    if (output.kind !== "human") {
      let served =
        t.kind === "all" ? [...servedObjects(sApprovals), ...servedObjects(mApprovals)] : [...[...schemaItems, ...migrationItems].map((i) => i.raw), ...unfit.map((r) => r.raw)];
      const notShown = machineNotShownWarnings([sApprovals, mApprovals]);
      if (print.sortBy !== undefined) served = sortByField(served, (o) => o, print.sortBy);
      if (served.length === 0 && output.kind !== "json" && output.kind !== "yaml") return { kind: "printed", stdout: "", stderr: notShown + noResources(namespace) };
      return { kind: "printed", stdout: renderMachine(output, served, false, { noHeaders: ctx.global.noHeaders }), ...(notShown ? { stderr: notShown } : {}) };
    }
    const ordered = print.sortBy !== undefined;
    const inOrder = <T>(items: readonly Parsed<T>[]): T[] => (print.sortBy === undefined ? items : sortByField(items, (i) => i.raw, print.sortBy)).map((i) => i.object);
    const warnings = notShownWarnings(lists);
    if (schemaItems.length === 0 && migrationItems.length === 0) return { kind: "printed", stdout: "", stderr: warnings + noResources(namespace) };
    const both = schemaItems.length > 0 && migrationItems.length > 0;
    const parts: string[] = [];
    if (schemaItems.length > 0) {
      const rows = schemaApprovalRows(
        inOrder(schemaItems),
        (schemas.items as readonly Parsed<PtahSchema>[]).map((s) => s.object),
        ordered,
      );
      parts.push(renderRows(rows, "SCHEMA", ctx, both ? "ptahschemaapproval/" : "", print));
    }
    if (migrationItems.length > 0) {
      const rows = migrationApprovalRows(
        inOrder(migrationItems),
        (migrations.items as readonly Parsed<PtahMigration>[]).map((m) => m.object),
        ordered,
      );
      parts.push(renderRows(rows, "MIGRATION", ctx, both ? "ptahmigrationapproval/" : "", print));
    }
    return { kind: "printed", stdout: parts.join("\n"), ...(warnings ? { stderr: warnings } : {}) };
  },
};
