// The process's entry: argv, env, the streams, the TTYs, the real clock, SIGINT and the exit
// code are read or set here and handed to runCli; commands see only their context. Two other
// modules read `process` for facts no context carries: cli/local.ts (the running executable and
// the platform, for doctor's PATH check) and kube/request-log.ts (the pid in klog's line).
import { fstatSync, statSync } from "node:fs";
import { startupSnapshot } from "node:v8";
import { fdOutput, type FdOutput } from "./cli/fd-output.ts";
import { installEgressGuard, installProcessGuard, takeEgressRefusal } from "./cli/process-guard.ts";
import { versionAnswer } from "./cli/version-flag.ts";

declare const PTAH_VERSION: string | undefined;

async function main(): Promise<void> {
  // First, at every start (in the single binary, after its snapshot is restored, never while it is
  // built): no command's code has loaded yet, and from here on this process starts no program,
  // worker or native addon and writes nothing outside its named exceptions (cli/process-guard.ts).
  installProcessGuard();
  installEgressGuard();
  const version = typeof PTAH_VERSION === "string" ? PTAH_VERSION : "dev";
  const argv = process.argv.slice(2);
  // `--version` answers before the CLI (every command, the zod models) is even loaded: that load
  // is most of a start. The same function as runCli asks (cli/version-flag.ts).
  const early = versionAnswer(argv, version);
  const stdoutIsTTY = isTerminal(1);
  const out = output(1, () => process.stdout);
  const err = output(2, () => process.stderr);
  if (early !== undefined) {
    await out.write(early);
    process.exit(0);
  }
  const { runCli } = await import("./cli/run.ts");
  const controller = new AbortController();
  process.once("SIGINT", () => {
    controller.abort();
    process.exitCode = 130;
  });
  const result = await runCli({
    argv,
    env: process.env,
    stdoutIsTTY,
    // isatty(0), not process.stdin.isTTY: reading process.stdin builds the stdin stream (~4 ms of
    // a start in a profile), which no command reads; and asked only when a connection asks it
    // (an exec credential plugin's prompt), so an offline command never loads node:tty.
    get stdinIsTTY() {
      return isTerminal(0);
    },
    width: stdoutIsTTY ? (process.stdout.columns ?? 0) : 0,
    now: new Date(),
    clock: () => new Date(),
    version,
    signal: controller.signal,
    emit: (text) => {
      void out.write(text);
    },
    log: (line) => {
      void err.write(`${line}\n`);
    },
    // Built only when a command reads it (`mcp`): the stream loads Node's stream stack.
    input: () => process.stdin,
  });
  // A refusal of the egress guard that came after the line's answer (a plant's deferred call):
  // still the one answer, with nothing on stdout.
  const late = takeEgressRefusal();
  if (late) {
    await err.write(`error: ${late.message}\n`);
    process.exit(1);
  }
  await out.write(result.stdout);
  await err.write(result.stderr);
  // Exit now: a request still retrying in the background (one of several parallel reads,
  // after another failed) must not hold the process once the answer is written. Interrupted
  // (Ctrl-C ends a watch or wait by design): 128 + SIGINT, as a shell reports it.
  process.exit(controller.signal.aborted ? 130 : result.status);
}

/**
 * isatty(fd), without loading node:tty when fd cannot be a terminal: node:tty loads Node's stream
 * and net stack (~30 internal modules, ~4 ms), and only a character device can be a terminal. The
 * null device is a character device that never is one, and the usual one: a script that wants only
 * the exit status sends the answer to /dev/null.
 */
function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    if (process.platform !== "win32" && stat.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

/**
 * stdout or stderr, written with fs.writeSync (cli/fd-output.ts: the stream is only built if a
 * write cannot be made that way); on Windows, whose console wants the stream, through the stream.
 * A closed pipe (`| head`) is not an error worth a stack trace.
 */
function output(fd: number, stream: () => NodeJS.WriteStream): FdOutput {
  const closed = (): never => process.exit(process.exitCode ?? 0);
  if (process.platform === "win32") {
    stream().on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") closed();
    });
    return { write: (text) => write(stream(), text) };
  }
  return fdOutput(fd, stream, closed);
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (!text) return resolve();
    stream.write(text, () => resolve());
  });
}

function start(): void {
  main().catch((err: unknown) => {
    // Unreachable by design (runCli catches everything); still one line, never a stack.
    process.stderr.write(`error: internal: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}

// The single binary's startup-snapshot form (krew/build-binary.mjs --snapshot; by default the
// binary runs the npm tree, where node:v8 is a stub and this never holds): while it is built, the
// CLI is loaded and initialised (the parser, every command, the zod models) into the snapshot, and
// each start of the binary only runs main(). Nothing read from the machine (argv,
// env, streams, clock) is touched before main() runs; the connection code loads on demand after.
if (startupSnapshot?.isBuildingSnapshot()) {
  // Every command too (loadAllCommands): the snapshot holds them initialised, where the npm bin
  // loads only the one that runs (commands/registry.ts).
  void import("./cli/run.ts").then((m) => m.loadAllCommands()).then(() => startupSnapshot.setDeserializeMainFunction(start));
} else start();
