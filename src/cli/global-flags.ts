// kubectl's global flags, implemented by the plugin itself (kubectl passes none to plugins),
// as one typed table, and their resolution into GlobalOptions.
import { UsageError } from "../errors.ts";
import { parseDurationFlag as parseDuration } from "../commands/shared/duration.ts";
import type { ColorMode, FlagSpec, GlobalOptions, Candidate, CompletionQuery } from "../commands/command-types.ts";
import { outputCandidates, startingWith } from "../commands/shared/candidates.ts";

export { parseDuration };

/**
 * Every flag `kubectl options` lists, plus kubectl get's printing flags the views share. One line
 * per flag; `ignored` says why a flag is accepted without effect (docs/flags.md).
 */
export const GLOBAL_FLAGS = [
  { name: "kubeconfig", type: "string", value: "PATH", describe: "Path to the kubeconfig file to use (no merging)", complete: () => "files" },
  { name: "context", type: "string", value: "NAME", describe: "The name of the kubeconfig context to use", complete: kubeconfigContexts },
  { name: "cluster", type: "string", value: "NAME", describe: "The name of the kubeconfig cluster to use" },
  { name: "user", type: "string", value: "NAME", describe: "The name of the kubeconfig user to use" },
  { name: "namespace", alias: "n", type: "string", value: "NAME", describe: "The namespace; default: the context's namespace, else default" },
  { name: "server", alias: "s", type: "string", value: "URL", describe: "The address and port of the Kubernetes API server" },
  { name: "token", type: "string", value: "TOKEN", describe: "Bearer token for authentication to the API server" },
  { name: "username", type: "string", value: "NAME", describe: "Username for basic authentication to the API server" },
  { name: "password", type: "string", value: "PASSWORD", describe: "Password for basic authentication to the API server" },
  { name: "certificate-authority", type: "string", value: "PATH", describe: "Path to a cert file for the certificate authority" },
  { name: "client-certificate", type: "string", value: "PATH", describe: "Path to a client certificate file for TLS" },
  { name: "client-key", type: "string", value: "PATH", describe: "Path to a client key file for TLS" },
  { name: "insecure-skip-tls-verify", type: "boolean", describe: "Do not check the server's certificate (insecure)" },
  { name: "tls-server-name", type: "string", value: "NAME", describe: "Server name to use for server certificate validation" },
  { name: "as", type: "string", value: "USER", describe: "Username to impersonate for the operation (a user or system:serviceaccount:NS:NAME)" },
  { name: "as-group", type: "string", value: "GROUP", describe: "Group to impersonate; repeat for several groups", repeatable: true },
  { name: "as-uid", type: "string", value: "UID", describe: "UID to impersonate for the operation" },
  { name: "all-namespaces", alias: "A", type: "boolean", describe: "List across all namespaces (list views)" },
  { name: "output", alias: "o", type: "string", value: "FORMAT", describe: "Output format (see the command's help)", complete: outputCandidates },
  { name: "selector", alias: "l", type: "string", value: "SELECTOR", describe: "Label selector to filter list views, e.g. app=shop" },
  { name: "no-headers", type: "boolean", describe: "Do not print table headers" },
  { name: "color", type: "string", value: "WHEN", describe: "Colour output: auto, always or never (NO_COLOR disables auto)", default: "auto", values: ["auto", "always", "never"] },
  {
    name: "request-timeout",
    type: "string",
    value: "DURATION",
    describe: "How long to wait for one server request, e.g. 30s, 1m; 0 waits forever",
    default: "30s",
  },
  { name: "timeout", type: "string", value: "DURATION", describe: "Alias of --request-timeout (upstream kubectl-ptah's name); wait: how long to wait" },
  { name: "v", alias: "v", type: "string", value: "LEVEL", describe: "Log level: 6 logs each request on stderr, 7 adds headers, 8 bodies (cut), 9 bodies in full", default: "0" },
  { name: "warnings-as-errors", type: "boolean", describe: "Treat warnings received from the server as errors (exit 1)" },
  { name: "disable-compression", type: "boolean", describe: "Opt out of response compression (always so: the plugin never asks for it)" },
  { name: "match-server-version", type: "boolean", describe: "Refused when true: the plugin's version is its own, not a Kubernetes version" },
  { name: "cache-dir", type: "string", value: "PATH", describe: "Ignored: the plugin keeps no discovery cache" },
  { name: "log-flush-frequency", type: "string", value: "DURATION", describe: "Ignored: log lines are written at once" },
  { name: "vmodule", type: "string", value: "PATTERN=N", describe: "Ignored: per-file levels of kubectl's Go sources have no meaning here" },
  { name: "profile", type: "string", value: "NAME", describe: "Only none: Go runtime profiles do not exist in a Node program (use node --cpu-prof)", default: "none" },
  { name: "profile-output", type: "string", value: "PATH", describe: "Ignored (only used with --profile)" },
] as const satisfies readonly FlagSpec[];

/** -h/--help and the root's --version: answered by the shell before any parsing. */
export const HELP_FLAG: FlagSpec = { name: "help", alias: "h", type: "boolean", describe: "Show help" };
export const VERSION_FLAG: FlagSpec = { name: "version", type: "boolean", describe: "Print the plugin's version" };

/** --context: the contexts of the kubeconfig the line names, read without connecting. */
async function kubeconfigContexts(q: CompletionQuery): Promise<Candidate[]> {
  try {
    const { loadKubeconfig } = await import("../kube/connect.ts");
    const doc = loadKubeconfig({ kubeconfig: q.ctx.global.kubeconfig }, q.env);
    return startingWith(
      (doc.contexts ?? []).map((c) => ({ value: String(c.name) })),
      q.toComplete,
    );
  } catch {
    return [];
  }
}

/** Parsed flag values by long name (strings, booleans, string lists for repeatable flags). */
export type GlobalFlagValues = { readonly [K in (typeof GLOBAL_FLAGS)[number]["name"]]?: unknown };

/** A flag's default as the table states it (help prints the same value). */
function defaultOf(name: "color" | "request-timeout" | "v"): string {
  const flag = GLOBAL_FLAGS.find((f) => f.name === name);
  return flag && "default" in flag ? flag.default : "";
}

export interface Terminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

function str(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new UsageError(`flag --${name} given more than once`);
  if (typeof v !== "string") return String(v as number | boolean);
  return v;
}

export function resolveColor(mode: string, terminal: Terminal): boolean {
  if (mode !== "auto" && mode !== "always" && mode !== "never") {
    throw new UsageError(`invalid --color "${mode}": use auto, always or never`);
  }
  const m = mode as ColorMode;
  if (m === "always") return true;
  if (m === "never") return false;
  const noColor = terminal.env.NO_COLOR;
  return terminal.stdoutIsTTY && !(noColor !== undefined && noColor !== "") && terminal.env.TERM !== "dumb";
}

function list(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * -v/--v: klog's Level, strconv.ParseInt(text, 10, 32) with pflag's error lines: a sign is
 * allowed (`-v=-1` logs nothing, as in kubectl), an int32 beyond range is "value out of range".
 */
export function parseVerbosity(text: string): number {
  const error = (why: string) => new UsageError(`invalid argument "${text}" for "-v, --v" flag: strconv.ParseInt: parsing "${text}": ${why}`);
  if (!/^[+-]?\d+$/u.test(text)) throw error("invalid syntax");
  const level = BigInt(text);
  if (level < -(2n ** 31n) || level >= 2n ** 31n) throw error("value out of range");
  return Number(level);
}

/**
 * --request-timeout (or upstream's --timeout) in ms, as kubectl reads it: empty is unset (the
 * default), a negative duration is no timeout (Go's http.Client ignores one), 0 no timeout.
 */
function requestTimeoutMs(text: string | undefined, flag: string): number {
  const ms = parseDuration(text === undefined || text === "" ? defaultOf("request-timeout") : text, flag);
  return ms < 0 ? 0 : ms;
}

/** Flags that are refused with a reason rather than silently ignored. */
function refuseMeaningless(values: GlobalFlagValues): void {
  if (values["match-server-version"] === true) {
    throw new UsageError("--match-server-version cannot hold: the plugin's version is its own, not a Kubernetes client version to match against the server");
  }
  const profile = str(values.profile, "profile");
  if (profile !== undefined && profile !== "none") {
    throw new UsageError(`--profile=${profile} cannot be captured: it names a Go runtime profile and the plugin runs on Node (use NODE_OPTIONS=--cpu-prof)`);
  }
}

/**
 * Global flags → options. `--timeout` is upstream's name for the request timeout; `wait`
 * reads it as its own deadline instead, so it is also passed through unchanged.
 */
export function toGlobalOptions(values: GlobalFlagValues, terminal: Terminal, timeoutIsRequestTimeout: boolean): GlobalOptions {
  const requestTimeout = str(values["request-timeout"], "request-timeout");
  const upstreamTimeout = timeoutIsRequestTimeout ? str(values.timeout, "timeout") : undefined;
  if (requestTimeout !== undefined && upstreamTimeout !== undefined && requestTimeout !== upstreamTimeout) {
    throw new UsageError("--timeout and --request-timeout disagree; give one");
  }
  const namespace = str(values.namespace, "namespace");
  if (namespace === "") throw new UsageError("a namespace given with -n must not be empty");
  refuseMeaningless(values);
  return {
    kubeconfig: str(values.kubeconfig, "kubeconfig") || undefined,
    context: str(values.context, "context") || undefined,
    namespace,
    allNamespaces: values["all-namespaces"] === true,
    output: str(values.output, "output"),
    selector: str(values.selector, "selector"),
    noHeaders: values["no-headers"] === true,
    color: resolveColor(str(values.color, "color") ?? defaultOf("color"), terminal),
    requestTimeoutMs: requestTimeoutMs(upstreamTimeout ?? requestTimeout, upstreamTimeout ? "timeout" : "request-timeout"),
    overrides: {
      cluster: str(values.cluster, "cluster"),
      user: str(values.user, "user"),
      server: str(values.server, "server"),
      token: str(values.token, "token"),
      username: str(values.username, "username"),
      password: str(values.password, "password"),
      certificateAuthority: str(values["certificate-authority"], "certificate-authority"),
      clientCertificate: str(values["client-certificate"], "client-certificate"),
      clientKey: str(values["client-key"], "client-key"),
      insecureSkipTlsVerify: values["insecure-skip-tls-verify"] === true,
      tlsServerName: str(values["tls-server-name"], "tls-server-name"),
      as: str(values.as, "as"),
      asGroups: list(values["as-group"]),
      asUid: str(values["as-uid"], "as-uid"),
    },
    verbosity: parseVerbosity(str(values.v, "v") ?? defaultOf("v")),
    warningsAsErrors: values["warnings-as-errors"] === true,
  };
}
