// The running lab as the e2e tests see it: its description (.lab/lab.json, the type and the
// constants are the lab's own, lab/state.ts and lab/config.ts) and the real `kubectl` as one of
// its identities. Synchronous (spawnSync) on purpose: tests set up fixtures step by step.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { labDirOf, labKubectl, labLayout, type LabUser } from "../../lab/config.ts";
import type { LabState } from "../../lab/state.ts";

export { LAB_USERS, type LabUser } from "../../lab/config.ts";

/** The content of .lab/lab.json, written by the lab (lab/state.ts). */
export type LabEnv = LabState;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export class LabNotRunningError extends Error {
  override name = "LabNotRunningError";
}

/** Where lab.json is: $PTAH_LAB_JSON, else $PTAH_LAB_DIR/lab.json, else <repo>/.lab/lab.json. */
export function labStatePath(): string {
  if (process.env.PTAH_LAB_JSON) return path.resolve(process.env.PTAH_LAB_JSON);
  return labLayout(labDirOf(REPO_ROOT)).state;
}

/** The running lab's description. Throws LabNotRunningError with a clear message when there is none. */
export function labEnv(): LabEnv {
  const file = labStatePath();
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new LabNotRunningError(
      `the lab is not running: ${file} does not exist. Start it with \`npm run lab\` (node lab/lab.mjs); ` + "the first start builds kube-apiserver and etcd and needs Go >= 1.26.",
    );
  }
  const env = JSON.parse(text) as LabEnv;
  if (!env.kubeconfig || !fs.existsSync(env.kubeconfig)) {
    throw new LabNotRunningError(`the lab described by ${file} has no kubeconfig; restart it with \`npm run lab\``);
  }
  return env;
}

/** True when lab.json exists (it does not probe the server; `node lab/lab.mjs status` does). */
export function labAvailable(): boolean {
  try {
    labEnv();
    return true;
  } catch {
    return false;
  }
}

/** Environment for a child process (the plugin, kubectl) that should talk to the lab as `user`. */
export function labProcessEnv(user: LabUser = "viewer", base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = labEnv();
  return { ...base, KUBECONFIG: env.kubeconfigs[user] };
}

export const KUBECTL = labKubectl();

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  /** Identity to run as (default "admin"). */
  as?: LabUser;
  /** Adds `-n <namespace>`. */
  namespace?: string;
  /** Written to stdin (for `-f -`). */
  input?: string;
  /** Throw when kubectl exits non-zero (default true). */
  check?: boolean;
  timeoutMs?: number;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<Record<string, unknown>>;
    [key: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Runs the real kubectl against the lab: `kubectl --kubeconfig <lab> --context lab-<as> …args`. */
export function kubectl(args: readonly string[], opts: KubectlOptions = {}): KubectlResult {
  const env = labEnv();
  const full = ["--kubeconfig", env.kubeconfig, "--context", env.contexts[opts.as ?? "admin"]];
  if (opts.namespace) full.push("--namespace", opts.namespace);
  full.push(...args);
  const r = spawnSync(KUBECTL, full, {
    input: opts.input ?? "",
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, KUBECONFIG: env.kubeconfig },
  });
  if (r.error) throw new Error(`cannot run ${KUBECTL}: ${r.error.message}`);
  const result = { code: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  if ((opts.check ?? true) && result.code !== 0) {
    throw new Error(`kubectl ${args.join(" ")} (as ${opts.as ?? "admin"}) exited with ${result.code}: ${result.stderr.trim()}`);
  }
  return result;
}

/** kubectl with `-o json`, parsed. */
export function kubectlJson<T = KubeObject>(args: readonly string[], opts: KubectlOptions = {}): T {
  return JSON.parse(kubectl([...args, "-o", "json"], opts).stdout) as T;
}
