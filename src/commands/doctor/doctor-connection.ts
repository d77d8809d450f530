// doctor's Connection checks: the kubeconfig and where each part came from, the server and its
// version, kubectl's version skew window, clock skew (the Date header) and which kubectl-ptah
// the PATH finds first.
import { sanitize } from "../../errors.ts";
import type { LocalFacts } from "../command-types.ts";
import { ok, problem, skipped, type Check } from "./doctor-report.ts";
import { upstreamFirstFix, whatItIs } from "../shared/plugins-on-path.ts";

/** Attempted reads: a value, a 403 (the check is skipped), or another failure. */
export type Outcome<T> =
  { readonly kind: "value"; readonly value: T } | { readonly kind: "forbidden"; readonly message: string } | { readonly kind: "error"; readonly message: string };

export interface OriginFacts {
  readonly context: { readonly name: string; readonly from: string };
  readonly cluster: { readonly name: string; readonly server: string; readonly from: string };
  readonly user: { readonly name: string; readonly from: string } | undefined;
  readonly namespace: { readonly name: string; readonly from: string };
}

export interface ServerFacts {
  readonly gitVersion: string;
  readonly minor: number | undefined;
  readonly date: string | undefined;
  /** This machine's clock when the answer arrived. */
  readonly localTime: Date;
}

/** The Kubernetes minor the plugin is tested against (the lab, lab/README.md). */
export const TESTED_MINOR = 33;

/** Clocks further apart than this make every age wrong by more than kubectl's rounding. */
export const CLOCK_SKEW_LIMIT_S = 5;

export function kubeconfigCheck(connection: Outcome<OriginFacts | { readonly contextName: string }>): Check {
  if (connection.kind !== "value") {
    return problem("Connection", "kubeconfig", connection.message, "fix the kubeconfig (kubectl config view; kubectl config use-context NAME), or pass --kubeconfig/--context");
  }
  const o = connection.value;
  // Names and paths from the kubeconfig files: sanitised like cluster strings.
  const s = sanitize;
  if (!("context" in o)) return ok("Connection", "kubeconfig", `context ${s(o.contextName)}`);
  return ok("Connection", "kubeconfig", `context ${s(o.context.name)}, from ${s(o.context.from)}`, [
    `cluster ${s(o.cluster.name)} (${s(o.cluster.server)}), from ${s(o.cluster.from)}`,
    o.user ? `user ${s(o.user.name)}, from ${s(o.user.from)}` : "user: none (the context names no user that exists: requests are anonymous)",
    `namespace ${s(o.namespace.name)}, from ${s(o.namespace.from)}`,
  ]);
}

export function serverCheck(server: Outcome<ServerFacts> | undefined, serverUrl: string | undefined): Check {
  if (server === undefined) return skipped("Connection", "server", "no kubeconfig to connect with");
  const where = serverUrl ? `${serverUrl} ` : "";
  if (server.kind !== "value")
    return problem("Connection", "server", server.message, "check the server address, the network and the credentials of the context (kubectl cluster-info)");
  return ok("Connection", "server", `${where}answers: Kubernetes ${server.value.gitVersion}`);
}

export function versionSkewCheck(server: Outcome<ServerFacts> | undefined, local: LocalFacts): Check {
  const name = "version skew";
  if (server?.kind !== "value" || server.value.minor === undefined) return skipped("Connection", name, "the server's version is not known");
  const s = server.value.minor;
  const window = `kubectl 1.${s - 1}–1.${s + 1}`;
  const tested = `the plugin is tested against Kubernetes 1.${TESTED_MINOR}${Math.abs(s - TESTED_MINOR) > 1 ? `, more than one minor from this server's 1.${s}` : ""}`;
  if ("missing" in local.kubectl) return skipped("Connection", name, `${local.kubectl.missing}: ${window} supports this 1.${s} server (kubectl's skew policy)`, [tested]);
  const k = local.kubectl.minor;
  if (k === undefined) return skipped("Connection", name, `kubectl ${local.kubectl.gitVersion} names no minor version: ${window} supports this 1.${s} server`, [tested]);
  if (Math.abs(k - s) > 1) {
    return problem(
      "Connection",
      name,
      `kubectl ${local.kubectl.gitVersion} is more than one minor from the server's 1.${s}`,
      `use ${window} (kubectl supports a server within one minor of its own version)`,
      [tested],
    );
  }
  return ok("Connection", name, `kubectl ${local.kubectl.gitVersion} is within one minor of the server's 1.${s}`, [tested]);
}

export function clockCheck(server: Outcome<ServerFacts> | undefined): Check {
  const name = "clock";
  if (server?.kind !== "value") return skipped("Connection", name, "the server did not answer");
  const date = server.value.date ? Date.parse(server.value.date) : Number.NaN;
  if (Number.isNaN(date)) return skipped("Connection", name, "the server's answer carries no Date header");
  const skewMs = date - server.value.localTime.getTime();
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  if (seconds > CLOCK_SKEW_LIMIT_S) {
    const way = skewMs > 0 ? "behind" : "ahead of";
    return problem(
      "Connection",
      name,
      `this machine's clock is ${seconds}s ${way} the server's (Date header)`,
      "synchronise this machine's clock (NTP); until then every age the plugin prints is off by that much",
    );
  }
  return ok("Connection", name, `this machine's clock is within ${Math.max(seconds, 1)}s of the server's (Date header; limit ${CLOCK_SKEW_LIMIT_S}s)`);
}

export function pathCheck(local: LocalFacts): Check {
  const name = "plugin on PATH";
  const self = local.selfPath ?? "this plugin";
  const first = local.plugins[0];
  if (!first) {
    return problem(
      "Connection",
      name,
      `no kubectl-ptah on PATH, so kubectl ptah does not find this plugin (${self})`,
      "put the folder that holds kubectl-ptah on PATH, or install it with kubectl krew install ptah",
    );
  }
  const others = local.plugins.slice(1).map((p) => `shadowed (never run by kubectl ptah): ${p.path} — ${whatItIs(p)}`);
  if (!first.self) {
    const fix = first.identity?.kind === "upstream" ? upstreamFirstFix(first, local.selfPath) : "remove the other kubectl-ptah or put this plugin's folder first on PATH";
    return problem("Connection", name, `kubectl ptah runs ${first.path} (${whatItIs(first)}), not this plugin (${self})`, fix, others);
  }
  return ok("Connection", name, `kubectl ptah runs this plugin (${first.path})`, others);
}

/** The process guard: what this process refuses, whatever a command's code asks. */
export function processGuardCheck(local: LocalFacts): Check {
  const name = "process guard";
  if (!local.processGuard) {
    return problem(
      "Connection",
      name,
      "not installed in this process: nothing refuses a child process, a worker, a native addon or a write",
      "run the plugin through its own entry (kubectl ptah), which installs it before any command loads",
    );
  }
  return ok("Connection", name, "child processes, workers, native addons and writes outside the code cache and --export refused in this process");
}

/** This machine's rows: which kubectl-ptah PATH finds, and the process guard. */
export function machineChecks(local: LocalFacts): Check[] {
  return [pathCheck(local), processGuardCheck(local)];
}
