// The one in-process harness: the real CLI shell (runCli: parser, global flags, toOptions, the
// shell's context, run, result → streams and status) with argv strings, a fixed clock, TZ=UTC,
// no colour and a fixed width. The cluster is a ClusterReader injected as the connection — whose
// namespace resolves as kubectl's does: -n over the connection's (the kubeconfig context's) —
// or the real connection code (`real`), or none at all (undefined: connecting fails).
import { runCli, type RunResult } from "../../src/cli/run.ts";
import type { GlobalOptions, LocalFacts, Registry } from "../../src/commands/command-types.ts";
import type { ClusterInspector, ClusterReader, KubeconfigOrigin } from "../../src/kube/types.ts";

export const FIXED_NOW = new Date("2026-11-30T12:00:00Z");

/** The real connection code (kubeconfig, TLS, HTTP) instead of an injected reader. */
export const REAL_CONNECTION = "real";

export interface CliOptions {
  /** The connection's namespace (the kubeconfig context's), used when no -n is given; default "default". */
  readonly namespace?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: Date;
  readonly tty?: boolean;
  readonly width?: number;
  readonly signal?: AbortSignal;
  /** Sees the global options the shell connects with. */
  readonly onConnect?: (global: GlobalOptions) => void;
  /** doctor: the connection's kubeconfig origin and inspector, and this machine's PATH facts. */
  readonly origin?: KubeconfigOrigin;
  readonly inspector?: ClusterInspector;
  readonly machine?: LocalFacts;
  /** doctor: connecting fails with this error (a broken kubeconfig). */
  readonly connectError?: Error;
  /** A fleet (--contexts): the reader of each kubeconfig context by name, or the error connecting to it throws. */
  readonly readers?: Readonly<Record<string, ClusterReader | Error>>;
  /** The registry to run with instead of commands/registry.ts (a test's own command). */
  readonly commands?: Registry;
  /** Standard input (mcp). */
  readonly input?: AsyncIterable<Uint8Array>;
  /** Sees each streamed write as it happens (mcp's messages). */
  readonly onEmit?: (text: string) => void;
}

export interface CliRun extends RunResult {
  /** What streaming commands (watch, wait) wrote as they ran. */
  readonly emitted: string;
  /** How many times the command asked for a connection. */
  readonly connects: number;
  /** The lines logged to stderr as they happened (-v request logs, the server's warnings). */
  readonly logged: string[];
}

export async function runCliWith(argv: readonly string[], reader: ClusterReader | typeof REAL_CONNECTION | undefined, options: CliOptions = {}): Promise<CliRun> {
  let emitted = "";
  let connects = 0;
  const logged: string[] = [];
  const now = options.now ?? FIXED_NOW;
  const result = await runCli({
    argv,
    env: options.env ?? { NO_COLOR: "1" },
    stdoutIsTTY: options.tty ?? false,
    stdinIsTTY: false,
    width: options.width ?? 120,
    now,
    clock: () => now,
    version: "v0.0.0-test",
    signal: options.signal ?? new AbortController().signal,
    emit: (t) => {
      emitted += t;
      options.onEmit?.(t);
    },
    ...(options.input ? { input: () => options.input! } : {}),
    log: (line) => {
      logged.push(line);
    },
    ...(options.machine ? { machine: async () => options.machine! } : {}),
    ...(options.commands ? { commands: options.commands } : {}),
    ...(reader === REAL_CONNECTION
      ? {}
      : {
          connect: async ({ global }) => {
            connects++;
            options.onConnect?.(global);
            if (options.connectError) throw options.connectError;
            const fleet = options.readers && global.context !== undefined ? options.readers[global.context] : undefined;
            if (fleet instanceof Error) throw fleet;
            if (fleet) return { reader: fleet, namespace: global.namespace ?? options.namespace ?? "default", contextName: global.context! };
            if (!reader) throw new Error("this test has no cluster");
            const extra = { ...(options.origin ? { origin: options.origin } : {}), ...(options.inspector ? { inspector: options.inspector } : {}) };
            return { reader, namespace: global.namespace ?? options.namespace ?? "default", contextName: "test", ...extra };
          },
        }),
  });
  return { ...result, emitted, connects, logged };
}
