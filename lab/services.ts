// The lab's services in start order, and what drives them: a fresh start walks the list
// (each service ready before the next starts), stop walks it backwards, a health check asks
// every service, a reused lab lets each refresh itself. A new service (e.g. a database the
// simulator talks to) is one LabService (lab/service.ts) and one entry here, after the services
// it needs and before those that need it.
import { apiserver } from "./apiserver.ts";
import type { LabContext } from "./config.ts";
import { etcd } from "./etcd.ts";
import { say } from "./errors.ts";
import { kubeconfigs } from "./kubeconfigs.ts";
import { manifests } from "./manifests.ts";
import { postgres } from "./postgres-service.ts";
import { findProcesses, terminate } from "./processes.ts";
import type { LabService } from "./service.ts";
import { simulator } from "./simulator.ts";
import { removeStateFiles, writeState, type LabState } from "./state.ts";

export const SERVICES: readonly LabService[] = [etcd, apiserver, kubeconfigs, manifests, postgres, simulator];

/** Starts every service in order, writing lab.json after each; on failure stops what started (unless PTAH_LAB_KEEP_ON_FAILURE). */
export async function startServices(lab: LabContext, state: LabState, services = SERVICES): Promise<void> {
  try {
    for (const service of services) {
      await service.start(lab, state);
      writeState(lab, state);
    }
  } catch (err) {
    if (Object.keys(state.pids).length > 0 && !lab.env.PTAH_LAB_KEEP_ON_FAILURE) {
      say("stopping what was started (set PTAH_LAB_KEEP_ON_FAILURE=1 to keep it for debugging)");
      await stopServices(lab, state, services);
      wipeServices(lab, services);
    }
    throw err;
  }
}

/** Stops every service, last started first. */
export async function stopServices(lab: LabContext, state: LabState, services = SERVICES): Promise<void> {
  for (const service of [...services].reverse()) await service.stop?.(lab, state);
}

/** Removes lab.json and what describes the running lab, and every service's data. */
export function wipeServices(lab: LabContext, services = SERVICES): void {
  removeStateFiles(lab);
  for (const service of services) service.wipe?.(lab);
}

/** The first reason the recorded lab is not healthy, in service order, or undefined. */
export async function checkServices(lab: LabContext, state: LabState, services = SERVICES): Promise<string | undefined> {
  for (const service of services) {
    const reason = await service.check?.(lab, state);
    if (reason) return reason;
  }
  return undefined;
}

/** A healthy lab that start reuses: every service brings itself up to date, in order. */
export async function refreshServices(lab: LabContext, state: LabState, services = SERVICES): Promise<void> {
  for (const service of services) await service.refresh?.(lab, state);
}

/**
 * A lab whose lab.json was deleted by hand may still have processes: they run with this lab's
 * folder in their arguments, so each service can recognise its own without guessing.
 */
export async function stopLeftovers(lab: LabContext, services = SERVICES): Promise<void> {
  for (const pid of findProcesses((args) => services.some((s) => s.owns?.(lab, args) ?? false))) {
    say(`stopping a leftover lab process (pid ${pid})`);
    await terminate(pid, lab.timeouts.stop);
  }
}
