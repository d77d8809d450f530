// lab/postgres.ts's start, with stand-in server binaries (PTAH_LAB_PG_BIN): the postmaster is
// recorded in postgres.json as soon as it is spawned, so a stop during the readiness wait (the
// cleanup after any failed start) ends it instead of wiping the data folder from under a server
// left running — the leak behind a private lab's "PG_VERSION missing".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alive } from "../../lab/processes.ts";
import { readPostgresInfo, startPostgres, stopPostgres } from "../../lab/postgres.ts";

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A bin folder whose initdb succeeds, whose postgres runs and never answers, and whose psql never connects. */
function standIns(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-lab-pg-bin-"));
  dirs.push(dir);
  fs.chmodSync(dir, 0o755); // the cluster's user (postgres, when we are root) runs these
  const script = (name: string, body: string, shell = "/bin/sh") => fs.writeFileSync(path.join(dir, name), `#!${shell}\n${body}\n`, { mode: 0o755 });
  script("initdb", "exit 0");
  // Node, so that its argument vector keeps naming .../postgres (as the real postmaster's does) and SIGINT ends it.
  script("postgres", "setTimeout(() => {}, 60_000);", process.execPath);
  script("psql", "exit 2");
  script("pg_isready", "exit 2");
  return dir;
}

describe.skipIf(process.platform !== "linux")("lab PostgreSQL start", () => {
  it("records the postmaster at once, so a stop during the readiness wait ends it", async () => {
    const labDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-lab-pg-"));
    dirs.push(labDir);
    fs.chmodSync(labDir, 0o755);
    vi.stubEnv("PTAH_LAB_PG_BIN", standIns());
    const start = startPostgres(labDir, 1);
    const outcome = start.then(
      () => "ready",
      (err: Error) => err.message,
    );
    const deadline = Date.now() + 5_000;
    while (!readPostgresInfo(labDir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pid = readPostgresInfo(labDir)?.pid;
    expect(pid, "postgres.json names the postmaster while it is not yet ready").toBeGreaterThan(0);
    await stopPostgres(labDir);
    expect(alive(pid)).toBe(false);
    expect(await outcome).toMatch(/exited .*before it was ready/);
    expect(readPostgresInfo(labDir)).toBeUndefined();
  }, 20_000);
});
