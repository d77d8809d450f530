// The lab's PostgreSQL as one service of the start sequence (lab/services.ts), after the
// manifests and before the operator simulator that applies plans to it. What it runs and how:
// lab/postgres.ts. It records its pid, port and version in lab.json and hands the simulator
// the path of postgres.json (PTAH_LAB_POSTGRES) and the PG* connection variables.
import path from "node:path";
import type { LabContext } from "./config.ts";
import { say } from "./errors.ts";
import { freePorts } from "./net.ts";
import { ownsPostgres, postgresExports, postgresPaths, postgresStatusLine, startPostgres, stopPostgres, wipePostgres } from "./postgres.ts";
import { processDown, type LabService } from "./service.ts";
import type { LabState } from "./state.ts";

export const postgres: LabService = {
  name: "postgres",

  async start(lab, state) {
    const [port] = (await freePorts(1)) as [number];
    const info = await startPostgres(lab.paths.dir, port, say);
    state.ports.postgres = info.port;
    state.pids.postgres = info.pid;
    state.commands.postgres = path.join(info.bin, "postgres");
    state.versions.postgres = info.version;
  },

  check: async (_lab, state) => (state.pids.postgres ? processDown(state, "postgres") : "PostgreSQL was never started"),
  stop: (lab) => stopPostgres(lab.paths.dir, say),
  wipe: (lab) => wipePostgres(lab.paths.dir),
  owns: (lab, args) => ownsPostgres(lab.paths.dir, args),
};

/** What the simulator needs to reach the lab's PostgreSQL (none before it started). */
export function postgresEnv(lab: LabContext, state: LabState): Record<string, string> {
  if (!state.pids.postgres) return {};
  return { PTAH_LAB_POSTGRES: postgresPaths(lab.paths.dir).json, PGHOST: "127.0.0.1", PGPORT: String(state.ports.postgres), PGUSER: "postgres" };
}

/** `export PGHOST=… PGPORT=… PGUSER=…` for `lab env` and `lab start`, and the `postgres:` line of `lab status`. */
export const postgresShell = { exports: (lab: LabContext) => postgresExports(lab.paths.dir), status: (lab: LabContext) => postgresStatusLine(lab.paths.dir) };
