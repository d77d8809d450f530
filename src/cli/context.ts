// What the shell is given (the process, or a test) and the one RunContext it builds from it.
// runCli and completion both use shellContext, so a command sees the same clock, signal,
// streams and connection however it was reached.
import { closeSync, openSync, readFileSync } from "node:fs";
import type { Connection, GlobalOptions, LineEnvironment, LineResult, LocalFacts, Registry, RunContext } from "../commands/command-types.ts";
import { COMPLETION_REQUEST_TIMEOUT_MS } from "../commands/shared/candidates.ts";
import { LAZY_COMMANDS } from "../commands/registry.ts";
import { RefusalError, UsageError } from "../errors.ts";
import { readAtMost } from "../kube/bounded-read.ts";
import { createNewFile, openDoor, startCredentialPlugin } from "./process-guard.ts";

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
  /** Replaces the registry (commands/registry.ts): a test's own command is parsed, helped and completed alike. */
  readonly commands?: Registry;
  /** Standard input (main.ts: process.stdin, read only when a command asks: `mcp`). */
  readonly input?: () => AsyncIterable<Uint8Array>;
}

/** Runs one command line in a shell like this one (cli/run.ts's runCli, handed in: no import cycle). */
export type LineRunner = (environment: Environment) => Promise<LineResult>;

/** A file named on the command line (-o custom-columns-file), with kubectl's wording when unreadable. */
function readFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message;
    throw new UsageError(`error reading template ${file}, open ${file}: ${reason}`);
  }
}

/**
 * A file named by -f, byte for byte, with kubectl's wording when it is not there; at most
 * `maxBytes`: a longer file is refused in one line saying `bound` (why no such file is needed).
 * Read a chunk at a time (kube/bounded-read.ts).
 */
function readBytes(file: string, maxBytes: number, bound: string): Uint8Array {
  const tooLarge = (): RefusalError => new RefusalError(`${file} is larger than ${maxBytes} bytes; ${bound}`);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new UsageError(`the path "${file}" does not exist`);
    throw new UsageError(`error reading ${file}: ${(err as Error).message}`);
  }
  try {
    return readAtMost(fd, maxBytes, tooLarge);
  } catch (err) {
    if (err instanceof RefusalError) throw err;
    throw new UsageError(`error reading ${file}: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** Creates `file` (exclusive create: an existing file, perhaps an earlier export, is never replaced). */
function writeNewFile(file: string, text: string): void {
  try {
    createNewFile(file, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new RefusalError(`${file} already exists; an export never replaces a file`);
    throw new RefusalError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

/** The context a command runs in; it connects at most once, and only when asked. */
export function shellContext(environment: Environment, global: GlobalOptions, runner?: LineRunner): RunContext {
  let connection: Promise<Connection> | undefined;
  return {
    ...(environment.input ? { input: environment.input } : {}),
    ...(runner ? { runLine: (argv: readonly string[], line: LineEnvironment) => runner(lineEnvironment(environment, argv, line)) } : {}),
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
    readBytes,
    writeNewFile,
    allCommands: async () => environment.commands ?? LAZY_COMMANDS.all(),
    machine: environment.machine ?? (() => import("./local.ts").then((m) => m.inspectMachine(environment.env))),
    pluginsOnPath: environment.machine ? () => environment.machine!().then((m) => m.plugins) : () => import("./local.ts").then((m) => m.pluginsOnPath(environment.env.PATH)),
    connect: () => {
      connection ??= environment.connect
        ? environment.connect({ global })
        : import("../kube/connect.ts").then((m) =>
            m.connect(global, {
              env: environment.env,
              version: environment.version,
              stdinIsTTY: environment.stdinIsTTY,
              log: environment.log ?? (() => {}),
              // The one child process a connection may start, as the process guard allows it.
              startCredentialPlugin,
              // The one door to the network, to this connection's server and proxy.
              openDoor,
            }),
          );
      // A failed connect is not kept: a long-lived command (mcp) tries again on its next call.
      const made = connection;
      made.catch(() => {
        if (connection === made) connection = undefined;
      });
      return made;
    },
    // A fleet command (inbox, status, ledger with --contexts) reads each context through its own
    // sibling context: the same shell, global.context set to that name, its own connection.
    forContext: (name) => shellContext(environment, { ...global, context: name }),
    kubeconfigContexts: async () => {
      const { loadKubeconfig } = await import("../kube/connect.ts");
      const doc = loadKubeconfig({ kubeconfig: global.kubeconfig }, environment.env);
      return (doc.contexts ?? []).map((c) => String(c.name));
    },
  };
}

/**
 * Another line in this shell (an MCP tool call): its own argv, clock reading and signal; the
 * caller's connection (the line's -n applied to it); nothing streamed; not a terminal; and a look
 * at this machine that starts no program (doctor's kubectl version is not asked).
 */
function lineEnvironment(environment: Environment, argv: readonly string[], line: LineEnvironment): Environment {
  const now = environment.clock();
  return {
    argv,
    env: environment.env,
    stdoutIsTTY: false,
    stdinIsTTY: false,
    width: 0,
    now,
    clock: environment.clock,
    version: environment.version,
    signal: line.signal,
    emit: () => {},
    ...(environment.log ? { log: environment.log } : {}),
    connect: ({ global }) => line.connect(global),
    machine: environment.machine ?? (() => import("./local.ts").then((m) => m.inspectMachine(environment.env, false))),
    ...(environment.commands ? { commands: environment.commands } : {}),
  };
}

/**
 * The shell's context for completing one line: the -n, --context, --kubeconfig, --cluster,
 * --user, --server and --as typed on it, a short request timeout, and never a prompt (an exec
 * credential plugin must not ask in the middle of a <TAB>).
 */
export function completionContext(environment: Environment, flags: ReadonlyMap<string, string>): RunContext {
  const get = (name: string): string | undefined => flags.get(name) || undefined;
  const global: GlobalOptions = {
    kubeconfig: get("kubeconfig"),
    context: get("context"),
    namespace: get("namespace"),
    allNamespaces: false,
    output: undefined,
    selector: undefined,
    noHeaders: false,
    color: false,
    requestTimeoutMs: COMPLETION_REQUEST_TIMEOUT_MS,
    overrides: { cluster: get("cluster"), user: get("user"), server: get("server"), as: get("as") },
    verbosity: 0,
    warningsAsErrors: false,
  };
  // The environment with stdinIsTTY false, its other members read through it as they are: a copy
  // by spread would read every getter, and main.ts's stdinIsTTY loads node:tty when asked.
  const neverPrompt = Object.defineProperty(Object.create(environment) as Environment, "stdinIsTTY", { value: false });
  return shellContext(neverPrompt, global);
}
