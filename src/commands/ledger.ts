// `kubectl ptah ledger [SCHEMA | migration NAME] [-A] [-l SELECTOR] [--relative] [-o json|yaml|csv]`:
// one row per approval ever bound to the object (and per run acknowledgment of a migration), from
// durable fields only. Reads: GET the named owner (or LIST the owners) and LIST each approval kind.
import { migrationLedger, schemaLedger, sortLedger, type LedgerEntry } from "../approval/ledger.ts";
import { bindsSchema } from "../approval/state.ts";
import { UsageError } from "../errors.ts";
import type { KindName, ObjectOf } from "../model/parse.ts";
import { formatJson, formatYaml } from "../render/formats.ts";
import { ledgerDocument, renderLedgerCsv, renderLedgerTable } from "./render/ledger.ts";
import { parseOptionalTarget, type OptionalTarget } from "./options/arguments.ts";
import { noResources } from "./options/output.ts";
import { getOrNotFound, noSuchMigration, noSuchSchema } from "./reads/read.ts";
import { SCHEMA_OR_MIGRATION } from "./options/candidates.ts";
import type { Command, Connection } from "./types.ts";
import { ptah } from "../views/permissions.ts";

export interface LedgerOptions {
  readonly target: OptionalTarget;
  readonly output: "table" | "json" | "yaml" | "csv";
  readonly relative: boolean;
}

async function objects<K extends KindName>(c: Connection, kind: K, namespace: string | undefined, labelSelector?: string): Promise<ObjectOf<K>[]> {
  const listed = await c.reader.list(kind, { namespace, labelSelector, keepRaw: false });
  return listed.items.map((i) => i.object);
}

async function loadLedger(t: OptionalTarget, c: Connection, namespace: string | undefined, selector: string | undefined): Promise<LedgerEntry[]> {
  if (t.kind === "schema") {
    const [schema, approvals] = await Promise.all([
      getOrNotFound(c.reader, "PtahSchema", c.namespace, t.name, noSuchSchema(c.namespace, t.name)),
      objects(c, "PtahSchemaApproval", c.namespace, selector),
    ]);
    return schemaLedger(
      approvals.filter((a) => bindsSchema(a, schema.object)),
      [schema.object],
    );
  }
  if (t.kind === "migration") {
    const [migration, approvals, acks] = await Promise.all([
      getOrNotFound(c.reader, "PtahMigration", c.namespace, t.name, noSuchMigration(c.namespace, t.name)),
      objects(c, "PtahMigrationApproval", c.namespace, selector),
      objects(c, "PtahMigrationRunAcknowledgment", c.namespace, selector),
    ]);
    const mine = <T extends { spec: { migrationRef?: { name?: string } } }>(xs: T[]): T[] => xs.filter((x) => x.spec.migrationRef?.name === t.name);
    return migrationLedger(mine(approvals), mine(acks), [migration.object]);
  }
  const [schemas, sApprovals, migrations, mApprovals, acks] = await Promise.all([
    objects(c, "PtahSchema", namespace),
    objects(c, "PtahSchemaApproval", namespace, selector),
    objects(c, "PtahMigration", namespace),
    objects(c, "PtahMigrationApproval", namespace, selector),
    objects(c, "PtahMigrationRunAcknowledgment", namespace, selector),
  ]);
  return [...schemaLedger(sApprovals, schemas), ...migrationLedger(mApprovals, acks, migrations)];
}

export const ledgerCommand: Command<LedgerOptions> = {
  name: "ledger",
  summary: "Who approved which exact plan, when, and whether it was consumed, applied or retired",
  usage: "kubectl ptah ledger [SCHEMA | migration MIGRATION] [-n NAMESPACE | -A] [-l SELECTOR] [--relative] [-o json|yaml|csv]",
  positionals: SCHEMA_OR_MIGRATION,
  outputs: ["json", "yaml", "csv"],
  examples: [
    { comment: "Every approval of one schema, oldest first, with absolute times", command: "kubectl ptah ledger storefront -n app" },
    { comment: "A migration's approvals and run acknowledgments", command: "kubectl ptah ledger migration billing" },
    { comment: "The audit record of every namespace, for a spreadsheet", command: "kubectl ptah ledger -A -o csv > approvals.csv" },
    { comment: "Ages instead of timestamps", command: "kubectl ptah ledger storefront --relative" },
  ],
  flags: [{ name: "relative", type: "boolean", describe: "Print ages instead of RFC 3339 timestamps" }],
  permissions: [
    { form: "ledger SCHEMA", argv: ["ledger", "storefront"], rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaapprovals")] },
    {
      form: "ledger migration MIGRATION",
      argv: ["ledger", "migration", "billing"],
      rules: [...ptah("get", "ptahmigrations"), ...ptah("list", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments")],
    },
    { form: "ledger", argv: ["ledger"], rules: ptah("list", "ptahschemas", "ptahschemaapprovals", "ptahmigrations", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments") },
  ],
  toOptions(args) {
    const o = args.global.output;
    if (o !== undefined && o !== "" && o !== "text" && o !== "json" && o !== "yaml" && o !== "csv")
      throw new UsageError(`unknown output format "${o}"; it is one of [json yaml csv]`, "ledger");
    const output = o === "json" || o === "yaml" || o === "csv" ? o : "table";
    return { target: parseOptionalTarget(args.positionals, args.global.allNamespaces, "ledger"), output, relative: args.flags.relative === true };
  },
  async run(options, ctx) {
    const c = await ctx.connect();
    const namespace = ctx.global.allNamespaces ? undefined : c.namespace;
    const entries = sortLedger(await loadLedger(options.target, c, namespace, ctx.global.selector));
    if (options.output === "json") return { kind: "printed", stdout: formatJson(ledgerDocument(entries)) };
    if (options.output === "yaml") return { kind: "printed", stdout: formatYaml(ledgerDocument(entries)) };
    if (entries.length === 0) return { kind: "printed", stdout: "", stderr: noResources(namespace) };
    if (options.output === "csv") return { kind: "printed", stdout: renderLedgerCsv(entries) };
    const g = ctx.global;
    return {
      kind: "printed",
      stdout: renderLedgerTable(entries, { now: ctx.now, relative: options.relative, color: g.color, noHeaders: g.noHeaders, allNamespaces: g.allNamespaces }),
    };
  },
};
