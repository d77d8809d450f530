// Processes for the runner: commands with a timeout that kills the whole process group, the
// plugin's PATH folder, the scenario namespace (labelled for the operator simulator), and the
// wait for the simulator's readiness record.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { admissionYaml } from "../../lab/admission.ts";
import { FIELD_MANAGER } from "../../lab/config.ts";
import { MANAGED_LABEL, MANAGED_VALUE } from "../sim/common.ts";
import { labEnv, uniqueName } from "../support/lab.ts";
import { REPO } from "./scenario.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ExecResult {
  exit: number;
  stdout: string;
  stderr: string;
}

export function exec(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string }, timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[runner] timed out after ${timeoutMs / 1000}s; killed\n`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ exit: 127, stdout, stderr: `${stderr}${err.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exit: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

let ownBinDir: string | undefined;

/** A folder with `kubectl-ptah` (the built bin/kubectl-ptah.js) for PATH. */
export function pluginBinDir(): string {
  if (process.env.PTAH_BIN_DIR && fs.existsSync(path.join(process.env.PTAH_BIN_DIR, "kubectl-ptah"))) return process.env.PTAH_BIN_DIR;
  if (!ownBinDir) {
    const target = path.join(REPO, "bin", "kubectl-ptah.js");
    if (!fs.existsSync(target)) throw new Error(`${target} is missing; run npm run build`);
    ownBinDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-scenario-bin-"));
    fs.symlinkSync(target, path.join(ownBinDir, "kubectl-ptah"));
  }
  return ownBinDir;
}

/** Creates the scenario's namespace, labelled so the operator simulator manages it. */
export function createScenarioNamespace(id: string): string {
  const env = labEnv();
  const ns = uniqueName(id.slice(0, 30));
  const manifest = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns, labels: { [MANAGED_LABEL]: MANAGED_VALUE, "lab.ptah.run/scenario": id } } });
  const r = spawnSync("kubectl", ["--kubeconfig", env.kubeconfig, "--context", env.contexts.admin, "create", "-f", "-"], { input: manifest, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cannot create namespace ${ns}: ${r.stderr}`);
  return ns;
}

/**
 * Sets the cluster's four-eyes switch: ptah-operator-admission with or without its writer entries,
 * applied as the lab applies it. The switch is cluster-wide, as upstream's is; scenarios run one at a time.
 */
export function setFourEyes(on: boolean): void {
  const env = labEnv();
  const args = ["--kubeconfig", env.kubeconfig, "--context", env.contexts.admin, "apply", "--server-side", "--force-conflicts", `--field-manager=${FIELD_MANAGER}`, "-f", "-"];
  const r = spawnSync("kubectl", args, { input: admissionYaml(on), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cannot turn four-eyes ${on ? "on" : "off"}: ${r.stderr}`);
}

/** Waits until the operator simulator says it is ready (the lab writes .lab/sim.json). */
export async function waitForSimulator(timeoutMs = 60_000): Promise<void> {
  const env = labEnv();
  const file = path.join(env.labDir, "sim.json");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const s = JSON.parse(fs.readFileSync(file, "utf8")) as { ready?: boolean; pid?: number };
      if (s.ready && s.pid) {
        process.kill(s.pid, 0);
        return;
      }
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`the operator simulator is not running (no ready ${file}); start the lab with: node lab/lab.mjs`);
    await sleep(250);
  }
}
