// `kubectl ptah mcp`: a Model Context Protocol server on stdio for AI assistants, whose tools are
// the plugin's read commands (commands/mcp/). The cluster, user and context are this command
// line's flags, fixed for the session; a tool may only choose a namespace. The SDK loads with
// commands/mcp/mcp-server.ts, when this command runs, and never for another command.
import { UsageError } from "../../errors.ts";
import { ACCESS_REVIEW, events, ptah, WHO_AM_I } from "../shared/permissions.ts";
import type { CommandBody } from "../command-types.ts";

export type McpOptions = Record<string, never>;

export const mcpCommand: CommandBody<McpOptions> = {
  positionals: [],
  outputs: [],
  examples: [
    { comment: "Serve the current context's cluster to an MCP client (the client starts this command)", command: "kubectl ptah mcp" },
    { comment: "Pin the session to one context and namespace", command: "kubectl ptah mcp --context prod -n shop" },
  ],
  flags: [],
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
    return {};
  },
  async run(_options, ctx) {
    const { serveMcp } = await import("./mcp-server.ts");
    await serveMcp(ctx);
    return { kind: "printed", stdout: "" };
  },
};
