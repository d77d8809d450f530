// Runs the real CLI shell in-process (parser, toOptions, run, error formatting) over a
// FakeReader, with a fixed clock, TZ=UTC, no colour and a fixed width.
import { runCli, type RunResult } from "../../src/cli/run.ts";
import type { ClusterReader } from "../../src/kube/types.ts";

export const FIXED_NOW = new Date("2026-11-30T12:00:00Z");

export interface CliOptions {
  readonly namespace?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: Date;
  readonly tty?: boolean;
  /** For watches: an aborted signal makes them list, print and return. */
  readonly signal?: AbortSignal;
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
    signal: options.signal ?? controller.signal,
    emit: (t) => {
      emitted += t;
    },
    connect: async ({ global }) => {
      if (!reader) throw new Error("this test has no cluster");
      return { reader, namespace: global.namespace ?? options.namespace ?? "default", contextName: "test" };
    },
  });
  return { ...result, emitted };
}
