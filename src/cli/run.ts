// The shell: parse → toOptions → run → { stdout, stderr, status }. stdout is returned only
// on success, so nothing unverified can reach it; every failure is one `error: …` line.
import { NotFoundError, UsageError, exitStatusOf, formatError } from "../errors.ts";
import { COMMANDS, findCommand } from "../commands/index.ts";
import type { Connection, RunContext } from "../commands/types.ts";
import { sanitizeMultiline } from "../render/sanitize.ts";
import { toGlobalOptions } from "./global-flags.ts";
import { runComplete } from "./complete.ts";
import { renderCommandHelp, renderRootHelp } from "./help.ts";
import { findCommandWord, parseCommandLine } from "./program.ts";

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
}

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

export async function runCli(environment: Environment): Promise<RunResult> {
  const argv = environment.argv;
  if (argv.length === 0) return { stdout: renderRootHelp(COMMANDS), stderr: "", status: 2 };
  const first = argv[0]!;
  // Shell completion (Cobra's protocol, hidden): always exit 0, nothing on stderr.
  if (first === "__complete") return { stdout: await runComplete(argv.slice(1), environment), stderr: "", status: 0 };
  if (first === "--version") return { stdout: `kubectl-ptah ${environment.version}\n`, stderr: "", status: 0 };
  if (first === "-h" || first === "--help") return { stdout: renderRootHelp(COMMANDS), stderr: "", status: 0 };
  if (first === "help") {
    const target = argv[1] ? findCommand(argv[1]) : undefined;
    return { stdout: target ? renderCommandHelp(target) : renderRootHelp(COMMANDS), stderr: "", status: 0 };
  }
  try {
    const { word, index } = findCommandWord(argv);
    const command = word === undefined ? undefined : findCommand(word);
    if (word === undefined) {
      // Only global flags: `kubectl ptah -n x --version` still answers the version.
      if (argv.includes("--version")) return { stdout: `kubectl-ptah ${environment.version}\n`, stderr: "", status: 0 };
      if (argv.includes("-h") || argv.includes("--help")) return { stdout: renderRootHelp(COMMANDS), stderr: "", status: 0 };
      parseCommandLine(argv, undefined);
      throw new UsageError("name a command");
    }
    if (!command) throw new UsageError(`unknown command "${word}" for "kubectl ptah"`);
    const rest = [...argv.slice(0, index), ...argv.slice(index + 1)];
    // -h/--help anywhere before `--` is a question, not a mistake (checked before flag parsing).
    const end = rest.indexOf("--");
    if ((end < 0 ? rest : rest.slice(0, end)).some((a) => a === "-h" || a === "--help")) {
      return { stdout: renderCommandHelp(command), stderr: "", status: 0 };
    }
    const line = parseCommandLine(rest, command);
    let global;
    try {
      global = toGlobalOptions(line.values, { stdoutIsTTY: environment.stdoutIsTTY, env: environment.env }, command.name !== "wait");
    } catch (err) {
      // A bad global flag is still this command's usage error: its -h hint names the command.
      if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, command.name);
      throw err;
    }
    const options = command.toOptions({ positionals: line.positionals, flags: line.values, global });
    let connection: Promise<Connection> | undefined;
    const ctx: RunContext = {
      global,
      now: environment.now,
      width: environment.width,
      isTTY: environment.stdoutIsTTY,
      signal: environment.signal,
      emit: environment.emit,
      clock: environment.clock,
      version: environment.version,
      connect: () => {
        connection ??= environment.connect
          ? environment.connect({ global })
          : import("../kube/connect.ts").then((m) =>
              m.connect(global, { env: environment.env, version: environment.version, stdinIsTTY: environment.stdinIsTTY, log: environment.log ?? (() => {}) }),
            );
        return connection;
      },
    };
    const output = await command.run(options, ctx);
    return { stdout: output.stdout, stderr: output.stderr ? sanitizeMultiline(output.stderr) : "", status: 0 };
  } catch (err) {
    if (environment.env.PTAH_DEBUG && err instanceof Error && !(err instanceof NotFoundError)) {
      return { stdout: "", stderr: sanitizeMultiline(formatError(err)) + (err.stack ?? "") + "\n", status: exitStatusOf(err) };
    }
    // The one line is sanitised as a whole: messages may quote cluster strings.
    return { stdout: "", stderr: `${sanitizeMultiline(formatError(err).trimEnd())}\n`, status: exitStatusOf(err) };
  }
}
