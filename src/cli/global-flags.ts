// kubectl's global flags, implemented by the plugin itself (kubectl passes none to plugins),
// as one typed table, and their resolution into GlobalOptions.
import { UsageError } from "../errors.ts";
import type { ColorMode, FlagSpec, GlobalOptions } from "../commands/types.ts";

export const GLOBAL_FLAGS = [
  { name: "kubeconfig", type: "string", value: "PATH", describe: "Path to the kubeconfig file to use (no merging)" },
  { name: "context", type: "string", value: "NAME", describe: "The name of the kubeconfig context to use" },
  { name: "namespace", alias: "n", type: "string", value: "NAME", describe: "The namespace; default: the context's namespace, else default" },
  { name: "all-namespaces", alias: "A", type: "boolean", describe: "List across all namespaces (list views)" },
  { name: "output", alias: "o", type: "string", value: "FORMAT", describe: "Output format (see the command's help)" },
  { name: "selector", alias: "l", type: "string", value: "SELECTOR", describe: "Label selector to filter list views, e.g. app=shop" },
  { name: "no-headers", type: "boolean", describe: "Do not print table headers" },
  { name: "color", type: "string", value: "WHEN", describe: "Colour output: auto, always or never (NO_COLOR disables auto)", default: "auto" },
  {
    name: "request-timeout",
    type: "string",
    value: "DURATION",
    describe: "How long to wait for one server request, e.g. 30s, 1m; 0 waits forever",
    default: "30s",
  },
  { name: "timeout", type: "string", value: "DURATION", describe: "Alias of --request-timeout (upstream kubectl-ptah's name); wait: how long to wait" },
] as const satisfies readonly FlagSpec[];

/** Go duration strings (300ms, 1.5h, 2h45m) and kubectl's bare integer seconds. */
export function parseDuration(text: string, flag: string): number {
  const t = text.trim();
  if (/^\d+$/u.test(t)) return Number(t) * 1000;
  if (t === "0") return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gyu;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  if (t === "" || matched !== t.length) {
    throw new UsageError(`invalid duration "${t}" for --${flag}: use a number with a unit, e.g. 30s, 1m, 2h`);
  }
  return Math.round(total);
}

export interface GlobalFlagValues {
  readonly kubeconfig?: unknown;
  readonly context?: unknown;
  readonly namespace?: unknown;
  readonly "all-namespaces"?: unknown;
  readonly output?: unknown;
  readonly selector?: unknown;
  readonly "no-headers"?: unknown;
  readonly color?: unknown;
  readonly "request-timeout"?: unknown;
  readonly timeout?: unknown;
}

export interface Terminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

function str(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new UsageError(`flag --${name} given more than once`);
  if (typeof v !== "string") return String(v);
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
  return {
    kubeconfig: str(values.kubeconfig, "kubeconfig") || undefined,
    context: str(values.context, "context") || undefined,
    namespace,
    allNamespaces: values["all-namespaces"] === true,
    output: str(values.output, "output"),
    selector: str(values.selector, "selector"),
    noHeaders: values["no-headers"] === true,
    color: resolveColor(str(values.color, "color") ?? "auto", terminal),
    requestTimeoutMs: parseDuration(upstreamTimeout ?? requestTimeout ?? "30s", upstreamTimeout ? "timeout" : "request-timeout"),
  };
}
