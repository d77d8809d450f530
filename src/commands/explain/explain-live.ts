// The live half of `explain`: when the words name no topic, read the object they name (a
// schema, `approval NAME`, `migration NAME`) and what it references, and diagnose it.
// A single word that is neither a topic nor a readable schema yields undefined, so explain
// can suggest the nearest topic instead (e.g. with no cluster at all).
import { NotFoundError, ReadError } from "../../errors.ts";
import { isDnsSubdomain } from "../../model/names.ts";
import type { KubeEvent, PtahMigration, PtahMigrationApproval, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { diagnoseMigration, diagnoseSchema, diagnoseSchemaApproval } from "./explain-diagnose.ts";
import { namespaceFlag } from "../shared/output.ts";
import { getOptional, noSuchMigration, readAll } from "../shared/read.ts";
import type { Printed, Connection, RunContext } from "../command-types.ts";
import type { ListResult } from "../../kube/types.ts";
import { notShownWarnings } from "../shared/tolerance.ts";
import { appendRealm } from "../shared/realm-holders.ts";

/** Lists beside the explained object: an item that does not fit is left out with its warning. */
function warned(lists: readonly Pick<ListResult<unknown>, "notShown">[]): { stderr?: string } {
  const stderr = notShownWarnings(lists);
  return stderr ? { stderr } : {};
}

async function explainApproval(c: Connection, ctx: RunContext, name: string): Promise<Printed> {
  const approval = await getOptional(c.reader, "PtahSchemaApproval", c.namespace, name);
  if (!approval) throw new NotFoundError(`no such approval: ${c.namespace}/${name}`);
  const a = approval.object as PtahSchemaApproval;
  const [schema, events] = await readAll([
    a.spec.schemaRef?.name ? getOptional(c.reader, "PtahSchema", c.namespace, a.spec.schemaRef.name) : Promise.resolve(undefined),
    c.reader.list("Event", { namespace: c.namespace, fieldSelector: `involvedObject.name=${name}` }).catch((err: unknown) => {
      // Events are diagnostic only: a reader without access still gets the diagnosis.
      if (err instanceof ReadError && err.httpStatus === 403) return { items: [], resourceVersion: "", notShown: [] };
      throw err;
    }),
  ]);
  return {
    kind: "printed",
    stdout: asOutput(
      ctx,
      "PtahSchemaApproval",
      c.namespace,
      name,
      diagnoseSchemaApproval({
        approval: a,
        schema: schema?.object as PtahSchema | undefined,
        events: events.items.map((e) => e.object as KubeEvent),
        now: ctx.now,
        nsFlag: namespaceFlag(ctx.global, c.namespace),
      }),
    ),
    ...warned([events]),
  };
}

async function explainMigration(c: Connection, ctx: RunContext, name: string): Promise<Printed> {
  const [migration, approvals] = await readAll([getOptional(c.reader, "PtahMigration", c.namespace, name), c.reader.list("PtahMigrationApproval", { namespace: c.namespace })]);
  if (!migration) throw new NotFoundError(noSuchMigration(c.namespace, name));
  const m = migration.object as PtahMigration;
  return {
    kind: "printed",
    stdout: asOutput(
      ctx,
      "PtahMigration",
      c.namespace,
      name,
      await appendRealm(
        c,
        "PtahMigration",
        m,
        diagnoseMigration({
          migration: m,
          approvals: approvals.items.map((x) => x.object as PtahMigrationApproval),
          now: ctx.now,
          nsFlag: namespaceFlag(ctx.global, c.namespace),
        }),
      ),
    ),
    ...warned([approvals]),
  };
}

export async function diagnoseLive(words: readonly string[], ctx: RunContext): Promise<Printed | undefined> {
  const [first, second] = words;
  if (words.length === 2 && first === "approval" && second) return explainApproval(await ctx.connect(), ctx, second);
  if (words.length === 2 && first === "migration" && second) return explainMigration(await ctx.connect(), ctx, second);
  // `explain schema NAME` names the schema explicitly; a bare `explain NAME` tries it too.
  const schemaName = words.length === 2 && first === "schema" ? second : words.length === 1 ? first : undefined;
  if (!schemaName || !isDnsSubdomain(schemaName)) return undefined;
  let c: Connection;
  try {
    c = await ctx.connect();
  } catch (err) {
    // No cluster configured at all: the word is a (mistyped) topic. A configured cluster that
    // cannot be reached is reported as what it is, by explain with the topic hint.
    if (err instanceof ReadError && !/^no kubeconfig found/u.test(err.message)) throw err;
    return undefined;
  }
  const [schema, approvals] = await readAll([getOptional(c.reader, "PtahSchema", c.namespace, schemaName), c.reader.list("PtahSchemaApproval", { namespace: c.namespace })]);
  if (!schema) return undefined;
  return {
    kind: "printed",
    stdout: asOutput(
      ctx,
      "PtahSchema",
      c.namespace,
      schemaName,
      await appendRealm(
        c,
        "PtahSchema",
        schema.object as PtahSchema,
        diagnoseSchema({
          schema: schema.object as PtahSchema,
          approvals: approvals.items.map((x) => x.object as PtahSchemaApproval),
          now: ctx.now,
          nsFlag: namespaceFlag(ctx.global, c.namespace),
        }),
      ),
    ),
    ...warned([approvals]),
  };
}

/**
 * The diagnosis in explain's -o: text as it is; `json` a document naming the object with the
 * diagnosis's lines (a script or an MCP client gets the same words a person reads); `name` the
 * object as kubectl names it.
 */
function asOutput(ctx: RunContext, kind: "PtahSchema" | "PtahSchemaApproval" | "PtahMigration", namespace: string, name: string, text: string): string {
  const output = ctx.global.output;
  if (output === "json") return `${JSON.stringify({ kind: "Diagnosis", object: { kind, namespace, name }, lines: text.trimEnd().split("\n") }, null, 2)}\n`;
  if (output === "name") return `${kind.toLowerCase()}.operator.ptah.run/${name}\n`;
  return text;
}
