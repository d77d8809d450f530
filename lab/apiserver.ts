// kube-apiserver on a free 127.0.0.1 port: TLS from the lab CA, client certificates, RBAC, the
// audit log (.lab/audit.log, policy lab/audit-policy.yaml), no controller-manager. Also the
// fault tests' restart: stop only the apiserver, start it again with the same arguments.
import fs from "node:fs";
import path from "node:path";
import type { LabContext } from "./config.ts";
import { etcdUrl } from "./etcd.ts";
import { say } from "./errors.ts";
import { httpGet } from "./net.ts";
import { clientTls, pkiFile } from "./pki.ts";
import { commandLine, terminate, waitFor } from "./processes.ts";
import { processAlive, processDown, startProcess, stopProcess, type LabService } from "./service.ts";
import { writeState, type LabState } from "./state.ts";

function apiserverArgs(lab: LabContext, state: LabState): string[] {
  const pki = (f: string) => pkiFile(lab, f);
  return [
    `--etcd-servers=${etcdUrl(state)}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    `--secure-port=${state.ports.apiserver}`,
    `--cert-dir=${pki("apiserver")}`,
    `--tls-cert-file=${pki("apiserver.crt")}`,
    `--tls-private-key-file=${pki("apiserver.key")}`,
    `--client-ca-file=${pki("ca.crt")}`,
    `--service-account-issuer=${state.server}`,
    `--service-account-key-file=${pki("sa.pub")}`,
    `--service-account-signing-key-file=${pki("sa.key")}`,
    "--service-cluster-ip-range=10.0.0.0/24",
    "--allow-privileged=true",
    "--authorization-mode=RBAC",
    // No controller-manager: nothing would create the default ServiceAccount per namespace.
    "--disable-admission-plugins=ServiceAccount",
    // A loopback address cannot be published as the `kubernetes` Service endpoint.
    "--endpoint-reconciler-type=none",
    `--audit-policy-file=${lab.repo.auditPolicy}`,
    `--audit-log-path=${lab.paths.auditLog}`,
    "--audit-log-format=json",
    "--audit-log-mode=blocking",
    // The log is written through a rotating writer; make rotation practically unreachable
    // (100 GB) so the audit check sees every request of a test run in one file.
    "--audit-log-maxsize=100000",
    "--audit-log-maxbackup=1",
    "--profiling=false",
  ];
}

async function waitReady(lab: LabContext, state: LabState): Promise<void> {
  const admin = clientTls(state, "admin");
  await waitFor("kube-apiserver /readyz", lab.paths.logs.apiserver, lab.timeouts.apiserver, state.pids.apiserver, async () => {
    const r = await httpGet(`${state.server}/readyz`, admin);
    return r.status === 200;
  });
}

export const apiserver: LabService = {
  name: "apiserver",

  async start(lab, state) {
    say(`starting kube-apiserver ${lab.versions.kubernetes} on ${state.server}`);
    fs.rmSync(lab.paths.auditLog, { force: true });
    const args = apiserverArgs(lab, state);
    state.apiserverArgs = args;
    startProcess(lab, state, "apiserver", path.join(state.binDir, "kube-apiserver"), args, lab.paths.logs.apiserver);
    await waitReady(lab, state);
  },

  async check(lab, state) {
    if (!state.pids.apiserver) return "kube-apiserver was never started";
    const down = processDown(state, "apiserver");
    if (down) return down;
    try {
      const r = await httpGet(`${state.server}/readyz`, clientTls(state, "admin"), lab.timeouts.health);
      return r.status === 200 ? undefined : `/readyz answered ${r.status}`;
    } catch (err) {
      return `/readyz: ${(err as Error).message}`;
    }
  },

  stop: (lab, state) => stopProcess(lab, state, "apiserver"),
  owns: (lab, args) => args.some((a) => a === `--audit-log-path=${lab.paths.auditLog}`) && (args[0]?.endsWith("/kube-apiserver") ?? false),
};

/** kube-apiserver's version as it reports it, for `lab status`. */
export async function apiserverVersion(state: LabState): Promise<string> {
  const r = await httpGet(`${state.server}/version`, clientTls(state, "admin")).catch(() => undefined);
  return r?.status === 200 ? (JSON.parse(r.body) as { gitVersion: string }).gitVersion : "unknown";
}

/**
 * Stops kube-apiserver alone (SIGTERM, then SIGKILL): clients see their connections close and
 * then refused, as in an apiserver restart. etcd and its data stay; restartApiserver resumes.
 */
export async function stopApiserverOnly(lab: LabContext, state: LabState): Promise<void> {
  const pid = state.pids.apiserver;
  if (!pid || !processAlive(state, "apiserver")) {
    say("kube-apiserver is not running");
    return;
  }
  // A lab started before apiserverArgs was recorded: take them from the running process.
  if (!state.apiserverArgs && process.platform === "linux") {
    state.apiserverArgs = commandLine(pid)?.slice(1);
    writeState(lab, state);
  }
  say(`stopping kube-apiserver (pid ${pid}); etcd keeps running`);
  await terminate(pid, lab.timeouts.stop);
}

/** Can the apiserver be started again (recorded arguments, etcd alive)? */
export function restartable(state: LabState | undefined): state is LabState & { apiserverArgs: string[] } {
  return Boolean(state?.apiserverArgs) && processAlive(state!, "etcd");
}

/** Starts kube-apiserver again with the arguments (and so the port, PKI and audit log) it had; its log is appended to. */
export async function restartApiserver(lab: LabContext, state: LabState & { apiserverArgs: string[] }): Promise<void> {
  if (!processAlive(state, "apiserver")) {
    say(`starting kube-apiserver again on ${state.server}`);
    startProcess(lab, state, "apiserver", state.commands.apiserver ?? path.join(state.binDir, "kube-apiserver"), state.apiserverArgs, lab.paths.logs.apiserver, { append: true });
  }
  await waitReady(lab, state);
  say("kube-apiserver is ready");
}
