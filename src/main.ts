// The only file that touches `process`: argv, env, streams, TTY, the real clock, exit code.
import { runCli } from "./cli/run.ts";

declare const PTAH_VERSION: string | undefined;

async function main(): Promise<void> {
  const controller = new AbortController();
  process.once("SIGINT", () => {
    controller.abort();
    process.exitCode = 130;
  });
  // A closed pipe (`| head`) is not an error worth a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
  const result = await runCli({
    argv: process.argv.slice(2),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    width: process.stdout.columns ?? 0,
    now: new Date(),
    clock: () => new Date(),
    version: typeof PTAH_VERSION === "string" ? PTAH_VERSION : "dev",
    signal: controller.signal,
    emit: (text) => {
      process.stdout.write(text);
    },
  });
  await write(process.stdout, result.stdout);
  await write(process.stderr, result.stderr);
  // Exit now: a request still retrying in the background (one of several parallel reads,
  // after another failed) must not hold the process once the answer is written.
  process.exit(result.status);
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (!text) return resolve();
    stream.write(text, () => resolve());
  });
}

main().catch((err: unknown) => {
  // Unreachable by design (runCli catches everything); still one line, never a stack.
  process.stderr.write(`error: internal: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
