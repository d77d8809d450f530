// `kubectl ptah mcp`: a Model Context Protocol server on stdio for AI assistants, whose tools are
// the plugin's read commands (commands/mcp/). The cluster, user and context are this command
// line's flags, fixed for the session; a tool may only choose a namespace. The SDK loads with
// commands/mcp/mcp-server.ts, when this command runs, and never for another command.
import { UsageError } from "../../errors.ts";
import { ACCESS_REVIEW, events, ptah, WHO_AM_I } from "../shared/permissions.ts";
import type { CommandBody } from "../command-types.ts";

export interface McpOptions {
  readonly allowRowValues: boolean;
}

export const mcpCommand: CommandBody<McpOptions> = {
  positionals: [],
  outputs: [],
  examples: [
    { comment: "Serve the current context's cluster to an MCP client (the client starts this command)", command: "kubectl ptah mcp" },
    { comment: "Pin the session to one context and namespace", command: "kubectl ptah mcp --context prod -n shop" },
  ],
  flags: [
    {
      name: "allow-row-values",
      type: "boolean",
      describe:
        "Serve the statements of plans that carry row values (declarative data); without it the plan and diff tools withhold them, since access to such a plan is access to its data",
    },
  ],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers", "output"],
  permissions: [
    {
      form: "mcp",
      // What its tools' commands read (their own rows); never a create but the reviews.
      rules: [
        ...ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks", "ptahschemaapprovals", "ptahmigrations", "ptahmigrationplans"),
        ...ptah(
          "list",
          "ptahschemas",
          "ptahschemaplans",
          "ptahschemaapprovals",
          "ptahmigrations",
          "ptahmigrationplans",
          "ptahmigrationapprovals",
          "ptahmigrationrunacknowledgments",
        ),
        ...events("list"),
        ACCESS_REVIEW,
      ],
      note: `each tool call sends what its command's form above sends (never \`approve --dry-run=server\` or \`doctor --probe\`); ${WHO_AM_I}`,
    },
  ],
  toOptions(args) {
    if (args.positionals.length > 0) throw new UsageError("mcp takes no arguments: an MCP client starts it and speaks JSON-RPC on its standard input", "mcp");
    if (args.global.allNamespaces) throw new UsageError("mcp takes no -A: each tool call may ask for every namespace", "mcp");
    return { allowRowValues: args.flags["allow-row-values"] === true };
  },
  async run(options, ctx) {
    const { serveMcp } = await import("./mcp-server.ts");
    await serveMcp(ctx, options);
    return { kind: "printed", stdout: "" };
  },
};
