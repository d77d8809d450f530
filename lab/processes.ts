// Processes: spawn detached (own process group, output to a log file), wait until ready,
// terminate (SIGTERM, then SIGKILL, the whole group), tell a live pid from a reused one, run a
// short command to completion, and find this lab's processes when lab.json is gone.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { LabError, sleep } from "./errors.ts";

/** Starts `cmd` detached in `cwd` with stdout/stderr to `logFile` (mode "w" truncates, "a" appends); returns its pid. */
export function spawnDetached(cwd: string, cmd: string, args: readonly string[], logFile: string, extraEnv: NodeJS.ProcessEnv = {}, mode: "w" | "a" = "w"): number {
  const fd = fs.openSync(logFile, mode);
  try {
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ["ignore", fd, fd], env: { ...process.env, ...extraEnv } });
    child.on("error", () => {}); // reported through the readiness wait and the log
    child.unref();
    if (!child.pid) throw new LabError(`start ${path.basename(cmd)}`, `could not spawn ${cmd}`, logFile);
    return child.pid;
  } finally {
    fs.closeSync(fd);
  }
}

/** Polls `probe` every 250 ms until it answers true; fails when `pid` exits or after `timeoutMs`, quoting the log's tail. */
export async function waitFor(step: string, logFile: string, timeoutMs: number, pid: number | undefined, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (pid && !alive(pid)) {
      throw new LabError(step, `the process exited before it was ready\n${tail(logFile, 20)}`, logFile);
    }
    try {
      if (await probe()) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(250);
  }
  throw new LabError(step, `not ready after ${timeoutMs / 1000}s${last ? ` (last error: ${last})` : ""}\n${tail(logFile, 20)}`, logFile);
}

/** SIGTERM to the process group, SIGKILL after `graceMs`; throws when even that does not end it. */
export async function terminate(pid: number, graceMs: number): Promise<void> {
  killGroup(pid, "SIGTERM");
  if (await exited(pid, graceMs)) return;
  killGroup(pid, "SIGKILL");
  if (await exited(pid, 5_000)) return;
  throw new LabError("stop", `process ${pid} did not exit after SIGKILL`);
}

async function exited(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return false;
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal); // detached children lead their own process group
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Alive and (when `command` is given) still the program we started: guards against pid reuse. */
export function alive(pid: number | undefined, command?: string): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (process.platform === "linux") {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (/^\d+ \(.*\) Z /.test(stat)) return false; // zombie
      // While a process is inside execve, /proc/<pid>/cmdline reads as empty for a moment (the new
      // image's arguments are not yet in place): alive, not some other program on a reused pid.
      const args = command ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
      if (command && args !== "" && !args.includes(command)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** The argument vector of a running process (Linux), or undefined. */
export function commandLine(pid: number): string[] | undefined {
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter((a) => a !== "");
  } catch {
    return undefined;
  }
}

/** Pids (other than ours) whose argument vector `matches` (Linux; elsewhere none). */
export function findProcesses(matches: (args: readonly string[]) => boolean): number[] {
  if (process.platform !== "linux") return [];
  const pids = fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  return pids.filter((pid) => pid !== process.pid && matches(commandLine(pid) ?? []));
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a short command to completion (stdin `input`), killed after `timeoutMs`. */
export function run(cmd: string, args: readonly string[], opts: { cwd: string; timeoutMs: number; step?: string; input?: string }): Promise<RunResult> {
  const step = opts.step ?? cmd;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new LabError(step, `${cmd} ${args.slice(0, 3).join(" ")}… timed out after ${opts.timeoutMs / 1000}s`));
    }, opts.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new LabError(step, `cannot run ${cmd}: ${err.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    // A child that exits without reading its stdin (openssl does) closes the pipe first: EPIPE
    // there is not the command's failure, its exit status says how it went.
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The last `n` lines of a log, indented, for an error message. */
export function tail(file: string, n: number): string {
  try {
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    return lines
      .slice(-n)
      .map((l) => `    ${l}`)
      .join("\n");
  } catch {
    return "";
  }
}
