// Runs the real CLI shell in-process (parser, toOptions, run, error formatting) over a
// FakeReader, with a fixed clock, TZ=UTC, no colour and a fixed width.
import { runCli, type RunResult } from "../../src/cli/run.ts";
import type { LocalFacts } from "../../src/commands/types.ts";
import type { ClusterInspector, ClusterReader, KubeconfigOrigin } from "../../src/kube/types.ts";

export const FIXED_NOW = new Date("2026-11-30T12:00:00Z");

export interface CliOptions {
  readonly namespace?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: Date;
  readonly tty?: boolean;
  /** doctor: the connection's kubeconfig origin and inspector, and this machine's PATH facts. */
  readonly origin?: KubeconfigOrigin;
  readonly inspector?: ClusterInspector;
  readonly machine?: LocalFacts;
  /** doctor: connecting fails with this error (a broken kubeconfig). */
  readonly connectError?: Error;
}

export async function runCliWith(argv: readonly string[], reader: ClusterReader | undefined, options: CliOptions = {}): Promise<RunResult & { emitted: string }> {
  let emitted = "";
  const controller = new AbortController();
  const result = await runCli({
    argv,
    env: options.env ?? { NO_COLOR: "1" },
    stdoutIsTTY: options.tty ?? false,
    stdinIsTTY: false,
    width: 120,
    now: options.now ?? FIXED_NOW,
    clock: () => options.now ?? FIXED_NOW,
    version: "v0.0.0-test",
    signal: controller.signal,
    emit: (t) => {
      emitted += t;
    },
    ...(options.machine ? { machine: async () => options.machine! } : {}),
    connect: async ({ global }) => {
      if (options.connectError) throw options.connectError;
      if (!reader) throw new Error("this test has no cluster");
      const extra = { ...(options.origin ? { origin: options.origin } : {}), ...(options.inspector ? { inspector: options.inspector } : {}) };
      return { reader, namespace: global.namespace ?? options.namespace ?? "default", contextName: "test", ...extra };
    },
  });
  return { ...result, emitted };
}
