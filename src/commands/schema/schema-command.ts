// `kubectl ptah schema <name>`: upstream's schema view. Reads only the PtahSchema, so a
// diagnostic reader without chunk access can use it.
import { UsageError } from "../../errors.ts";
import { buildSchemaView } from "./schema-view.ts";
import { renderSchemaViewJson, renderSchemaViewText } from "./schema-text.ts";
import { getOrNotFound, noPtahSchema } from "../shared/read.ts";
import { SCHEMA } from "../shared/candidates.ts";
import type { CommandBody } from "../command-types.ts";
import { ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export interface SchemaOptions {
  readonly name: string;
  readonly output: "text" | "json";
}

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["text", "json"] as const;
export const schemaCommand: CommandBody<SchemaOptions> = {
  positionals: [SCHEMA],
  outputs: OUTPUTS,
  examples: [
    { comment: "What the operator observed and planned for a schema", command: "kubectl ptah schema storefront -n app" },
    { comment: "The same as JSON, for scripts", command: "kubectl ptah schema storefront -o json" },
  ],
  flags: [],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [{ form: "schema SCHEMA", argv: ["schema", "storefront"], rules: ptah("get", "ptahschemas") }],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one PtahSchema", "schema");
    return { name: args.positionals[0]!, output: declaredOutput(args, OUTPUTS, "schema") ?? "text" };
  },
  async run(options, ctx) {
    const { reader, namespace } = await ctx.connect();
    const schema = await getOrNotFound(reader, "PtahSchema", namespace, options.name, noPtahSchema(namespace, options.name));
    const view = buildSchemaView(schema.object);
    return { kind: "printed", stdout: options.output === "json" ? renderSchemaViewJson(view) : renderSchemaViewText(view) };
  },
};
