// What the shell is given (the process, or a test) and the one RunContext it builds from it.
// runCli and completion both use shellContext, so a command sees the same clock, signal,
// streams and connection however it was reached.
import fs from "node:fs";
import type { Connection, GlobalOptions, LocalFacts, RunContext } from "../commands/types.ts";
import { UsageError } from "../errors.ts";

export interface Environment {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdoutIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly width: number;
  readonly now: Date;
  readonly version: string;
  readonly signal: AbortSignal;
  /** Streaming writes (watch, wait). */
  readonly emit: (text: string) => void;
  /** Lines for stderr as they happen: -v request logs and the server's warnings (default: dropped). */
  readonly log?: (line: string) => void;
  readonly clock: () => Date;
  /** Replaces the real connection (tests). */
  readonly connect?: (ctx: Pick<RunContext, "global">) => Promise<Connection>;
  /** Replaces the look at this machine's PATH (tests). */
  readonly machine?: () => Promise<LocalFacts>;
}

/** A file named on the command line (-o custom-columns-file), with kubectl's wording when unreadable. */
function readFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message;
    throw new UsageError(`error reading template ${file}, open ${file}: ${reason}`);
  }
}

/** The context a command runs in; it connects at most once, and only when asked. */
export function shellContext(environment: Environment, global: GlobalOptions): RunContext {
  let connection: Promise<Connection> | undefined;
  return {
    global,
    now: environment.now,
    width: environment.width,
    isTTY: environment.stdoutIsTTY,
    signal: environment.signal,
    emit: environment.emit,
    log: environment.log ?? (() => {}),
    clock: environment.clock,
    version: environment.version,
    readFile,
    machine: environment.machine ?? (() => import("./local.ts").then((m) => m.inspectMachine(environment.env))),
    connect: () => {
      connection ??= environment.connect
        ? environment.connect({ global })
        : import("../kube/connect.ts").then((m) =>
            m.connect(global, {
              env: environment.env,
              version: environment.version,
              stdinIsTTY: environment.stdinIsTTY,
              log: environment.log ?? (() => {}),
            }),
          );
      return connection;
    },
  };
}
