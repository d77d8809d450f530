// A command line run in a child process whose memory and time are bounded from outside: the heap
// by --max-old-space-size, the run by a timeout that kills it. So a test of hostile input asserts
// its bounds by structure — a run that expands an input without bound dies on the heap limit and
// fails the test with V8's report, however fast the machine — never by a tight timed assertion.
// The child is the in-process harness (bounded-child.ts: runCliWith, the real shell and connection
// code) bundled once per test file with esbuild, its packages resolved from node_modules.
import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The child's heap: well above what any bounded input needs, far below what an unbounded one takes. */
export const CHILD_HEAP_MB = 256;
/** Generous: a bounded refusal takes well under a second; this only stops one that would not end. */
export const CHILD_TIMEOUT_MS = 45_000;

let bundled: Promise<string> | undefined;

/** Bundles the child once (under .cache/, so its packages resolve from the repository's node_modules). */
export function childScript(): Promise<string> {
  bundled ??= (async () => {
    const dir = path.join(ROOT, ".cache", "bounded-child");
    fs.mkdirSync(dir, { recursive: true });
    const outfile = path.join(dir, `child-${process.pid}.mjs`);
    await build({
      entryPoints: [path.join(ROOT, "test", "support", "bounded-child.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outfile,
      logLevel: "warning",
    });
    return outfile;
  })();
  return bundled;
}

/** Removes the bundled child (a test file's afterAll). */
export async function removeChildScript(): Promise<void> {
  if (!bundled) return;
  const script = await bundled.catch(() => undefined);
  bundled = undefined;
  if (script) fs.rmSync(script, { force: true });
}

export interface BoundedRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the timeout killed it. */
  readonly timedOut: boolean;
}

export interface BoundedOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Feeds the child's standard input (it is closed when this returns, unless `keepOpen`). */
  readonly feed?: (stdin: Writable) => void | Promise<void>;
  /**
   * Standard input through a pipe, as a shell's `|` makes it (`cat` in between), not the socket
   * Node gives a child: /dev/stdin opens only on a pipe or a file.
   */
  readonly pipe?: boolean;
  readonly keepOpen?: boolean;
  /** Ends the run when the child's stdout has this (mcp: the answers awaited); the child is then stopped. */
  readonly until?: (stdout: string) => boolean;
}

/** Runs `kubectl ptah ARGV…` in a bounded child. */
export async function boundedRun(argv: readonly string[], options: BoundedOptions): Promise<BoundedRun> {
  const script = await childScript();
  const args = [`--max-old-space-size=${CHILD_HEAP_MB}`, script, JSON.stringify(argv)];
  const child = options.pipe
    ? spawn("sh", ["-c", 'cat | exec "$@"', "sh", process.execPath, ...args], { env: options.env, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(process.execPath, args, { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, CHILD_TIMEOUT_MS);
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString("utf8");
    if (options.until?.(stdout)) child.stdin.end();
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  child.stdin.on("error", () => {}); // a child that stopped reading its input is not this test's failure
  const ended = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (status, signal) => resolve({ status, signal })));
  if (options.feed) await options.feed(child.stdin);
  if (!options.keepOpen && !child.stdin.destroyed) child.stdin.end();
  const { status, signal } = await ended;
  clearTimeout(timer);
  return { status, signal, stdout, stderr, timedOut };
}

/** Writes `chunk` until `times` are written or the reader went away (a refusal closes its input). */
export async function writeUntilClosed(stdin: Writable, chunk: Buffer, times: number): Promise<void> {
  for (let i = 0; i < times && !stdin.destroyed; i++) {
    if (stdin.write(chunk)) continue;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off("drain", done).off("close", done).off("error", done);
        resolve();
      };
      stdin.on("drain", done).on("close", done).on("error", done);
    });
  }
}
