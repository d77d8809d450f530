// `kubectl ptah plans [SCHEMA | migration MIGRATION] [-A] [--unpinned] [-o json|yaml|name]`: every
// stored PtahSchemaPlan and PtahMigrationPlan, and every reference that pins it (the operator
// deletes no plan; src/plan/pins.ts). It deletes nothing: `-o name` is for a person's own
// `kubectl delete`. Reads: LIST both plan kinds, both owner kinds and both approval kinds.
import { NotFoundError, ReadError } from "../../errors.ts";
import { danglingPins, storedPlans, type DanglingPin, type StoredPlan } from "../../plan/pins.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { danglingLines, plansDocument, renderDangling, renderPlanNames, renderPlansTable } from "./plans-text.ts";
import { parseOptionalTarget, type OptionalTarget } from "../shared/arguments.ts";
import { noResources, parseFixedOutput } from "../shared/output.ts";
import { readAll } from "../shared/read.ts";
import { rejectedWarnings } from "../shared/tolerance.ts";
import { SCHEMA_OR_MIGRATION } from "../shared/candidates.ts";
import type { CommandBody, Connection } from "../command-types.ts";
import type { KindName, ObjectOf } from "../../model/parse.ts";
import type { ListResult } from "../../kube/types.ts";
import { ptah } from "../shared/permissions.ts";

export interface PlansOptions {
  readonly target: OptionalTarget;
  readonly output: "table" | "json" | "yaml" | "name";
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
      const misfit = l.rejected[0];
      if (misfit) throw new ReadError(misfit.problem);
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

export const plansCommand: CommandBody<PlansOptions> = {
  positionals: SCHEMA_OR_MIGRATION,
  outputs: ["json", "yaml", "name"],
  examples: [
    { comment: "Every stored plan in the namespace, and what pins each one", command: "kubectl ptah plans -n app" },
    { comment: "The plans of one schema", command: "kubectl ptah plans storefront -n app" },
    { comment: "Plans nothing references, everywhere", command: "kubectl ptah plans -A --unpinned" },
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
  ],
  toOptions(args) {
    const output = parseFixedOutput(args.global.output, ["json", "yaml", "name"] as const, "plans");
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
    const warnings = rejectedWarnings([schemaPlans, migrationPlans]);
    // A dangling pin is a finding, as a failed check is: the output is printed, the exit status is 1.
    const failed = dangling.length > 0 ? { exitStatus: 1 } : {};
    const withWarnings = (stdout: string, stderr = "") => ({ kind: "printed" as const, stdout, ...(warnings + stderr ? { stderr: warnings + stderr } : {}), ...failed });
    if (options.output === "json") return withWarnings(formatJson(plansDocument(plans, dangling)));
    if (options.output === "yaml") return withWarnings(formatYaml(plansDocument(plans, dangling)));
    // -o name feeds a delete: its stdout stays names only, the findings go to stderr.
    const note = danglingLines(dangling)
      .map((l) => `Warning: dangling pin: ${l}\n`)
      .join("");
    if (plans.length === 0)
      return dangling.length > 0 && options.output !== "name" ? withWarnings(renderDangling(dangling), noResources(namespace)) : withWarnings("", note + noResources(namespace));
    if (options.output === "name") return withWarnings(renderPlanNames(plans), note);
    const table = renderPlansTable(plans, { noHeaders: ctx.global.noHeaders, allNamespaces: ctx.global.allNamespaces });
    return withWarnings(dangling.length > 0 ? `${table}\n${renderDangling(dangling)}` : table);
  },
};
