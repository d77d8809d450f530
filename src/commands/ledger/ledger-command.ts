// `kubectl ptah ledger [SCHEMA | migration NAME] [-A] [-l SELECTOR] [--relative] [-o json|yaml|csv]`:
// one row per approval ever bound to the object (and per run acknowledgment of a migration), from
// durable fields only. Reads: GET the named owner (or LIST the owners) and LIST each approval kind;
// with --contexts/--all-contexts, the same in each context (shared/fleet.ts), a CONTEXT column first.
import { migrationLedger, schemaLedger, sortLedger, type LedgerEntry } from "../../approval/ledger.ts";
import { bindsSchema } from "../../approval/state.ts";
import type { KindName, ObjectOf } from "../../model/parse.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { ledgerDocument, renderLedgerCsv, renderLedgerTable } from "../shared/ledger-text.ts";
import { parseOptionalTarget, type OptionalTarget } from "../shared/arguments.ts";
import { noResources, parseFixedOutput } from "../shared/output.ts";
import { FLEET_FLAGS, contextWarnings, fleetPrinted, noResourcesInFleet, parseFleet, readFleet, type FleetChoice } from "../shared/fleet.ts";
import { getOrNotFound, noSuchMigration, noSuchSchema, readAll } from "../shared/read.ts";
import { readPolicies } from "../shared/policy-readback.ts";
import { withPolicies } from "./ledger-policy.ts";
import { notShownWarnings } from "../shared/tolerance.ts";
import { OPTIONAL_SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import type { CommandBody, Connection, Printed, RunContext } from "../command-types.ts";
import { APPROVAL_POLICIES, ptah } from "../shared/permissions.ts";
import { sanitize } from "../../errors.ts";
import { settlementLine, settlementOf } from "../shared/run-audit.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";

/** Below the table: each migration's settled run, however it was settled (a history read leaves no acknowledgment row). */
function settledLines(migrations: readonly PtahMigration[]): string[] {
  return migrations.flatMap((m) => {
    const s = settlementOf(m);
    return s ? [`Settled: migration/${sanitize(m.metadata.name)}${m.metadata.namespace ? ` -n ${sanitize(m.metadata.namespace)}` : ""}: ${settlementLine(s)}\n`] : [];
  });
}

export interface LedgerOptions {
  readonly target: OptionalTarget;
  readonly output: "table" | "json" | "yaml" | "csv";
  readonly relative: boolean;
  /** --contexts / --all-contexts (shared/fleet.ts); undefined: the one current context. */
  readonly fleet?: FleetChoice;
}

/** The objects of a list that fit the model; the warning line of each that does not goes to `warnings`. */
async function objects<K extends KindName>(c: Connection, kind: K, namespace: string | undefined, warnings: string[], labelSelector?: string): Promise<ObjectOf<K>[]> {
  const listed = await c.reader.list(kind, { namespace, labelSelector, keepRaw: false });
  warnings.push(notShownWarnings([listed]));
  return listed.items.map((i) => i.object);
}

async function loadLedger(
  t: OptionalTarget,
  c: Connection,
  namespace: string | undefined,
  selector: string | undefined,
  w: string[],
  settled: string[],
  schemasRead: PtahSchema[],
): Promise<LedgerEntry[]> {
  if (t.kind === "schema") {
    const [schema, approvals] = await readAll([
      getOrNotFound(c.reader, "PtahSchema", c.namespace, t.name, noSuchSchema(c.namespace, t.name)),
      objects(c, "PtahSchemaApproval", c.namespace, w, selector),
    ]);
    schemasRead.push(schema.object);
    return schemaLedger(
      approvals.filter((a) => bindsSchema(a, schema.object)),
      [schema.object],
    );
  }
  if (t.kind === "migration") {
    const [migration, approvals, acks] = await readAll([
      getOrNotFound(c.reader, "PtahMigration", c.namespace, t.name, noSuchMigration(c.namespace, t.name)),
      objects(c, "PtahMigrationApproval", c.namespace, w, selector),
      objects(c, "PtahMigrationRunAcknowledgment", c.namespace, w, selector),
    ]);
    const mine = <T extends { spec: { migrationRef?: { name?: string } } }>(xs: T[]): T[] => xs.filter((x) => x.spec.migrationRef?.name === t.name);
    settled.push(...settledLines([migration.object]));
    return migrationLedger(mine(approvals), mine(acks), [migration.object]);
  }
  const [schemas, sApprovals, migrations, mApprovals, acks] = await readAll([
    objects(c, "PtahSchema", namespace, w),
    objects(c, "PtahSchemaApproval", namespace, w, selector),
    objects(c, "PtahMigration", namespace, w),
    objects(c, "PtahMigrationApproval", namespace, w, selector),
    objects(c, "PtahMigrationRunAcknowledgment", namespace, w, selector),
  ]);
  settled.push(...settledLines(migrations));
  schemasRead.push(...schemas);
  return [...schemaLedger(sApprovals, schemas), ...migrationLedger(mApprovals, acks, migrations)];
}

/** The ledger reads the policies when it has approvals to show. */
const LEDGER_POLICIES = `${APPROVAL_POLICIES} (when it lists an approval)`;

export const ledgerCommand: CommandBody<LedgerOptions> = {
  positionals: OPTIONAL_SCHEMA_OR_MIGRATION,
  outputs: ["json", "yaml", "csv"],
  examples: [
    { comment: "Every approval of one schema, oldest first, with absolute times", command: "kubectl ptah ledger storefront -n app" },
    { comment: "A migration's approvals and run acknowledgments", command: "kubectl ptah ledger migration billing" },
    { comment: "The audit record of every namespace, for a spreadsheet", command: "kubectl ptah ledger -A -o csv > approvals.csv" },
    { comment: "Ages instead of timestamps", command: "kubectl ptah ledger storefront --relative" },
    { comment: "Every approval in every cluster of the kubeconfig, one CONTEXT column", command: "kubectl ptah ledger -A --all-contexts" },
  ],
  flags: [{ name: "relative", type: "boolean", describe: "Print ages instead of RFC 3339 timestamps" }, ...FLEET_FLAGS],
  permissions: [
    { form: "ledger SCHEMA", argv: ["ledger", "storefront"], rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaapprovals")], note: LEDGER_POLICIES },
    {
      form: "ledger migration MIGRATION",
      argv: ["ledger", "migration", "billing"],
      rules: [...ptah("get", "ptahmigrations"), ...ptah("list", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments")],
      note: LEDGER_POLICIES,
    },
    {
      form: "ledger",
      argv: ["ledger"],
      rules: ptah("list", "ptahschemas", "ptahschemaapprovals", "ptahmigrations", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"),
      note: LEDGER_POLICIES,
    },
  ],
  toOptions(args) {
    const output = parseFixedOutput(args, ["json", "yaml", "csv"] as const, "ledger");
    const fleet = parseFleet(args.flags, args.global, "ledger");
    return { target: parseOptionalTarget(args.positionals, args.global.allNamespaces, "ledger"), output, relative: args.flags.relative === true, ...(fleet ? { fleet } : {}) };
  },
  async run(options, ctx) {
    if (options.fleet) return runFleet(options, options.fleet, ctx);
    const { entries, warnings: stderr, namespace, settled } = await readLedger(options.target, ctx);
    // Objects that do not fit the model: one warning each, the ledger of the others (docs/output.md, "Tolerance").
    const warned = stderr ? { stderr } : {};
    if (options.output === "json") return { kind: "printed", stdout: formatJson(ledgerDocument(entries)), ...warned };
    if (options.output === "yaml") return { kind: "printed", stdout: formatYaml(ledgerDocument(entries)), ...warned };
    // A run settled by a history read leaves no row, but it is still the record.
    if (entries.length === 0 && settled.length > 0 && options.output === "table") return { kind: "printed", stdout: settled.join(""), ...warned };
    if (entries.length === 0) return { kind: "printed", stdout: "", stderr: stderr + noResources(namespace) };
    if (options.output === "csv") return { kind: "printed", stdout: renderLedgerCsv(entries), ...warned };
    const g = ctx.global;
    return {
      kind: "printed",
      stdout:
        renderLedgerTable(entries, { now: ctx.now, relative: options.relative, color: g.color, noHeaders: g.noHeaders, allNamespaces: g.allNamespaces }) +
        (settled.length > 0 && !g.noHeaders ? `\n${settled.join("")}` : ""),
      ...warned,
    };
  },
};

/** One context's ledger, oldest first, its warning lines and the namespace read (undefined: every one). */
async function readLedger(target: OptionalTarget, ctx: RunContext): Promise<{ entries: LedgerEntry[]; warnings: string; namespace: string | undefined; settled: string[] }> {
  const c = await ctx.connect();
  const namespace = ctx.global.allNamespaces ? undefined : c.namespace;
  const w: string[] = [];
  const settled: string[] = [];
  const schemas: PtahSchema[] = [];
  const loaded = sortLedger(await loadLedger(target, c, namespace, ctx.global.selector, w, settled, schemas));
  // The policies are read only for a ledger with approvals in it (endorsers, windows).
  const policies = loaded.some((e) => e.kind !== "PtahMigrationRunAcknowledgment") ? withPolicies(loaded, schemas, await readPolicies(c)) : { entries: loaded, warnings: "" };
  return { entries: policies.entries, warnings: w.join("") + policies.warnings, namespace, settled };
}

/** --contexts / --all-contexts: each context's ledger in the order named, a CONTEXT column (a context field, a context column) first. */
async function runFleet(options: LedgerOptions, choice: Exclude<FleetChoice, undefined>, ctx: RunContext): Promise<Printed> {
  const result = await readFleet(ctx, choice, (c) => readLedger(options.target, c));
  const entries = result.answers.flatMap((a) => a.value.entries);
  const contexts = result.answers.flatMap((a) => a.value.entries.map(() => a.context));
  const warnings = contextWarnings(result.answers, (v) => v.warnings);
  if (options.output === "json" || options.output === "yaml") {
    const doc = ledgerDocument(entries, contexts);
    return fleetPrinted(result, options.output === "json" ? formatJson(doc) : formatYaml(doc), warnings);
  }
  if (entries.length === 0) return fleetPrinted(result, "", warnings + noResourcesInFleet(result));
  if (options.output === "csv") return fleetPrinted(result, renderLedgerCsv(entries, contexts), warnings);
  const g = ctx.global;
  const text = renderLedgerTable(entries, { now: ctx.now, relative: options.relative, color: g.color, noHeaders: g.noHeaders, allNamespaces: g.allNamespaces, contexts });
  return fleetPrinted(result, text, warnings);
}
