// The lab's start sequence (lab/services.ts): the services in their order, started one after
// the other, stopped last-first (also after a failed start, then wiped), health as the first
// service's reason, and the leftover matchers that find processes when lab.json is gone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { labContext, type LabContext } from "../../lab/config.ts";
import type { LabService } from "../../lab/service.ts";
import { SERVICES, checkServices, refreshServices, startServices, stopServices } from "../../lab/services.ts";
import { newState, readState } from "../../lab/state.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmpLab(extra: NodeJS.ProcessEnv = {}): LabContext {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-lab-services-"));
  dirs.push(dir);
  return labContext(dir, { PTAH_LAB_DIR: path.join(dir, ".lab"), ...extra });
}

/** A service that logs what is called on it; `fail` makes its start throw after recording a pid. */
function fake(name: string, calls: string[], opts: { fail?: boolean; reason?: string } = {}): LabService {
  return {
    name,
    async start(_lab, state) {
      calls.push(`start ${name}`);
      state.pids[name] = 1_000_000 + calls.length;
      if (opts.fail) throw new Error(`${name} failed`);
    },
    refresh: async () => void calls.push(`refresh ${name}`),
    check: async () => opts.reason,
    stop: async () => void calls.push(`stop ${name}`),
    wipe: () => void calls.push(`wipe ${name}`),
  };
}

describe("lab services", () => {
  it("start in the order etcd, apiserver, kubeconfigs, manifests, postgres, simulator", () => {
    expect(SERVICES.map((s) => s.name)).toEqual(["etcd", "apiserver", "kubeconfigs", "manifests", "postgres", "sim"]);
  });

  it("start one after the other, writing lab.json after each, and stop last-first", async () => {
    const lab = tmpLab();
    fs.mkdirSync(lab.paths.dir, { recursive: true });
    const calls: string[] = [];
    const services = [fake("a", calls), fake("b", calls), fake("c", calls)];
    const state = newState(lab, "/bin", { etcd: 1, etcdPeer: 2, apiserver: 3 });
    await startServices(lab, state, services);
    expect(calls).toEqual(["start a", "start b", "start c"]);
    expect(Object.keys(readState(lab)?.pids ?? {})).toEqual(["a", "b", "c"]);
    await refreshServices(lab, state, services);
    await stopServices(lab, state, services);
    expect(calls.slice(3)).toEqual(["refresh a", "refresh b", "refresh c", "stop c", "stop b", "stop a"]);
  });

  it("stop every service and wipe their data when one fails to start", async () => {
    const lab = tmpLab();
    fs.mkdirSync(lab.paths.dir, { recursive: true });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const calls: string[] = [];
    const services = [fake("a", calls), fake("b", calls, { fail: true }), fake("c", calls)];
    const state = newState(lab, "/bin", { etcd: 1, etcdPeer: 2, apiserver: 3 });
    await expect(startServices(lab, state, services)).rejects.toThrow("b failed");
    expect(calls).toEqual(["start a", "start b", "stop c", "stop b", "stop a", "wipe a", "wipe b", "wipe c"]);
    expect(readState(lab)).toBeUndefined();
  });

  it("keep what started for debugging with PTAH_LAB_KEEP_ON_FAILURE", async () => {
    const lab = tmpLab({ PTAH_LAB_KEEP_ON_FAILURE: "1" });
    fs.mkdirSync(lab.paths.dir, { recursive: true });
    const calls: string[] = [];
    const state = newState(lab, "/bin", { etcd: 1, etcdPeer: 2, apiserver: 3 });
    await expect(startServices(lab, state, [fake("a", calls), fake("b", calls, { fail: true })])).rejects.toThrow();
    expect(calls).toEqual(["start a", "start b"]);
  });

  it("report the first unhealthy service", async () => {
    const lab = tmpLab();
    const calls: string[] = [];
    const state = newState(lab, "/bin", { etcd: 1, etcdPeer: 2, apiserver: 3 });
    expect(await checkServices(lab, state, [fake("a", calls), fake("b", calls)])).toBeUndefined();
    expect(await checkServices(lab, state, [fake("a", calls), fake("b", calls, { reason: "b is down" }), fake("c", calls, { reason: "c" })])).toBe("b is down");
  });

  it("recognise this lab's own etcd, kube-apiserver, PostgreSQL and simulator processes, not another lab's", () => {
    const lab = tmpLab();
    const other = tmpLab();
    const owns = (l: LabContext, args: string[]) => SERVICES.some((s) => s.owns?.(l, args) ?? false);
    const etcd = ["/cache/etcd", "--name=lab", `--data-dir=${lab.paths.etcdData}`];
    const apiserver = ["/cache/kube-apiserver", `--audit-log-path=${lab.paths.auditLog}`];
    expect(owns(lab, etcd)).toBe(true);
    expect(owns(lab, apiserver)).toBe(true);
    expect(owns(other, etcd)).toBe(false);
    expect(owns(other, apiserver)).toBe(false);
    expect(owns(lab, ["/usr/bin/node", `--data-dir=${lab.paths.etcdData}`])).toBe(false);
    expect(owns(lab, [process.execPath, lab.paths.sim.bundle])).toBe(true);
    expect(owns(other, [process.execPath, lab.paths.sim.bundle])).toBe(false);
    const postmaster = ["/usr/lib/postgresql/15/bin/postgres", "-D", `${lab.paths.dir}/postgres/data`, "-c", "listen_addresses=127.0.0.1"];
    expect(owns(lab, postmaster)).toBe(true);
    expect(owns(other, postmaster)).toBe(false);
  });
});
