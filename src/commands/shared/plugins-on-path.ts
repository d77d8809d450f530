// Which kubectl-ptah each PATH entry is, in words doctor and version both print: this plugin,
// upstream's Go binary (with the version its build recorded), or something else. kubectl runs
// the first one; the others are shadowed.
import { sanitize } from "../../render/sanitize.ts";
import type { LocalFacts, PluginIdentity } from "../command-types.ts";

export type PluginOnPath = LocalFacts["plugins"][number];

/** The release of upstream's Go plugin whose command lines this plugin accepts (docs/upstream.md). */
export const UPSTREAM_PARITY_RELEASE = "0.2.10";

/** "upstream's Go kubectl-ptah v0.2.10", "this plugin", … */
export function whatItIs(p: PluginOnPath): string {
  if (p.self) return "this plugin";
  const id: PluginIdentity | undefined = p.identity;
  switch (id?.kind) {
    case "upstream":
      return `upstream's Go kubectl-ptah ${id.version ? sanitize(id.version) : "(its build records no version)"}`;
    case "go":
      return `a Go program of module ${sanitize(id.module)}, neither this plugin nor upstream's`;
    case "script":
      return "a script, not upstream's Go binary (another install of this plugin, or a wrapper)";
    case "unknown":
      return `not identified: ${sanitize(id.why)}`;
    default:
      return "not identified";
  }
}

/** The fix when upstream's binary is the one kubectl runs. */
export function upstreamFirstFix(p: PluginOnPath, selfPath: string | undefined): string {
  const folder = p.path.replace(/[/\\][^/\\]*$/u, "") || "/";
  const ours = selfPath ? ` (${selfPath.replace(/[/\\][^/\\]*$/u, "")})` : "";
  return `remove upstream's binary (rm ${p.path}) or put this plugin's folder${ours} before ${folder} on PATH: this plugin accepts every command line upstream's ${UPSTREAM_PARITY_RELEASE} does, with the same output`;
}

/** One line per kubectl-ptah on PATH: "PATH — what it is", the first marked as the one kubectl runs. */
export function pluginLines(plugins: readonly PluginOnPath[]): string[] {
  return plugins.map((p, i) => `${i === 0 ? "runs" : "shadowed (never run by kubectl ptah)"}: ${p.path} — ${whatItIs(p)}`);
}
