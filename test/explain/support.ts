// Runs `explain` in-process with a context whose connect() fails, so any test passing
// through here also proves the command stayed offline.
import { makeExplainCommand, type Diagnose } from "../../src/commands/explain.ts";
import type { GlobalOptions, RunContext } from "../../src/commands/types.ts";
import { exitStatusOf, formatError } from "../../src/errors.ts";

export interface ExplainRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
  readonly connects: number;
}

export interface ExplainRunOptions {
  readonly output?: string;
  readonly width?: number;
  readonly diagnose?: Diagnose;
}

const NOW = new Date("2026-09-13T09:00:00Z");

export async function runExplain(positionals: readonly string[], options: ExplainRunOptions = {}): Promise<ExplainRun> {
  const global: GlobalOptions = {
    kubeconfig: undefined,
    context: undefined,
    namespace: undefined,
    allNamespaces: false,
    output: options.output,
    selector: undefined,
    noHeaders: false,
    color: false,
    requestTimeoutMs: 0,
    overrides: {},
    verbosity: 0,
    warningsAsErrors: false,
  };
  let connects = 0;
  const ctx: RunContext = {
    global,
    now: NOW,
    width: options.width ?? 80,
    isTTY: false,
    connect: () => {
      connects++;
      return Promise.reject(new Error("explain connected to a cluster"));
    },
    emit: () => undefined,
    signal: new AbortController().signal,
    version: "v0.0.0-test",
    clock: () => NOW,
  };
  const command = makeExplainCommand(options.diagnose);
  try {
    const parsed = command.toOptions({ positionals, flags: {}, global });
    const out = await command.run(parsed, ctx);
    return { stdout: out.stdout, stderr: out.stderr ?? "", status: 0, connects };
  } catch (err) {
    return { stdout: "", stderr: formatError(err), status: exitStatusOf(err), connects };
  }
}
