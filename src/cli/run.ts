// The shell: parse → toOptions → run → { stdout, stderr, status }, the one place a command's
// result becomes streams and an exit status. stdout carries what a command printed, or the
// report a refusal has (plan --verify's checks, never plan content); every failure is one
// `error: …` line on stderr.
import { NotFoundError, UsageError, exitStatusOf, formatError, sanitizeMultiline } from "../errors.ts";
import { LAZY_COMMANDS, registrySet } from "../commands/registry.ts";
import { checkObjectNames } from "../commands/shared/arguments.ts";
import { checkOutput } from "../commands/shared/output-flag.ts";
import { shellContext, type Environment } from "./context.ts";
import { takeEgressRefusal } from "./process-guard.ts";
import { toGlobalOptions } from "./global-flags.ts";
import { renderCommandHelp, renderRootHelp } from "./help.ts";
import { findCommandWord, parseCommandLine } from "./program.ts";
import { versionAnswer } from "./version-flag.ts";

export type { Environment };

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

export async function runCli(environment: Environment): Promise<RunResult> {
  const result = await runLine(environment);
  // A connection, listener, datagram or write the egress guard refused during the line (its
  // caller saw only EACCES, or nothing): the line's answer is that refusal, whatever it printed.
  const refused = takeEgressRefusal();
  return refused ? refusal(refused, environment, "") : result;
}

async function runLine(environment: Environment): Promise<RunResult> {
  const argv = environment.argv;
  // The headers are known at once; a declaration loads when its command runs (commands/registry.ts).
  const commands = environment.commands ? registrySet(environment.commands) : LAZY_COMMANDS;
  if (argv.length === 0) return { stdout: renderRootHelp(commands.headers), stderr: "", status: 2 };
  const first = argv[0]!;
  // Shell completion (Cobra's protocol, hidden): always exit 0, nothing on stderr.
  if (first === "__complete") {
    const { runComplete } = await import("./complete.ts");
    return { stdout: await runComplete(argv.slice(1), environment, commands), stderr: "", status: 0 };
  }
  const version = versionAnswer(argv, environment.version);
  if (version !== undefined) return { stdout: version, stderr: "", status: 0 };
  if (first === "-h" || first === "--help") return { stdout: renderRootHelp(commands.headers), stderr: "", status: 0 };
  if (first === "help") {
    const target = argv[1] ? await commands.load(argv[1]) : undefined;
    return { stdout: target ? renderCommandHelp(target) : renderRootHelp(commands.headers), stderr: "", status: 0 };
  }
  try {
    const { word, index } = findCommandWord(argv);
    const command = word === undefined ? undefined : await commands.load(word);
    if (word === undefined) {
      if (argv.includes("-h") || argv.includes("--help")) return { stdout: renderRootHelp(commands.headers), stderr: "", status: 0 };
      parseCommandLine(argv, undefined);
      // cobra's reading: the words after `--` are arguments, never the command.
      throw new UsageError(argv.includes("--") ? 'name a command before "--": the words after it are arguments, never a command' : "name a command");
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
      global = toGlobalOptions(line.values, { stdoutIsTTY: environment.stdoutIsTTY, env: environment.env }, command.ownsTimeout !== true);
    } catch (err) {
      // A bad global flag is still this command's usage error: its -h hint names the command.
      if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, command.name);
      throw err;
    }
    const options: unknown = command.toOptions({ positionals: line.positionals, flags: line.values, global });
    // -o against the formats the command declares, by the one parser (commands/shared/output-flag.ts):
    // a command that reads -o reads it there, at its own place in upstream's order of checks
    // (declaredOutput); one that does not is refused here all the same, before it runs.
    checkOutput(global.output, command.outputs, command.name);
    checkObjectNames(command.positionals, line.positionals, global.namespace);
    let result;
    try {
      result = await command.run(options, shellContext(environment, global, runCli));
    } catch (err) {
      // A flag found wrong only when the command runs (--sort-by's field, a custom-columns file).
      if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, command.name);
      throw err;
    }
    if (result.kind === "refused") return refusal(result.error, environment, result.report ?? "");
    return { stdout: result.stdout, stderr: result.stderr ? sanitizeMultiline(result.stderr) : "", status: result.exitStatus ?? 0 };
  } catch (err) {
    return refusal(err, environment, "");
  }
}

/** Loads every command's declaration and code (the single binary's snapshot holds them all). */
export async function loadAllCommands(): Promise<void> {
  await LAZY_COMMANDS.all();
}

/** A refusal: one sanitised `error: …` line (a stack too under PTAH_DEBUG), its exit status. */
function refusal(err: unknown, environment: Environment, report: string): RunResult {
  if (environment.env.PTAH_DEBUG && err instanceof Error && !(err instanceof NotFoundError)) {
    return { stdout: report, stderr: sanitizeMultiline(formatError(err)) + (err.stack ?? "") + "\n", status: exitStatusOf(err) };
  }
  // The one line is sanitised as a whole: messages may quote cluster strings.
  return { stdout: report, stderr: `${sanitizeMultiline(formatError(err).trimEnd())}\n`, status: exitStatusOf(err) };
}
