// A second, private lab for e2e tests that must change the control plane itself (stop its
// apiserver, run it without the operator simulator, delete the CRDs) without disturbing the
// shared one: its own PTAH_LAB_DIR, etcd, kube-apiserver, ports, PKI and audit log.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ADMIN_CONTEXT, labKubectl, labLayout, repoLayout } from "../../lab/config.ts";
import type { LabState } from "../../lab/state.ts";
import { REPO_ROOT } from "./lab.ts";

export type PrivateLabState = Readonly<Pick<LabState, "kubeconfig" | "kubeconfigs" | "server" | "auditLog" | "pids">>;

export class PrivateLab {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  /** `dir` under the repository's .cache/; `simulator` false sets PTAH_LAB_SIM=0. */
  constructor(name: string, options: { simulator: boolean }) {
    this.dir = path.join(REPO_ROOT, ".cache", name);
    this.env = { ...process.env, PTAH_LAB_DIR: this.dir, ...(options.simulator ? {} : { PTAH_LAB_SIM: "0" }) };
  }

  /** `node lab/lab.mjs COMMAND` for this lab; throws with its stderr on failure. */
  command(command: string, timeoutMs = 15 * 60_000): void {
    const r = spawnSync(process.execPath, [repoLayout(REPO_ROOT).launcher, command], { cwd: REPO_ROOT, env: this.env, encoding: "utf8", timeout: timeoutMs });
    if (r.status !== 0) throw new Error(`PTAH_LAB_DIR=${this.dir} node lab/lab.mjs ${command} exited ${String(r.status)}: ${r.stderr}`);
  }

  /** A fresh start (the binaries are cached; a start takes seconds). */
  start(): PrivateLabState {
    this.command("stop");
    this.command("start");
    return this.state();
  }

  state(): PrivateLabState {
    return JSON.parse(fs.readFileSync(labLayout(this.dir).state, "utf8")) as PrivateLabState;
  }

  /** kubectl as lab-admin of this lab. */
  kubectl(args: readonly string[], input?: string): string {
    const r = spawnSync(labKubectl(), ["--kubeconfig", this.state().kubeconfig, "--context", ADMIN_CONTEXT, ...args], { input: input ?? "", encoding: "utf8", timeout: 60_000 });
    if (r.status !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  }
}
