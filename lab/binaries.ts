// The lab's binaries: kube-apiserver and etcd, compiled once from the Go module proxy by
// lab/build.sh into a version-keyed cache outside the repository, reused from there after.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { binDirFor, type LabContext } from "./config.ts";
import { LabError, say } from "./errors.ts";
import { isExecutable, killGroup, run, tail } from "./processes.ts";

const BINARIES = ["kube-apiserver", "etcd"] as const;

/** The folder holding both binaries, building them first when the cache lacks them. */
export async function ensureBinaries(lab: LabContext): Promise<string> {
  const expected = binDirFor(lab.versions, lab.env);
  if (BINARIES.every((b) => isExecutable(path.join(expected, b)))) return expected;
  await checkGo(lab);
  const { kubernetes, etcd } = lab.versions;
  const buildLog = lab.paths.logs.build;
  say(`building kube-apiserver ${kubernetes} and etcd ${etcd} into ${expected}`);
  say(`first build: 15-30 minutes on 2 cores; progress below, full output in ${buildLog}`);
  const t0 = Date.now();
  const { code, stdout, timedOut, lastStep } = await runBuild(lab);
  if (timedOut) {
    throw new LabError(`build (${lastStep})`, `timed out after ${lab.timeouts.build / 60_000} min (PTAH_LAB_BUILD_TIMEOUT_MIN)`, buildLog);
  }
  if (code !== 0) {
    throw new LabError(`build (${lastStep})`, `lab/build.sh exited with ${code}\n${tail(buildLog, 15)}`, buildLog);
  }
  const dir = stdout.trim().split("\n").pop()?.trim();
  const binDir = dir && isExecutable(path.join(dir, "kube-apiserver")) ? dir : expected;
  for (const b of BINARIES) {
    if (!isExecutable(path.join(binDir, b))) {
      throw new LabError("build", `lab/build.sh finished but ${path.join(binDir, b)} is missing`, buildLog);
    }
  }
  say(`build finished in ${Math.round((Date.now() - t0) / 1000)}s`);
  return binDir;
}

/** Runs lab/build.sh: its `[lab build]` lines go to stderr as they come, a heartbeat every minute, everything to build.log. */
async function runBuild(lab: LabContext): Promise<{ code: number; stdout: string; timedOut: boolean; lastStep: string }> {
  const log = fs.openSync(lab.paths.logs.build, "w");
  const t0 = Date.now();
  let lastStep = "starting lab/build.sh";
  let stdout = "";
  let partial = "";
  const child = spawn("bash", [lab.repo.buildScript], {
    cwd: lab.repo.repo,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PTAH_LAB_K8S: lab.versions.kubernetes, PTAH_LAB_ETCD: lab.versions.etcd },
  });
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    fs.writeSync(log, d);
  });
  child.stderr.on("data", (d: Buffer) => {
    fs.writeSync(log, d);
    partial += d.toString();
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("[lab build]")) {
        lastStep = line.replace(/^\[lab build\]\s*/, "").replace(/\s*\([^)]*\)\s*$/, "");
        process.stderr.write(`${line}\n`);
      }
    }
  });
  const heartbeat = setInterval(() => {
    const m = Math.round((Date.now() - t0) / 60_000);
    process.stderr.write(`[lab build] … still working (${m} min elapsed): ${lastStep}\n`);
  }, 60_000);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid) killGroup(child.pid, "SIGKILL");
  }, lab.timeouts.build);
  const code = await new Promise<number>((resolve) => child.on("close", (c, sig) => resolve(c ?? (sig ? 128 : 1))));
  clearInterval(heartbeat);
  clearTimeout(timer);
  fs.closeSync(log);
  return { code, stdout, timedOut, lastStep };
}

async function checkGo(lab: LabContext): Promise<void> {
  const r = await run("go", ["env", "GOVERSION"], { cwd: lab.repo.repo, timeoutMs: 30_000, step: "toolchain check" }).catch(() => undefined);
  const v = r && r.code === 0 ? r.stdout.trim() : "";
  const m = /^go(\d+)\.(\d+)/.exec(v);
  if (!m) {
    throw new LabError("toolchain check", "Go >= 1.26 is not on PATH; the first lab build compiles kube-apiserver and etcd from the Go module proxy", undefined, 4);
  }
  if (Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 26)) {
    throw new LabError("toolchain check", `found ${v}, but the lab build needs Go >= 1.26`, undefined, 4);
  }
}
