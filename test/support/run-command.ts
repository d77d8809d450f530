// Runs one command in-process without the CLI parser: toOptions, then run, with a hand-built
// RunContext over a reader, a fixed clock and no colour. Like cli/run.ts, stdout is returned
// only on success; a failure is its exit status and one formatted stderr line.
import { exitStatusOf, formatError } from "../../src/errors.ts";
import type { ClusterReader } from "../../src/kube/types.ts";
import type { Command, GlobalOptions, RunContext } from "../../src/commands/types.ts";

export interface CommandArgs {
  readonly positionals?: readonly string[];
  /** Command flags by long name, e.g. { applied: true }. */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** Global flags, e.g. { output: "sql", namespace: "app" }. */
  readonly global?: Partial<GlobalOptions>;
}

export interface RunCommandOptions {
  /** The namespace the connection resolves to (default: global.namespace, else "default"). */
  readonly namespace?: string;
  readonly now?: Date;
  readonly version?: string;
  readonly width?: number;
  /** Whether stdout is a terminal (default false, as when piped). */
  readonly tty?: boolean;
}

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

export const FIXED_NOW = new Date("2026-09-13T09:00:00Z");

export function globalOptions(overrides: Partial<GlobalOptions> = {}): GlobalOptions {
  return {
    kubeconfig: undefined,
    context: undefined,
    namespace: undefined,
    allNamespaces: false,
    output: undefined,
    selector: undefined,
    noHeaders: false,
    color: false,
    requestTimeoutMs: 30000,
    overrides: {},
    verbosity: 0,
    warningsAsErrors: false,
    ...overrides,
  };
}

export async function runCommand<O>(
  command: Command<O>,
  args: CommandArgs,
  reader: ClusterReader,
  opts: RunCommandOptions = {},
): Promise<CommandResult> {
  const global = globalOptions(args.global);
  const now = opts.now ?? FIXED_NOW;
  const namespace = opts.namespace ?? global.namespace ?? "default";
  const ctx: RunContext = {
    global,
    now,
    width: opts.width ?? 120,
    isTTY: opts.tty ?? false,
    connect: async () => ({ reader, namespace, contextName: "test" }),
    emit: () => undefined,
    signal: new AbortController().signal,
    version: opts.version ?? "v0.0.0-test",
    clock: () => now,
  };
  try {
    const options = command.toOptions({ positionals: args.positionals ?? [], flags: args.flags ?? {}, global });
    const output = await command.run(options, ctx);
    return { stdout: output.stdout, stderr: output.stderr ?? "", status: 0 };
  } catch (err) {
    // A refusal may carry a report for stderr (plan --verify); the error line always ends it.
    const detail = err instanceof Error && "detail" in err && typeof err.detail === "string" ? err.detail : "";
    return { stdout: "", stderr: detail + formatError(err), status: exitStatusOf(err) };
  }
}
