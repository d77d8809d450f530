// kubectl's global flags, implemented by the plugin itself (kubectl passes none to plugins),
// as one typed table, and their resolution into GlobalOptions.
import { UsageError } from "../errors.ts";
import { parseDurationFlag as parseDuration } from "../commands/duration.ts";
import type { ColorMode, FlagSpec, GlobalOptions } from "../commands/types.ts";

export { parseDuration };

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
