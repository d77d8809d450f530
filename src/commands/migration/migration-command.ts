// `kubectl ptah migration <name>`: upstream's migration view. Reads: get
// PtahMigration, then get the PtahMigrationPlan it names. Never prints SQL or rows.
import { NotFoundError, PtahError, ReadError, UsageError } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahMigration, PtahMigrationPlan } from "../../model/kinds.ts";
import { buildMigrationView } from "./migration-view.ts";
import { renderMigrationJson, renderMigrationText } from "./migration-text.ts";
import { noSuchMigration } from "../shared/read.ts";
import { MIGRATION } from "../shared/candidates.ts";
import type { CommandBody } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export interface MigrationOptions {
  readonly name: string;
  readonly output: "text" | "json";
}

function readFailure(what: string, err: unknown): PtahError {
  const message = `${what}: ${err instanceof Error ? err.message : String(err)}`;
  return err instanceof ReadError ? new ReadError(message, err.httpStatus) : new ReadError(message);
}

/** The migration, and its current plan unless that plan is gone (a gone plan is simply omitted). */
export async function loadMigration(reader: ClusterReader, namespace: string, name: string): Promise<{ migration: PtahMigration; plan: PtahMigrationPlan | undefined }> {
  let migration: PtahMigration;
  try {
    migration = (await reader.get("PtahMigration", namespace, name)).object;
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError(noSuchMigration(namespace, name));
    throw readFailure("read the migration", err);
  }
  const planName = migration.status.plan?.name;
  if (!planName) return { migration, plan: undefined };
  try {
    return { migration, plan: (await reader.get("PtahMigrationPlan", namespace, planName)).object };
  } catch (err) {
    if (err instanceof NotFoundError) return { migration, plan: undefined };
    throw readFailure("read the migration plan", err);
  }
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["text", "json"] as const;
export const migrationCommand: CommandBody<MigrationOptions> = {
  positionals: [MIGRATION],
  outputs: OUTPUTS,
  examples: [
    { comment: "History, pending migrations and the last run", command: "kubectl ptah migration storefront-migrations -n app" },
    { comment: "The same as JSON, for scripts", command: "kubectl ptah migration storefront-migrations -o json" },
  ],
  flags: [],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [{ form: "migration MIGRATION", argv: ["migration", "billing"], rules: ptah("get", "ptahmigrations", "ptahmigrationplans") }],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahMigration", "migration");
    const output = declaredOutput(args, OUTPUTS, "migration") ?? "text";
    if (args.global.allNamespaces) throw new UsageError("a migration is read from one namespace; drop --all-namespaces", "migration");
    return { name: args.positionals[0]!, output };
  },
  async run(options, ctx) {
    const { reader, namespace } = await ctx.connect();
    const { migration, plan } = await loadMigration(reader, namespace, options.name);
    const view = buildMigrationView(migration, namespace, plan);
    return { kind: "printed", stdout: options.output === "json" ? renderMigrationJson(view) : renderMigrationText(view) };
  },
};
