// .lab/lab.json, the machine-readable description of a running lab that the tests, the
// simulator, the demo and the benchmarks read; and .lab/lock, which makes concurrent lab
// commands wait for each other.
import fs from "node:fs";
import path from "node:path";
import { PLUGIN_GROUP, SENTINEL_USER, USERS, type LabContext, type LabUser } from "./config.ts";
import { LabError, say, sleep } from "./errors.ts";
import { alive } from "./processes.ts";

/** The content of .lab/lab.json (version 1). Fields are written in this order. */
export interface LabState {
  version: 1;
  labDir: string;
  /** kubeconfig with every context; current-context lab-admin. */
  kubeconfig: string;
  /** One kubeconfig per identity, whose current-context is that identity. */
  kubeconfigs: Record<LabUser, string>;
  /** https://127.0.0.1:<port> */
  server: string;
  caFile: string;
  auditLog: string;
  logs: Record<string, string>;
  ports: { etcd: number; etcdPeer: number; apiserver: number; [service: string]: number };
  /** Process ids by service (etcd, apiserver, sim, …). */
  pids: Record<string, number>;
  /** The program each pid runs (guards against pid reuse). */
  commands: Record<string, string>;
  /** Context names: admin → "lab-admin", viewer → "lab-viewer", … */
  contexts: Record<LabUser, string>;
  /** Client certificate files and the groups each identity has. */
  users: Record<LabUser, { name: string; groups: string[]; cert: string; key: string }>;
  /** The plugin's twins (lab/config.ts PLUGIN_GROUP): the same kubeconfigs with the twin certificates. */
  pluginKubeconfigs: Record<LabUser, string>;
  pluginUsers: Record<LabUser, { name: string; groups: string[]; cert: string; key: string }>;
  /** The read-only proof's probes (a plugin identity the real verdict leaves out). */
  sentinel: { name: string; groups: string[]; cert: string; key: string };
  binDir: string;
  versions: { kubernetes: string; etcd: string; postgres?: string };
  startedAt: string;
  /** Digest of lab/crds, rbac and the bindings as last applied. */
  manifestsDigest: string;
  /** kube-apiserver's arguments (start-apiserver reuses them). */
  apiserverArgs?: string[];
  /** Digest of the running simulator's bundle. */
  simDigest?: string;
}

/** The description of a lab about to start on these ports (nothing is running yet). */
export function newState(lab: LabContext, binDir: string, ports: { etcd: number; etcdPeer: number; apiserver: number }): LabState {
  const p = lab.paths;
  const byUser = <T>(f: (u: (typeof USERS)[number]) => T) => Object.fromEntries(USERS.map((u) => [u.key, f(u)])) as Record<LabUser, T>;
  return {
    version: 1,
    labDir: p.dir,
    kubeconfig: p.kubeconfig,
    kubeconfigs: byUser((u) => path.join(p.kubeconfigs, `${u.name}.yaml`)),
    server: `https://127.0.0.1:${ports.apiserver}`,
    caFile: path.join(p.pki, "ca.crt"),
    auditLog: p.auditLog,
    logs: { ...p.logs },
    ports: { ...ports },
    pids: {},
    commands: {},
    contexts: byUser((u) => u.name),
    users: byUser((u) => ({ name: u.name, groups: "org" in u ? [u.org] : [], cert: path.join(p.pki, `${u.name}.crt`), key: path.join(p.pki, `${u.name}.key`) })),
    pluginKubeconfigs: byUser((u) => path.join(p.kubeconfigs, "plugin", `${u.name}.yaml`)),
    pluginUsers: byUser((u) => ({
      name: u.name,
      groups: ["org" in u ? [u.org] : [], PLUGIN_GROUP].flat(),
      cert: path.join(p.pki, `${u.name}.plugin.crt`),
      key: path.join(p.pki, `${u.name}.plugin.key`),
    })),
    sentinel: { name: SENTINEL_USER.name, groups: [PLUGIN_GROUP], cert: path.join(p.pki, `${SENTINEL_USER.name}.crt`), key: path.join(p.pki, `${SENTINEL_USER.name}.key`) },
    binDir,
    versions: { ...lab.versions },
    startedAt: new Date().toISOString(),
    manifestsDigest: "",
  };
}

export function readState(lab: LabContext): LabState | undefined {
  try {
    return JSON.parse(fs.readFileSync(lab.paths.state, "utf8")) as LabState;
  } catch {
    return undefined;
  }
}

export function writeState(lab: LabContext, state: LabState): void {
  const tmp = `${lab.paths.state}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, lab.paths.state);
}

/** Removes what describes a running lab (lab.json, kubeconfigs, bindings); logs and the PKI stay. Services wipe their own data. */
export function removeStateFiles(lab: LabContext): void {
  const p = lab.paths;
  fs.rmSync(p.state, { force: true });
  fs.rmSync(p.kubeconfig, { force: true });
  fs.rmSync(p.kubeconfigs, { recursive: true, force: true });
  fs.rmSync(p.bindings, { force: true });
}

/** Waits for .lab/lock (a holder that died is ignored) and takes it; returns its release. */
export async function acquireLock(lab: LabContext): Promise<() => void> {
  const lock = lab.paths.lock;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + lab.timeouts.lock;
  let announced = false;
  for (;;) {
    try {
      const fd = fs.openSync(lock, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const release = () => fs.rmSync(lock, { force: true });
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number(fs.readFileSync(lock, "utf8").trim() || 0);
    if (!holder || !alive(holder)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (!announced) {
      say(`waiting for another lab command (pid ${holder}) to finish`);
      announced = true;
    }
    if (Date.now() > deadline) throw new LabError("lock", `${lock} is held by pid ${holder}`);
    await sleep(500);
  }
}

/** Runs `body` holding the lock. */
export async function withLock<T>(lab: LabContext, body: () => Promise<T>): Promise<T> {
  const release = await acquireLock(lab);
  try {
    return await body();
  } finally {
    release();
  }
}
