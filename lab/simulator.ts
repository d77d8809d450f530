// The operator simulator's start (what it does: test/sim/README.md). When test/sim/main.ts
// exists, the lab bundles it (lab/bundle.mjs) into .lab/sim.mjs and runs `node .lab/sim.mjs`
// detached, with
//   KUBECONFIG=<lab admin kubeconfig>, PTAH_LAB_JSON=<.lab/lab.json>, PTAH_LAB_DIR=<.lab>,
//   PTAH_SIM_BUNDLE_DIGEST=<sha256 of the bundle>, PTAH_LAB_POSTGRES=<.lab/postgres.json>, PGHOST/PGPORT/PGUSER
// output to .lab/sim.log, its pid recorded as pids.sim. Start waits until the simulator says it
// is ready (.lab/sim.json: webhooks registered, watches listed). A reused lab rebuilds the bundle
// and restarts the simulator when the bundle changed (test/sim/** or what it imports was edited)
// or when it died. PTAH_LAB_SIM=0 skips it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { bundleForNode } from "./bundle.mjs";
import type { LabContext } from "./config.ts";
import { LabError, say } from "./errors.ts";
import { postgresEnv } from "./postgres-service.ts";
import { terminate, waitFor } from "./processes.ts";
import { processAlive, startProcess, stopProcess, type LabService } from "./service.ts";
import { writeState, type LabState } from "./state.ts";

function wanted(lab: LabContext): boolean {
  return lab.env.PTAH_LAB_SIM !== "0" && fs.existsSync(lab.repo.simEntry);
}

/** Bundles into sim.next.mjs and returns its digest (the running bundle is left alone). */
async function bundle(lab: LabContext): Promise<string> {
  const sim = lab.paths.sim;
  try {
    await bundleForNode(lab.repo.simEntry, sim.next);
  } catch (err) {
    throw new LabError("operator simulator (bundle test/sim/main.ts)", String((err as Error | undefined)?.message ?? err), lab.paths.logs.sim);
  }
  return `sha256:${createHash("sha256").update(fs.readFileSync(sim.next)).digest("hex")}`;
}

async function startSimulator(lab: LabContext, state: LabState, digest?: string): Promise<void> {
  const sim = lab.paths.sim;
  digest ??= await bundle(lab);
  fs.renameSync(sim.next, sim.bundle);
  fs.rmSync(sim.ready, { force: true });
  say("starting the operator simulator (test/sim/main.ts)");
  state.simDigest = digest;
  const pid = startProcess(lab, state, "sim", process.execPath, [sim.bundle], lab.paths.logs.sim, {
    // PTAH_ORACLE_SOURCES: the simulator publishes plan fingerprints computed by the Go oracle
    // (test/support/oracle-fingerprint.ts), not by the plugin, so what the lab records and the
    // plugin recomputes are two implementations agreeing; the bundle finds the oracle's sources here.
    env: {
      KUBECONFIG: state.kubeconfig,
      PTAH_LAB_JSON: lab.paths.state,
      PTAH_LAB_DIR: lab.paths.dir,
      PTAH_SIM_BUNDLE_DIGEST: digest,
      PTAH_ORACLE_SOURCES: path.join(lab.repo.repo, "test", "oracle"),
      ...postgresEnv(lab, state),
    },
    // The bundle, not node: a reused pid running another node program is not taken for the simulator.
    recordedCommand: sim.bundle,
  });
  await waitFor("operator simulator readiness (.lab/sim.json)", lab.paths.logs.sim, lab.timeouts.simulator, pid, async () => {
    const ready = JSON.parse(fs.readFileSync(sim.ready, "utf8")) as { ready?: boolean; pid?: number };
    return ready.ready === true && ready.pid === pid;
  });
}

export const simulator: LabService = {
  name: "sim",

  async start(lab, state) {
    if (wanted(lab)) await startSimulator(lab, state);
  },

  // A running lab: restart the simulator when it died or when its bundle changed.
  async refresh(lab, state) {
    if (!wanted(lab)) return;
    const running = processAlive(state, "sim");
    const digest = await bundle(lab);
    if (running && digest === state.simDigest) {
      fs.rmSync(lab.paths.sim.next, { force: true });
      return;
    }
    if (running) {
      say("test/sim changed since the simulator started; restarting it");
      await terminate(state.pids.sim!, lab.timeouts.stop);
    }
    await startSimulator(lab, state, digest);
    writeState(lab, state);
  },

  stop: (lab, state) => stopProcess(lab, state, "sim"),
  owns: (lab, args) => args[1] === lab.paths.sim.bundle,
};
