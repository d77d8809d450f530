// `kubectl ptah version`: the plugin's version and, when a cluster answers, the server's
// version, which Ptah kinds it serves and, where readable, the operator's release (the chart's
// name and sequence, the CRDs' schema version and digest).
import { UsageError, exitStatusOf, formatError } from "../../errors.ts";
import { PTAH_GROUP, PTAH_KIND_NAMES, PTAH_VERSION } from "../../model/api.ts";
import { formatJson, formatYaml } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { CommandBody, RunContext } from "../command-types.ts";
import type { ClusterInspector } from "../../kube/types.ts";
import { pluginLines, upstreamFirstFix, whatItIs } from "../shared/plugins-on-path.ts";
import { crdSchemaGroups, crdSchemaLines, RELEASE_NAME_ANNOTATION, RELEASE_SEQUENCE_ANNOTATION, releaseWords } from "../shared/release-identity.ts";
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
    {
      form: "version",
      argv: ["version"],
      rules: [],
      note: "get `/version` and discovery of `operator.ptah.run` (every authenticated user, by Kubernetes' system:discovery); optionally get `mutatingwebhookconfigurations` `ptah-operator-admission` and the Ptah `customresourcedefinitions` (cluster scope: the operator's release; left out without them)",
    },
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
    let connection;
    try {
      connection = await ctx.connect();
      info = await connection.reader.serverInfo();
    } catch (err) {
      // kubectl prints the client's version before the connection error, exit 1.
      const known = options.output === "text" ? `Client Version: ${client}\n` : render(options.output, { clientVersion: client });
      return { kind: "printed", stdout: known, stderr: formatError(err), exitStatus: exitStatusOf(err) };
    }
    const missing = PTAH_KINDS.filter((k) => !info.ptahKinds.includes(k));
    const release = info.ptahKinds.length > 0 && connection.inspector ? await operatorRelease(connection.inspector, info.ptahKinds) : undefined;
    const data = {
      clientVersion: client,
      ...onPath.data,
      serverVersion: info.gitVersion,
      ptahAPI: { groupVersion: `${PTAH_GROUP}/${PTAH_VERSION}`, served: info.ptahKinds, missing },
      ...(release ? { operatorRelease: release.data } : {}),
    };
    if (options.output !== "text") return { kind: "printed", stdout: render(options.output, data) };
    const served = info.ptahKinds.length === 0 ? "none (is the Ptah operator installed?)" : info.ptahKinds.join(", ");
    const lines = [`Client Version: ${client}`, ...onPath.lines, `Server Version: ${info.gitVersion}`, `Ptah API: ${data.ptahAPI.groupVersion}`, `Served kinds: ${served}`];
    if (missing.length > 0 && info.ptahKinds.length > 0) lines.push(`Not served: ${missing.join(", ")}`);
    if (release) lines.push(...release.lines);
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

/**
 * The operator's release as the chart and the CRDs name it: each read optional (cluster scope),
 * and a line only for what was read. The manager's image is doctor's (it lists every object).
 */
async function operatorRelease(inspector: ClusterInspector, kinds: readonly string[]): Promise<{ lines: string[]; data: Record<string, unknown> } | undefined> {
  const [admission, crds] = await Promise.all([
    inspector.admissionConfiguration().catch(() => undefined),
    // Only the kinds the plugin reads: their CRDs are the ones the request guard lets it get.
    Promise.all(kinds.filter((k) => PTAH_KINDS.includes(k)).map((k) => inspector.getCrd(`${k.toLowerCase()}s.${PTAH_GROUP}`))).catch(() => undefined),
  ]);
  const release = admission?.found ? releaseWords(admission.annotations) : undefined;
  const groups = crds ? crdSchemaGroups(crds) : [];
  if (release === undefined && groups.length === 0) return undefined;
  const lines = [...(release ? [`Operator Release: ${release}`] : []), ...(groups.length > 0 ? crdSchemaLines(groups).map((l) => `CRD Schema: ${l}`) : [])];
  const data = {
    ...(admission?.found ? { name: admission.annotations[RELEASE_NAME_ANNOTATION], sequence: admission.annotations[RELEASE_SEQUENCE_ANNOTATION] } : {}),
    crdSchema: groups,
  };
  return { lines, data };
}

function render(output: "json" | "yaml", data: unknown): string {
  return output === "json" ? formatJson(data, 2) : formatYaml(data);
}
