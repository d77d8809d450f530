// The contract of one lab service (etcd, kube-apiserver, kubeconfigs, manifests, the simulator,
// …) and the helpers a service that runs a process shares. lab/services.ts lists the services
// in start order and drives them.
import type { LabContext } from "./config.ts";
import { say } from "./errors.ts";
import { alive, spawnDetached, terminate } from "./processes.ts";
import { writeState, type LabState } from "./state.ts";

export interface LabService {
  /** Its name; a service that runs a process records it under this key in lab.json `pids` and `commands`. */
  readonly name: string;
  /**
   * A fresh lab: start it and return once it is ready, recording in `state` what later services
   * and the tests need (pids, ports, files). Services before it in the list are ready. Throwing
   * (a LabError names the step and log) fails the start; every service is then stopped.
   */
  start(lab: LabContext, state: LabState): Promise<void>;
  /** A healthy lab that `start` reuses: bring this service up to date (e.g. re-apply changed files). */
  refresh?(lab: LabContext, state: LabState): Promise<void>;
  /**
   * Why the running lab is not healthy because of this service, or undefined. `start` restarts an
   * unhealthy lab from scratch, `status` and `env` report it and exit 3. A service that `refresh`
   * can bring back by itself (the simulator) has no check.
   */
  check?(lab: LabContext, state: LabState): Promise<string | undefined>;
  /** Stop what `start` started; called in reverse list order by `stop` and after a failed start. Must not throw when nothing runs. */
  stop?(lab: LabContext, state: LabState): Promise<void>;
  /** Delete its run data (after stop; the next start is clean). Logs stay. */
  wipe?(lab: LabContext): void;
  /** True for the argument vector of one of its processes: finds leftovers when lab.json was deleted by hand. */
  owns?(lab: LabContext, args: readonly string[]): boolean;
}

/** Spawns a service's process detached (cwd .lab, output to `logFile`), records its pid and command, and writes lab.json. */
export function startProcess(
  lab: LabContext,
  state: LabState,
  name: string,
  command: string,
  args: readonly string[],
  logFile: string,
  options: { env?: NodeJS.ProcessEnv; append?: boolean; recordedCommand?: string } = {},
): number {
  const pid = spawnDetached(lab.paths.dir, command, args, logFile, options.env, options.append ? "a" : "w");
  state.pids[name] = pid;
  // What `alive` looks for in the process's command line (for `node X.mjs`, X.mjs).
  state.commands[name] = options.recordedCommand ?? command;
  writeState(lab, state);
  return pid;
}

/** The recorded process of `name` is alive (and still runs its command). */
export function processAlive(state: LabState, name: string): boolean {
  return alive(state.pids[name], state.commands[name]);
}

/** The check of a process service: its recorded pid is gone. */
export function processDown(state: LabState, name: string): string | undefined {
  const pid = state.pids[name];
  return pid !== undefined && !processAlive(state, name) ? `${name} (pid ${pid}) is not running` : undefined;
}

/** The stop of a process service: SIGTERM to its group, SIGKILL after the grace period. */
export async function stopProcess(lab: LabContext, state: LabState, name: string): Promise<void> {
  const pid = state.pids[name];
  if (!pid || !processAlive(state, name)) return;
  say(`stopping ${name} (pid ${pid})`);
  await terminate(pid, lab.timeouts.stop);
}
