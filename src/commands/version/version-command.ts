// `kubectl ptah version`: the plugin's version and, when a cluster answers, the server's
// version and which Ptah kinds it serves.
import { UsageError, exitStatusOf, formatError } from "../../errors.ts";
import { PTAH_GROUP, PTAH_KIND_NAMES, PTAH_VERSION } from "../../model/api.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { CommandBody, RunContext } from "../command-types.ts";
import { pluginLines, upstreamFirstFix, whatItIs } from "../shared/plugins-on-path.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export interface VersionOptions {
  readonly output: "text" | "json" | "yaml";
  readonly clientOnly: boolean;
}

const PTAH_KINDS: readonly string[] = PTAH_KIND_NAMES;

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["json", "yaml"] as const;
export const versionCommand: CommandBody<VersionOptions> = {
  positionals: [],
  outputs: OUTPUTS,
  examples: [
    { comment: "Plugin, server and operator API versions", command: "kubectl ptah version" },
    { comment: "Only the plugin's version, without contacting the cluster", command: "kubectl ptah version --client" },
  ],
  flags: [{ name: "client", type: "boolean", describe: "Print only the plugin's version (no cluster needed)" }],
  hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
  permissions: [
    { form: "version", argv: ["version"], rules: [], note: "get `/version` and discovery of `operator.ptah.run` (every authenticated user, by Kubernetes' system:discovery)" },
  ],
  toOptions(args) {
    if (args.positionals.length > 0) throw new UsageError("version takes no arguments", "version");
    const o = declaredOutput(args, OUTPUTS, "version") ?? "text";
    return { output: o, clientOnly: args.flags.client === true };
  },
  async run(options, ctx) {
    const client = ctx.version;
    const onPath = await pathFacts(ctx);
    if (options.clientOnly) {
      return {
        kind: "printed",
        stdout: options.output === "text" ? [`Client Version: ${client}`, ...onPath.lines].join("\n") + "\n" : render(options.output, { clientVersion: client, ...onPath.data }),
      };
    }
    let info;
    try {
      info = await (await ctx.connect()).reader.serverInfo();
    } catch (err) {
      // kubectl prints the client's version before the connection error, exit 1.
      const known = options.output === "text" ? `Client Version: ${client}\n` : render(options.output, { clientVersion: client });
      return { kind: "printed", stdout: known, stderr: formatError(err), exitStatus: exitStatusOf(err) };
    }
    const missing = PTAH_KINDS.filter((k) => !info.ptahKinds.includes(k));
    const data = {
      clientVersion: client,
      ...onPath.data,
      serverVersion: info.gitVersion,
      ptahAPI: { groupVersion: `${PTAH_GROUP}/${PTAH_VERSION}`, served: info.ptahKinds, missing },
    };
    if (options.output !== "text") return { kind: "printed", stdout: render(options.output, data) };
    const served = info.ptahKinds.length === 0 ? "none (is the Ptah operator installed?)" : info.ptahKinds.join(", ");
    const lines = [`Client Version: ${client}`, ...onPath.lines, `Server Version: ${info.gitVersion}`, `Ptah API: ${data.ptahAPI.groupVersion}`, `Served kinds: ${served}`];
    if (missing.length > 0 && info.ptahKinds.length > 0) lines.push(`Not served: ${missing.join(", ")}`);
    return { kind: "printed", stdout: lines.join("\n") + "\n" };
  },
};

/**
 * Which kubectl-ptah PATH holds, said only when it matters: when another one than this plugin is
 * there (upstream's Go binary, say), so the usual answer stays kubectl's two lines.
 */
async function pathFacts(ctx: RunContext): Promise<{ lines: string[]; data: { pluginsOnPath?: { path: string; is: string; runs: boolean }[] } }> {
  const plugins = ((await ctx.pluginsOnPath?.().catch(() => [])) ?? []).map((p) => ({ ...p, path: sanitize(p.path) }));
  if (!plugins.some((p) => !p.self)) return { lines: [], data: {} };
  const lines = pluginLines(plugins).map((l) => `kubectl-ptah on PATH, ${l}`);
  const first = plugins[0]!;
  if (!first.self && first.identity?.kind === "upstream") lines.push(`Fix: ${upstreamFirstFix(first, undefined)}`);
  return { lines, data: { pluginsOnPath: plugins.map((p, i) => ({ path: p.path, is: whatItIs(p), runs: i === 0 })) } };
}

function render(output: "json" | "yaml", data: unknown): string {
  return output === "json" ? formatJson(data, 2) : formatYaml(data);
}
