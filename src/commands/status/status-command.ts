// `kubectl ptah status [SCHEMA]`: every PtahSchema and PtahMigration as a table, or one
// schema in detail. Reads: one paginated LIST per kind, or GET schema + LIST approvals at once; the list
// with --contexts/--all-contexts reads each context (shared/fleet.ts), a CONTEXT column first.
import { mayBindSchema } from "../../approval/state.ts";
import { UsageError, sanitize } from "../../errors.ts";
import type { ListResult } from "../../kube/types.ts";
import type { Parsed } from "../../model/parse.ts";
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { sortByField } from "../../render/columns.ts";
import { renderMachine } from "../../render/formats.ts";
import { renderSchemaDetail } from "./status-schema-detail.ts";
import { onlyStuck, renderStatusList } from "./status-list.ts";
import { migrationStuck, schemaStuck } from "../shared/stuck.ts";
import { realmSection, withRealm } from "../shared/realm-holders.ts";
import { readPolicies, schemaPolicyView } from "../shared/policy-readback.ts";
import { namespaceFlag, noResources, parseViewOutput, resolveViewOutput, type ResolvedOutput, type ViewOutput } from "../shared/output.ts";
import { PRINT_FLAGS, needsRaw, toPrintOptions, type PrintOptions, VIEW_OUTPUTS } from "../shared/printing.ts";
import { getOrNotFound, noSuchSchema, readAll } from "../shared/read.ts";
import { sectionNotShownWarning, readMaybeShown, notShownWarnings, servedObjects, machineNotShownWarnings, type MaybeShown } from "../shared/tolerance.ts";
import { SCHEMA } from "../shared/candidates.ts";
import type { CommandBody, Printed, Connection, RunContext } from "../command-types.ts";
import { watchStatus } from "./status-watch.ts";
import { REPORT_FLAGS, REPORT_PERMISSIONS, runReport } from "./status-report.ts";
import { APPROVAL_POLICIES, REALM_READS, ptah } from "../shared/permissions.ts";
import { FLEET_FLAGS, contextWarnings, fleetPrinted, noResourcesInFleet, parseFleet, readFleet, type FleetChoice } from "../shared/fleet.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";

const NO_APPROVALS: MaybeShown<ListResult<PtahSchemaApproval>> = { value: { items: [], resourceVersion: "", notShown: [] } };

export interface StatusOptions {
  readonly name: string | undefined;
  readonly output: ViewOutput;
  readonly watch: boolean;
  readonly print: PrintOptions;
  /** --contexts / --all-contexts (shared/fleet.ts), the list only; undefined: the one current context. */
  readonly fleet?: FleetChoice;
  /** --stuck: only the schemas and migrations that stopped converging (shared/stuck.ts). */
  readonly stuck?: boolean;
  /** --report: one schema as Markdown for a bug report (status-report.ts). */
  readonly report?: boolean;
  /** --with-sql: the report carries the verified current plan's statements. */
  readonly withSql?: boolean;
}

/** --stuck with machine output: the served objects of those that stopped converging (one not shown is already a warning line). */
function stuckServed(lists: Pick<StatusLists, "schemas" | "migrations">, now: Date): Record<string, unknown>[] {
  return [
    ...lists.schemas.items.filter((i) => schemaStuck(i.object, now).length > 0).map((i) => i.raw),
    ...lists.migrations.items.filter((i) => migrationStuck(i.object, now).length > 0).map((i) => i.raw),
  ];
}

/** The empty --stuck list's stderr line. */
function nothingStuck(namespace: string | undefined): string {
  return namespace === undefined ? "Nothing is stuck in any namespace.\n" : `Nothing is stuck in ${sanitize(namespace)} namespace.\n`;
}

export function loadSchema(connection: Connection, name: string): Promise<Parsed<PtahSchema>> {
  return getOrNotFound(connection.reader, "PtahSchema", connection.namespace, name, noSuchSchema(connection.namespace, name));
}

async function runDetail(output: ResolvedOutput, name: string, ctx: RunContext, connection: Connection): Promise<Printed> {
  // Machine output is the schema alone: no need to list the namespace's approvals.
  if (output.kind !== "human") return { kind: "printed", stdout: renderMachine(output, [(await loadSchema(connection, name)).raw], true, { noHeaders: ctx.global.noHeaders }) };
  // The approvals LIST does not need the schema's answer: both go at once. The realm section's
  // reads (only for a schema that waits for its realm) start as soon as the schema is in, beside
  // the LIST. A failure is the first in this order, as when they ran one after another.
  const schemaRead = loadSchema(connection, name);
  const [schema, approvals, realm, policies] = await readAll([
    schemaRead,
    // Only the approvals naming this schema are parsed (the namespace may hold thousands).
    readMaybeShown(connection.reader.list("PtahSchemaApproval", { namespace: connection.namespace, keepRaw: false, select: (raw) => mayBindSchema(raw, name) })),
    schemaRead.then((s) => realmSection(connection, "PtahSchema", s.object)),
    readPolicies(connection),
  ]);
  const detail = renderSchemaDetail({
    schema: schema.object,
    approvals: (approvals.value?.items ?? []).map((a: Parsed<PtahSchemaApproval>) => a.object),
    approvalsNotShown: approvals.notShown,
    now: ctx.now,
    color: ctx.global.color,
    nsFlag: namespaceFlag(ctx.global, connection.namespace),
    policy: schemaPolicyView(policies, schema.raw, ctx.now),
  });
  const stdout = withRealm(detail, realm);
  const stderr = approvals.notShown !== undefined ? sectionNotShownWarning("approvals", approvals.notShown) : notShownWarnings([approvals.value]);
  return stderr ? { kind: "printed", stdout, stderr } : { kind: "printed", stdout };
}

interface StatusLists {
  readonly schemas: ListResult<PtahSchema>;
  readonly migrations: ListResult<PtahMigration>;
  readonly approvals: MaybeShown<ListResult<PtahSchemaApproval>>;
  /** The namespace read; undefined: every one (-A). */
  readonly namespace: string | undefined;
  /** Warning lines: objects that did not fit, approvals not read. */
  readonly warnings: string;
}

/** The list form's reads, at once: schemas, migrations and (for the table's APPROVAL column) approvals. */
async function readLists(options: StatusOptions, output: ResolvedOutput, ctx: RunContext, connection: Connection): Promise<StatusLists> {
  const namespace = ctx.global.allNamespaces ? undefined : connection.namespace;
  const { selector: labelSelector } = ctx.global;
  const fieldSelector = options.print.fieldSelector;
  // Only machine output (and --sort-by) reads the served objects (schemas and migrations, never approvals).
  const keepRaw = output.kind !== "human" || needsRaw(options.print);
  const [schemas, migrations, approvals] = await readAll([
    connection.reader.list("PtahSchema", { namespace, labelSelector, fieldSelector, keepRaw }),
    connection.reader.list("PtahMigration", { namespace, labelSelector, fieldSelector, keepRaw }),
    // Approvals only fill the APPROVAL column: without them it still says waiting/reserved.
    output.kind === "human" ? readMaybeShown(connection.reader.list("PtahSchemaApproval", { namespace, keepRaw: false })) : NO_APPROVALS,
  ]);
  const warnings =
    notShownWarnings([schemas, migrations, ...(approvals.value ? [approvals.value] : [])]) +
    (approvals.notShown !== undefined ? sectionNotShownWarning("approvals (APPROVAL column from the schemas' status only)", approvals.notShown) : "");
  return { schemas, migrations, approvals, namespace, warnings };
}

function listInput(options: StatusOptions, output: ResolvedOutput & { kind: "human" }, ctx: RunContext, lists: Pick<StatusLists, "schemas" | "migrations" | "approvals">) {
  const print = options.print;
  const stuck = options.stuck === true;
  const ordered = <T>(items: readonly Parsed<T>[]): T[] => (print.sortBy === undefined ? items : sortByField(items, (i) => i.raw, print.sortBy)).map((i) => i.object);
  const input = {
    schemas: ordered(lists.schemas.items),
    migrations: ordered(lists.migrations.items),
    approvals: (lists.approvals.value?.items ?? []).map((a) => a.object),
    allNamespaces: ctx.global.allNamespaces,
    wide: output.wide,
    noHeaders: ctx.global.noHeaders,
    color: ctx.global.color,
    now: ctx.now,
    ordered: print.sortBy !== undefined,
    labelColumns: print.labelColumns,
    showLabels: print.showLabels,
    stuck,
  };
  return stuck ? onlyStuck(input) : input;
}

async function runList(options: StatusOptions, output: ResolvedOutput, ctx: RunContext, connection: Connection): Promise<Printed> {
  const lists = await readLists(options, output, ctx, connection);
  const { schemas, migrations, namespace, warnings } = lists;
  if (output.kind !== "human") {
    let served = options.stuck ? stuckServed(lists, ctx.now) : [...servedObjects(schemas), ...servedObjects(migrations)];
    // --stuck prints only what fits the model (it is judged on its fields): the rest are warning lines.
    const notShown = options.stuck ? notShownWarnings([schemas, migrations]) : machineNotShownWarnings([schemas, migrations]);
    if (options.print.sortBy !== undefined) served = sortByField(served, (o) => o, options.print.sortBy);
    if (served.length === 0 && output.kind !== "json" && output.kind !== "yaml")
      return { kind: "printed", stdout: "", stderr: notShown + (options.stuck ? nothingStuck(namespace) : noResources(namespace)) };
    return { kind: "printed", stdout: renderMachine(output, served, false, { noHeaders: ctx.global.noHeaders }), ...(notShown ? { stderr: notShown } : {}) };
  }
  if (schemas.items.length === 0 && migrations.items.length === 0) return { kind: "printed", stdout: "", stderr: warnings + noResources(namespace) };
  const input = listInput(options, output, ctx, lists);
  if (input.schemas.length === 0 && input.migrations.length === 0) return { kind: "printed", stdout: "", stderr: warnings + nothingStuck(namespace) };
  return { kind: "printed", ...(warnings ? { stderr: warnings } : {}), stdout: renderStatusList(input) };
}

/**
 * --contexts / --all-contexts: every context's schemas and migrations in one table, a CONTEXT
 * column first, contexts in the order named; -o json|yaml is a List of {context, object}.
 */
async function runFleet(options: StatusOptions, choice: Exclude<FleetChoice, undefined>, output: ResolvedOutput, ctx: RunContext): Promise<Printed> {
  const result = await readFleet(ctx, choice, async (c) => readLists(options, output, c, await c.connect()));
  const warnings = contextWarnings(result.answers, (v) => v.warnings);
  if (output.kind === "json" || output.kind === "yaml") {
    const served = (v: StatusLists) => (options.stuck ? stuckServed(v, ctx.now) : [...servedObjects(v.schemas), ...servedObjects(v.migrations)]);
    const items = result.answers.flatMap((a) => served(a.value).map((object) => ({ context: a.context, object })));
    const doc = { apiVersion: "v1", kind: "List", items };
    return fleetPrinted(result, output.kind === "json" ? formatJson(doc) : formatYaml(doc), warnings);
  }
  if (output.kind !== "human") throw new UsageError("--contexts and --all-contexts print a table, -o wide, -o json or -o yaml", "status");
  const contextOf = new Map<object, string>();
  const merged = { schemas: [] as Parsed<PtahSchema>[], migrations: [] as Parsed<PtahMigration>[], approvals: [] as Parsed<PtahSchemaApproval>[] };
  for (const a of result.answers) {
    const { schemas, migrations, approvals } = a.value;
    for (const i of [...schemas.items, ...migrations.items, ...(approvals.value?.items ?? [])]) contextOf.set(i.object, a.context);
    merged.schemas.push(...schemas.items);
    merged.migrations.push(...migrations.items);
    merged.approvals.push(...(approvals.value?.items ?? []));
  }
  if (merged.schemas.length === 0 && merged.migrations.length === 0) return fleetPrinted(result, "", warnings + noResourcesInFleet(result));
  if (options.stuck) {
    const kept = onlyStuck({ schemas: merged.schemas.map((i) => i.object), migrations: merged.migrations.map((i) => i.object), now: ctx.now });
    if (kept.schemas.length === 0 && kept.migrations.length === 0) return fleetPrinted(result, "", `${warnings}Nothing is stuck in the contexts read.\n`);
  }
  const lists = {
    schemas: { items: merged.schemas, resourceVersion: "", notShown: [] },
    migrations: { items: merged.migrations, resourceVersion: "", notShown: [] },
    approvals: { value: { items: merged.approvals, resourceVersion: "", notShown: [] } },
  };
  const input = { ...listInput(options, output, ctx, lists), contexts: { order: result.answers.map((a) => a.context), of: contextOf } };
  return fleetPrinted(result, renderStatusList(input), warnings);
}

export const statusCommand: CommandBody<StatusOptions> = {
  positionals: [{ ...SCHEMA, optional: true }],
  outputs: VIEW_OUTPUTS,
  examples: [
    { comment: "Schemas and migrations in the current namespace", command: "kubectl ptah status" },
    { comment: "Everything, in every namespace, with digests, drift and last apply", command: "kubectl ptah status -A -o wide" },
    { comment: "One schema: conditions, current plan, approvals, last apply and the next command", command: "kubectl ptah status storefront -n app" },
    {
      comment: "The phase and fingerprint, as the seed's jsonpath line prints them",
      command: 'kubectl ptah status storefront -o jsonpath=\'{.status.phase}{"\\n"}{.status.plan.fingerprint}{"\\n"}\'',
    },
    {
      comment: "Newest first is the last line; your own columns",
      command: "kubectl ptah status --sort-by=.metadata.creationTimestamp -o custom-columns=NAME:.metadata.name,PHASE:.status.phase",
    },
    { comment: "Every schema and migration in every cluster of the kubeconfig, one CONTEXT column", command: "kubectl ptah status -A --all-contexts" },
    {
      comment: "Only what stopped converging (overdue, stalled, lock release owed, unresolved run, outcome unknown), each with why and the next command",
      command: "kubectl ptah status -A --stuck",
    },
  ],
  flags: [
    { name: "watch", alias: "w", type: "boolean", describe: "Keep watching: redraw on a terminal, one record per change otherwise" },
    {
      name: "stuck",
      type: "boolean",
      describe:
        "Only the schemas and migrations that stopped converging (overdue, stalled, lock release owed, unresolved run, outcome unknown), with a STUCK column and each one's next command",
    },
    ...REPORT_FLAGS,
    ...PRINT_FLAGS,
    ...FLEET_FLAGS,
  ],
  permissions: [
    { form: "status", argv: ["status"], rules: ptah("list", "ptahschemas", "ptahmigrations", "ptahschemaapprovals") },
    {
      form: "status SCHEMA",
      argv: ["status", "storefront"],
      rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaapprovals")],
      note: `${REALM_READS}; ${APPROVAL_POLICIES}`,
    },
    ...REPORT_PERMISSIONS,
    {
      form: "status --watch",
      argv: ["status", "--watch"],
      rules: [...ptah("list", "ptahschemas", "ptahmigrations", "ptahschemaapprovals"), ...ptah("watch", "ptahschemas", "ptahmigrations", "ptahschemaapprovals")],
    },
  ],
  toOptions(args) {
    if (args.positionals.length > 1) throw new UsageError("name at most one PtahSchema", "status");
    const name = args.positionals[0];
    if (name !== undefined && args.global.allNamespaces) throw new UsageError("a schema name cannot be combined with --all-namespaces", "status");
    if (name !== undefined && args.global.selector) throw new UsageError("a schema name cannot be combined with --selector", "status");
    const output = parseViewOutput(args.global.output, "status");
    const print = toPrintOptions(args.flags, output, "status");
    if (name !== undefined && print.fieldSelector) throw new UsageError("a schema name cannot be combined with --field-selector", "status");
    const watch = args.flags.watch === true;
    // A table whose columns are the user's has no change-record form; kubectl's header-then-rows is not offered.
    if (watch && (output.kind === "custom-columns" || output.kind === "custom-columns-file")) {
      throw new UsageError("--watch cannot be combined with -o custom-columns; use -o name, -o yaml or -o jsonpath=TEMPLATE", "status");
    }
    if (watch && (print.sortBy !== undefined || print.labelColumns.length > 0 || print.showLabels)) {
      throw new UsageError("--watch cannot be combined with --sort-by, -L or --show-labels", "status");
    }
    const fleet = parseFleet(args.flags, args.global, "status");
    if (fleet && name !== undefined) throw new UsageError("a schema name cannot be combined with --contexts or --all-contexts; read one context's schema with --context", "status");
    if (fleet && watch) throw new UsageError("--watch cannot be combined with --contexts or --all-contexts", "status");
    const stuck = args.flags.stuck === true;
    if (stuck && name !== undefined) throw new UsageError("--stuck filters the list; for one schema run: kubectl ptah status SCHEMA", "status");
    if (stuck && watch) throw new UsageError("--stuck cannot be combined with --watch", "status");
    if (fleet && !(output.kind === "human" || output.kind === "json" || output.kind === "yaml")) {
      throw new UsageError("--contexts and --all-contexts print a table, -o wide, -o json or -o yaml", "status");
    }
    const report = args.flags.report === true;
    const withSql = args.flags["with-sql"] === true;
    if (withSql && !report) throw new UsageError("--with-sql adds the plan's SQL to a report: kubectl ptah status SCHEMA --report --with-sql", "status");
    if (report && (name === undefined || watch || stuck || fleet || args.global.output !== undefined)) {
      throw new UsageError("--report prints one schema as Markdown: kubectl ptah status SCHEMA --report (without -o, --watch, --stuck or --contexts)", "status");
    }
    return { name, output, watch, print, ...(fleet ? { fleet } : {}), ...(stuck ? { stuck } : {}), ...(report ? { report } : {}), ...(withSql ? { withSql } : {}) };
  },
  async run(options, ctx) {
    const output = resolveViewOutput(options.output, ctx);
    if (options.fleet) return runFleet(options, options.fleet, output, ctx);
    const connection = await ctx.connect();
    if (options.watch) return watchStatus(options, ctx, connection);
    if (options.report && options.name !== undefined) return runReport(options.name, options.withSql === true, ctx, connection);
    if (options.name !== undefined) return runDetail(output, options.name, ctx, connection);
    return runList(options, output, ctx, connection);
  },
};
