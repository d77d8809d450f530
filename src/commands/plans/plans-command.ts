// `kubectl ptah plans [SCHEMA | migration MIGRATION] [-A] [--unpinned] [-o wide|json|yaml|name]`: every
// stored PtahSchemaPlan and PtahMigrationPlan, and every reference that pins it (the operator
// deletes no plan; src/plan/pins.ts). It deletes nothing: `-o name` is for a person's own
// `kubectl delete`. Reads: LIST both plan kinds, both owner kinds and both approval kinds; with
// -o wide, each listed schema plan and its chunks too (plans-wide.ts).
import { NotFoundError, ReadError } from "../../errors.ts";
import { danglingPins, storedPlans, type DanglingPin, type StoredPlan } from "../../plan/pins.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { danglingLines, plansDocument, renderDangling, renderPlanNames, renderPlansTable } from "./plans-text.ts";
import { parseOptionalTarget, type OptionalTarget } from "../shared/arguments.ts";
import { noResources, parseFixedOutput } from "../shared/output.ts";
import { readAll } from "../shared/read.ts";
import { notShownWarnings } from "../shared/tolerance.ts";
import { OPTIONAL_SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import type { CommandBody, Connection } from "../command-types.ts";
import type { KindName, ObjectOf } from "../../model/parse.ts";
import type { ListResult } from "../../kube/types.ts";
import { ptah } from "../shared/permissions.ts";

export interface PlansOptions {
  readonly target: OptionalTarget;
  readonly output: "table" | "wide" | "json" | "yaml" | "name";
  readonly unpinned: boolean;
}

/**
 * What pins a plan is read strictly: an object that does not fit the model fails the command
 * (exit 1) rather than being left out, because a reference left out would offer a pinned plan
 * as deletable. Only the plans themselves are listed tolerantly.
 */
async function pinSources(c: Connection, namespace: string | undefined) {
  // Every list is tolerant (it hands over what does not fit beside what does): a pin source
  // that does not fit refuses here, naming the object.
  const strict = <K extends KindName>(kind: K): Promise<ObjectOf<K>[]> =>
    c.reader.list(kind, { namespace, keepRaw: false }).then((l) => {
      const first = l.notShown[0];
      if (first) throw new ReadError(first.problem);
      return l.items.map((i) => i.object);
    });
  const [schemas, migrations, schemaApprovals, migrationApprovals] = await readAll([
    strict("PtahSchema"),
    strict("PtahMigration"),
    strict("PtahSchemaApproval"),
    strict("PtahMigrationApproval"),
  ]);
  return { schemas, migrations, schemaApprovals, migrationApprovals };
}

/** The one `error:` line: how many, and with -o name (nothing else shows them) each one. */
function danglingError(dangling: readonly DanglingPin[], spellOut: boolean): string {
  const n = dangling.length;
  const head = `error: ${n} dangling pin${n === 1 ? "" : "s"}: a reference names a plan that is missing, replaced or being deleted`;
  return spellOut ? `${head}: ${danglingLines(dangling).join("; ")}\n` : `${head} (listed under "Dangling pins")\n`;
}

function danglingInTarget(t: OptionalTarget): (d: DanglingPin) => boolean {
  if (t.kind === "schema") return (d) => d.family === "PtahSchemaPlan" && d.pin.owner === t.name;
  if (t.kind === "migration") return (d) => d.family === "PtahMigrationPlan" && d.pin.owner === t.name;
  return () => true;
}

function inTarget(t: OptionalTarget): (p: StoredPlan) => boolean {
  if (t.kind === "schema") return (p) => p.kind === "PtahSchemaPlan" && p.owner === t.name;
  if (t.kind === "migration") return (p) => p.kind === "PtahMigrationPlan" && p.owner === t.name;
  return () => true;
}

/** The -o formats; wide reads and verifies every listed schema plan (plans-wide.ts). */
const OUTPUTS = ["wide", "json", "yaml", "name"] as const;

export const plansCommand: CommandBody<PlansOptions> = {
  positionals: OPTIONAL_SCHEMA_OR_MIGRATION,
  outputs: OUTPUTS,
  examples: [
    { comment: "Every stored plan in the namespace, and what pins each one", command: "kubectl ptah plans -n app" },
    { comment: "The plans of one schema", command: "kubectl ptah plans storefront -n app" },
    { comment: "Plans nothing references, everywhere", command: "kubectl ptah plans -A --unpinned" },
    { comment: "Which stored plans carry row values (reads and verifies each plan)", command: "kubectl ptah plans -n app -o wide" },
    {
      comment: "Delete what nothing pins one plan at a time, each waiting for its chunks to go (the plugin deletes nothing)",
      command: "kubectl ptah plans storefront -n app --unpinned -o name | xargs -r -n1 kubectl delete -n app --cascade=foreground --wait=true",
    },
  ],
  flags: [{ name: "unpinned", type: "boolean", describe: "Only the plans no schema, migration, approval or unresolved-run annotation references" }],
  permissions: [
    {
      form: "plans",
      argv: ["plans"],
      rules: ptah("list", "ptahschemaplans", "ptahmigrationplans", "ptahschemas", "ptahmigrations", "ptahschemaapprovals", "ptahmigrationapprovals"),
    },
    {
      form: "plans -o wide",
      argv: ["plans", "-o", "wide"],
      rules: [
        ...ptah("list", "ptahschemaplans", "ptahmigrationplans", "ptahschemas", "ptahmigrations", "ptahschemaapprovals", "ptahmigrationapprovals"),
        ...ptah("get", "ptahschemaplans", "ptahschemaplanchunks"),
      ],
      note: "each listed schema plan and its chunks are read and verified (older installs: get `configmaps`)",
    },
  ],
  toOptions(args) {
    const output = parseFixedOutput(args, OUTPUTS, "plans");
    return { target: parseOptionalTarget(args.positionals, args.global.allNamespaces, "plans"), output, unpinned: args.flags.unpinned === true };
  },
  async run(options, ctx) {
    const c = await ctx.connect();
    const namespace = ctx.global.allNamespaces ? undefined : c.namespace;
    const t = options.target;
    const [schemaPlans, migrationPlans, sources]: [ListResult<ObjectOf<"PtahSchemaPlan">>, ListResult<ObjectOf<"PtahMigrationPlan">>, Awaited<ReturnType<typeof pinSources>>] =
      await Promise.all([
        c.reader.list("PtahSchemaPlan", { namespace, keepRaw: false }),
        c.reader.list("PtahMigrationPlan", { namespace, keepRaw: false }),
        pinSources(c, namespace),
      ]);
    if (t.kind === "schema" && !sources.schemas.some((s) => s.metadata.name === t.name)) throw new NotFoundError(`no such schema: ${c.namespace}/${t.name}`);
    if (t.kind === "migration" && !sources.migrations.some((m) => m.metadata.name === t.name)) throw new NotFoundError(`no PtahMigration by that name: ${c.namespace}/${t.name}`);
    const all = storedPlans(
      schemaPlans.items.map((i) => i.object),
      migrationPlans.items.map((i) => i.object),
      sources,
    );
    const plans = all.filter(inTarget(t)).filter((p) => !options.unpinned || p.pinnedBy.length === 0);
    const dangling = danglingPins(
      schemaPlans.items.map((i) => i.object),
      migrationPlans.items.map((i) => i.object),
      sources,
    ).filter(danglingInTarget(t));
    const warnings = notShownWarnings([schemaPlans, migrationPlans]);
    // A dangling pin is a finding, as a failed --verify check is: the view is printed, then one
    // `error:` line on stderr, alone as every refusal's is, and exit status 1.
    const failed = dangling.length > 0 ? { exitStatus: 1, stderr: danglingError(dangling, options.output === "name") } : { stderr: warnings };
    const printed = (stdout: string, more = "") => ({
      kind: "printed" as const,
      stdout,
      // The error line stays alone; otherwise the warnings, then those of -o wide's reads.
      ...(failed.stderr || more ? { stderr: "exitStatus" in failed ? failed.stderr : failed.stderr + more } : {}),
      ...("exitStatus" in failed ? { exitStatus: 1 } : {}),
    });
    if (options.output === "json") return printed(formatJson(plansDocument(plans, dangling)));
    if (options.output === "yaml") return printed(formatYaml(plansDocument(plans, dangling)));
    if (plans.length === 0 && dangling.length === 0) return { kind: "printed", stdout: "", stderr: warnings + noResources(namespace) };
    // -o name feeds a delete: its stdout stays names only; the error line names the findings.
    if (options.output === "name") return printed(renderPlanNames(plans));
    // Loaded only with -o wide: plan loading and verification.
    const wide = options.output === "wide" ? await (await import("./plans-wide.ts")).rowValueCells(c.reader, plans, sources.schemas) : undefined;
    const view = { noHeaders: ctx.global.noHeaders, allNamespaces: ctx.global.allNamespaces, ...(wide ? { rowValues: wide.cells } : {}) };
    const table = plans.length > 0 ? renderPlansTable(plans, view) : "";
    return printed(dangling.length > 0 ? `${table}${table ? "\n" : ""}${renderDangling(dangling)}` : table, wide?.warnings);
  },
};
