// `kubectl ptah endorse SCHEMA`: verifies the current plan exactly as `approve` does (its
// preconditions, every chunk and digest, the fingerprint, the last read naming that very plan),
// asks the API server who you are, refuses what the endorsement policy would refuse of you (you
// last wrote the spec; you endorsed already), and prints the one conflict-safe kubectl command that
// appends your username to the plan's endorsement annotation (src/approval/endorsement.ts). It
// never runs it: you do, with your own credentials, so the API server judges and records you.
import { appendEndorser, endorsementKey, endorsersOf } from "../../approval/endorsement.ts";
import { NotFoundError, ReadError, RefusalError, UsageError } from "../../errors.ts";
import { lastSpecWriter } from "../../model/spec-writer.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { CommandBody } from "../command-types.ts";
import { buildSchemaApproval } from "../shared/approval-reads.ts";
import { SCHEMA } from "../shared/candidates.ts";
import { namespaceFlag } from "../shared/output.ts";
import { declaredOutput, MANIFEST_OUTPUTS } from "../shared/output-flag.ts";
import { ptah, WHO_AM_I } from "../shared/permissions.ts";
import { annotateLine, patchBody } from "./endorse-line.ts";

export interface EndorseOptions {
  readonly name: string;
  /** undefined: the kubectl command line; yaml/json: the merge patch. */
  readonly output: "yaml" | "json" | undefined;
}

const NAME = "endorse";

export const endorseCommand: CommandBody<EndorseOptions> = {
  positionals: [SCHEMA],
  outputs: MANIFEST_OUTPUTS,
  examples: [
    { comment: "Read the plan, then endorse exactly that plan as yourself", command: "kubectl ptah plan storefront && kubectl ptah endorse storefront" },
    { comment: "Run the printed command as it is", command: "kubectl ptah endorse storefront | sh" },
    {
      comment: "The same as a merge patch",
      command: "kubectl ptah endorse storefront -o json > e.json && kubectl patch ptahschemas.operator.ptah.run/storefront --type merge --patch-file e.json",
    },
  ],
  flags: [],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [
    {
      form: "endorse SCHEMA",
      argv: ["endorse", "storefront"],
      rules: ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks"),
      note: `${WHO_AM_I.replace(" when the object records a last spec writer", "")}; the line it prints needs \`patch\` on \`ptahschemas\` (rbac/ptah-endorser.yaml), which kubectl sends, never the plugin`,
    },
  ],
  toOptions(args) {
    const name = args.positionals[0];
    if (name === undefined || args.positionals.length !== 1) throw new UsageError("name one schema", NAME);
    return { name, output: declaredOutput(args, MANIFEST_OUTPUTS, NAME) };
  },
  async run(o, ctx) {
    const c = await ctx.connect();
    const ns = c.namespace;
    const nsFlag = namespaceFlag(ctx.global, ns);
    const what = `endorse ${ns}/${o.name}`;
    const { verified, schema } = await buildSchemaApproval(c, nsFlag, o.name, undefined, undefined, NAME);
    let me;
    try {
      me = await c.reader.whoAmI();
    } catch (err) {
      if (err instanceof NotFoundError || (err instanceof ReadError && err.httpStatus === 403)) {
        throw new RefusalError(`cannot ${what}: who you are is unknown (SelfSubjectReview: ${err.message}), and an endorsement is your username`);
      }
      throw err;
    }
    const retry = `kubectl ptah endorse ${o.name}${nsFlag}`;
    const writer = lastSpecWriter(schema.metadata);
    // The policy compares usernames only: an endorser is never the last spec writer, whatever four-eyes' switch says.
    if (writer && writer.username === me.username) {
      throw new RefusalError(
        `cannot ${what}: you (${sanitize(me.username)}) last changed its spec, and the plan's last spec writer never endorses it (four eyes); next: ask another endorser to run ${retry}`,
      );
    }
    if (me.username.includes(",")) throw new RefusalError(`cannot ${what}: your username ${sanitize(me.username)} holds a comma, which the endorsement list cannot hold`);
    const key = endorsementKey(verified.fingerprint);
    const before = schema.metadata.annotations?.[key];
    if (endorsersOf(before).includes(me.username)) {
      throw new RefusalError(`cannot ${what}: you (${sanitize(me.username)}) already endorsed its current plan (${key}); next: kubectl ptah status ${o.name}${nsFlag}`);
    }
    const endorsement = {
      namespace: ns,
      schema: o.name,
      key,
      value: appendEndorser(before, me.username),
      exists: before !== undefined,
      resourceVersion: schema.metadata.resourceVersion ?? "",
      kubeconfig: ctx.global.kubeconfig,
      context: ctx.global.context,
    };
    if (o.output === undefined) return { kind: "printed", stdout: annotateLine(endorsement) };
    const body = patchBody(endorsement);
    return { kind: "printed", stdout: o.output === "json" ? formatJson(body, 2) : formatYaml(body) };
  },
};
