// etcd: one member on free 127.0.0.1 ports (client and peer), plain HTTP, data in
// .lab/etcd-data (wiped by stop), --unsafe-no-fsync (a test cluster: speed over durability).
import fs from "node:fs";
import path from "node:path";
import { say } from "./errors.ts";
import { httpGet } from "./net.ts";
import { waitFor } from "./processes.ts";
import { processDown, startProcess, stopProcess, type LabService } from "./service.ts";
import type { LabState } from "./state.ts";

export function etcdUrl(state: LabState): string {
  return `http://127.0.0.1:${state.ports.etcd}`;
}

export const etcd: LabService = {
  name: "etcd",

  async start(lab, state) {
    say(`starting etcd ${lab.versions.etcd} on 127.0.0.1:${state.ports.etcd}`);
    const url = etcdUrl(state);
    const peerUrl = `http://127.0.0.1:${state.ports.etcdPeer}`;
    const args = [
      "--name=lab",
      `--data-dir=${lab.paths.etcdData}`,
      "--unsafe-no-fsync",
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=lab=${peerUrl}`,
      "--initial-cluster-state=new",
      "--log-level=warn",
    ];
    const pid = startProcess(lab, state, "etcd", path.join(state.binDir, "etcd"), args, lab.paths.logs.etcd);
    await waitFor("etcd", lab.paths.logs.etcd, lab.timeouts.etcd, pid, async () => {
      const r = await httpGet(`${url}/health`, {});
      return r.status === 200 && /"health":\s*"true"/.test(r.body);
    });
  },

  check: async (_lab, state) => processDown(state, "etcd"),
  stop: (lab, state) => stopProcess(lab, state, "etcd"),
  wipe: (lab) => fs.rmSync(lab.paths.etcdData, { recursive: true, force: true }),
  owns: (lab, args) => args.some((a) => a === `--data-dir=${lab.paths.etcdData}`) && (args[0]?.endsWith("/etcd") ?? false),
};

/** etcd's version as it reports it, for `lab status`. */
export async function etcdVersion(state: LabState): Promise<string> {
  const r = await httpGet(`${etcdUrl(state)}/version`, {}).catch(() => undefined);
  return r?.status === 200 ? (JSON.parse(r.body) as { etcdserver: string }).etcdserver : "unknown";
}
