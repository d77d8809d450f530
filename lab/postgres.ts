// PostgreSQL for the lab: one throwaway cluster per lab, from the distribution's server binaries
// (Debian: /usr/lib/postgresql/<major>/bin, package `postgresql`), owned and run by an
// unprivileged system user (PostgreSQL refuses root), listening on 127.0.0.1 only (no Unix
// socket), data in <lab dir>/postgres/data. `<lab dir>/postgres.json` describes the running
// cluster to everything else (the operator simulator, the scenario runner, the replay pages):
//   { host, port, user, database, version, dataDir, pid, bin }
// Every start is a fresh initdb and every stop wipes the data, like the lab's etcd.
//
// Driven as one service of the lab's start sequence by lab/postgres-service.ts. Authentication
// is `trust` on the loopback address: a lab database holds no data worth a password, and no credential then exists that a scenario or a page could leak.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LabError, sleep } from "./errors.ts";
import { alive as aliveAs, tail } from "./processes.ts";

export interface PostgresInfo {
  host: string;
  port: number;
  /** The superuser the lab connects as (trust on 127.0.0.1). */
  user: string;
  /** The maintenance database. */
  database: string;
  /** `SHOW server_version`, e.g. "15.18 (Debian 15.18-0+deb12u1)". */
  version: string;
  dataDir: string;
  /** The postmaster. */
  pid: number;
  /** The server's bin folder (its psql is the client the simulator runs). */
  bin: string;
}

const SUPERUSER = "postgres";
/** Created (as a system user) when the lab runs as root and the machine has no `postgres` user. */
const FALLBACK_OS_USER = "ptah-lab-postgres";
const INSTALL_HINT = "install it with `apt-get install postgresql` (Debian/Ubuntu), or set PTAH_LAB_PG_BIN to a folder holding initdb, postgres and psql";

export function postgresPaths(labDir: string) {
  const root = path.join(labDir, "postgres");
  return { root, data: path.join(root, "data"), log: path.join(root, "postgres.log"), initdbLog: path.join(root, "initdb.log"), json: path.join(labDir, "postgres.json") };
}

const isExecutable = (f: string): boolean => {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};
const hasServer = (dir: string): boolean => ["initdb", "postgres", "psql", "pg_isready"].every((b) => isExecutable(path.join(dir, b)));

/** $PTAH_LAB_PG_BIN, else the newest Debian /usr/lib/postgresql/<major>/bin, else initdb on PATH. */
export function findBinDir(): string | undefined {
  const own = process.env.PTAH_LAB_PG_BIN;
  if (own) return hasServer(own) ? own : undefined;
  const debian = "/usr/lib/postgresql";
  const majors = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const m of majors) if (hasServer(path.join(debian, m, "bin"))) return path.join(debian, m, "bin");
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir && hasServer(dir)) return dir;
  return undefined;
}

interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

function lookupUser(name: string): OsUser | undefined {
  const r = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  const f = r.status === 0 ? r.stdout.trim().split(":") : [];
  return f.length >= 4 ? { name, uid: Number(f[2]), gid: Number(f[3]) } : undefined;
}

/** Who runs the cluster: ourselves when we are not root; else `postgres` (the package's), else our own system user. */
function clusterUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookupUser(SUPERUSER) ?? lookupUser(FALLBACK_OS_USER);
  if (existing) return existing;
  const r = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", FALLBACK_OS_USER], {
    encoding: "utf8",
  });
  const created = lookupUser(FALLBACK_OS_USER);
  if (!created)
    throw new LabError("postgres (user)", `PostgreSQL refuses to run as root and no unprivileged user could be created: useradd: ${r.stderr.trim() || `exit ${r.status}`}`);
  return created;
}

/** The command line that runs `cmd` as the cluster's user (setpriv: same environment, no PAM session). */
function asUser(u: OsUser | undefined, cmd: string, args: string[]): [string, string[]] {
  return u ? ["setpriv", [`--reuid=${u.uid}`, `--regid=${u.gid}`, "--clear-groups", cmd, ...args]] : [cmd, args];
}

function chownTo(u: OsUser | undefined, dir: string): void {
  if (u) fs.chownSync(dir, u.uid, u.gid);
}

/** Can the cluster's user create its data folder here (every parent folder traversable)? */
function usableBy(u: OsUser | undefined, dir: string): boolean {
  const [cmd, args] = asUser(u, "test", ["-w", dir, "-a", "-x", dir]);
  return spawnSync(cmd, args).status === 0;
}

/** The data folder: <lab>/postgres/data, or (when the lab dir is private to root, e.g. under /root) a temp folder it links to. */
function makeDataDir(u: OsUser | undefined, p: ReturnType<typeof postgresPaths>): string {
  fs.mkdirSync(p.root, { recursive: true });
  chownTo(u, p.root);
  if (usableBy(u, p.root)) return p.data;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-lab-postgres-"));
  chownTo(u, tmp);
  fs.symlinkSync(tmp, p.data);
  return tmp;
}

/** The recorded postmaster is alive (and runs postgres: guards against pid reuse). */
const alive = (pid: number | undefined): boolean => aliveAs(pid, "postgres");

/** The environment a client needs (no password: trust on 127.0.0.1). */
export function clientEnv(info: Pick<PostgresInfo, "host" | "port" | "user" | "database">): Record<string, string> {
  return { PGHOST: info.host, PGPORT: String(info.port), PGUSER: info.user, PGDATABASE: info.database, PGCONNECT_TIMEOUT: "5" };
}

export function readPostgresInfo(labDir: string): PostgresInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(postgresPaths(labDir).json, "utf8")) as PostgresInfo;
  } catch {
    return undefined;
  }
}

/** initdb (fresh), start on 127.0.0.1:port as the unprivileged user, wait until it answers, write postgres.json. */
export async function startPostgres(labDir: string, port: number, say: (m: string) => void = () => {}): Promise<PostgresInfo> {
  const bin = findBinDir();
  if (!bin) throw new LabError("postgres (binaries)", `PostgreSQL's server binaries (initdb, postgres, psql) were not found; ${INSTALL_HINT}`, undefined, 4);
  await stopPostgres(labDir);
  const p = postgresPaths(labDir);
  const u = clusterUser();
  const dataDir = makeDataDir(u, p);
  const run = (cmd: string, args: string[]) => asUser(u, path.join(bin, cmd), args);
  const [initCmd, initArgs] = run("initdb", ["-D", dataDir, `--username=${SUPERUSER}`, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8", cwd: "/", timeout: 60_000 });
  fs.writeFileSync(p.initdbLog, `${init.stdout ?? ""}${init.stderr ?? ""}`);
  if (init.status !== 0) throw new LabError("postgres (initdb)", `initdb exited with ${init.status ?? init.signal}\n${tail(p.initdbLog, 10)}`, p.initdbLog);

  say(`starting PostgreSQL on 127.0.0.1:${port} as ${u?.name ?? os.userInfo().username}`);
  const settings = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: "",
    // A lab database: durability buys nothing, speed on a shared machine does.
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    shared_buffers: "16MB",
    max_connections: "40",
    log_min_messages: "warning",
  };
  const [cmd, args] = run("postgres", ["-D", dataDir, ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])]);
  const fd = fs.openSync(p.log, "w");
  const child = spawn(cmd, args, { cwd: "/", detached: true, stdio: ["ignore", fd, fd], env: { ...process.env, LC_ALL: "C" } });
  fs.closeSync(fd);
  child.on("error", () => {});
  let exit = "";
  child.on("exit", (code, signal) => (exit = signal ? ` (signal ${signal})` : ` (exit status ${String(code)})`));
  child.unref();
  const pid = child.pid;
  if (!pid) throw new LabError("postgres (start)", `could not spawn ${cmd}`, p.log);

  const info: PostgresInfo = { host: "127.0.0.1", port, user: SUPERUSER, database: "postgres", version: "", dataDir, pid, bin };
  // Recorded at once, not only once ready: a start that fails from here on is cleaned up by
  // stopPostgres, which must find this postmaster (before it has written postmaster.pid) rather
  // than wipe the data folder from under it and leave it running.
  fs.writeFileSync(p.json, `${JSON.stringify(info, null, 2)}\n`);
  const env = { ...process.env, ...clientEnv(info) };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!alive(pid)) throw new LabError("postgres (start)", `the server exited${exit} before it was ready\n${tail(p.log, 15) || "(postgres.log is empty)"}`, p.log);
    const r = spawnSync(path.join(bin, "psql"), ["-X", "-At", "-w", "-c", "SHOW server_version"], { env, encoding: "utf8", timeout: 10_000 });
    if (r.status === 0 && r.stdout.trim()) {
      info.version = r.stdout.trim();
      break;
    }
    if (Date.now() > deadline) throw new LabError("postgres (ready)", `not answering on 127.0.0.1:${port} after 30s: ${r.stderr.trim()}\n${tail(p.log, 15)}`, p.log);
    await sleep(200);
  }
  fs.writeFileSync(p.json, `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

function postmasterPid(p: ReturnType<typeof postgresPaths>): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(p.data, "postmaster.pid"), "utf8").split("\n")[0]) || undefined;
  } catch {
    return undefined;
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return !alive(pid);
}

/** Stops the cluster (fast shutdown, then immediate, then SIGKILL) and wipes it (wipePostgres). Never throws when nothing runs. */
export async function stopPostgres(labDir: string, say: (m: string) => void = () => {}): Promise<void> {
  const p = postgresPaths(labDir);
  for (const pid of new Set([readPostgresInfo(labDir)?.pid, postmasterPid(p)])) {
    if (!pid || !alive(pid)) continue;
    say(`stopping postgres (pid ${pid})`);
    for (const [signal, ms] of [
      ["SIGINT", 15_000],
      ["SIGQUIT", 5_000],
    ] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        /* gone */
      }
      if (await waitGone(pid, ms)) break;
    }
    if (alive(pid)) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        /* gone */
      }
      if (!(await waitGone(pid, 5_000))) throw new LabError("stop", `postgres (pid ${pid}) did not exit after SIGKILL`);
    }
  }
  wipePostgres(labDir);
}

/**
 * Deletes the cluster's data (and the temp folder <lab>/postgres/data links to) and postgres.json.
 * The logs stay, as the other services' do: a start that failed names postgres.log, and the
 * cleanup after that failure must not delete what it names (the next start truncates it).
 */
export function wipePostgres(labDir: string): void {
  const p = postgresPaths(labDir);
  try {
    if (fs.lstatSync(p.data).isSymbolicLink()) fs.rmSync(fs.readlinkSync(p.data), { recursive: true, force: true });
  } catch {
    /* no data folder */
  }
  fs.rmSync(p.data, { recursive: true, force: true });
  fs.rmSync(p.json, { force: true });
}

/** True for the argument vector of this lab's postmaster (finds a leftover when lab.json is gone). */
export function ownsPostgres(labDir: string, args: readonly string[]): boolean {
  const dataDir = args[0]?.endsWith("/postgres") && args[1] === "-D" ? args[2] : undefined;
  return dataDir !== undefined && (dataDir === postgresPaths(labDir).data || dataDir === readPostgresInfo(labDir)?.dataDir);
}

/** Is the recorded cluster running? */
export function postgresRunning(labDir: string): boolean {
  return alive(readPostgresInfo(labDir)?.pid);
}

/** One line for `lab status`. */
export function postgresStatusLine(labDir: string): string {
  const info = readPostgresInfo(labDir);
  if (!info) return "not started";
  if (!alive(info.pid)) return `not running (pid ${info.pid} exited; see ${postgresPaths(labDir).log})`;
  return `${info.version} on ${info.host}:${info.port} (user ${info.user}, pid ${info.pid}, data ${info.dataDir})`;
}

/** The export line for `lab env` (connection only: there is no password). */
export function postgresExports(labDir: string): string {
  const info = readPostgresInfo(labDir);
  return info ? `export PGHOST=${info.host} PGPORT=${info.port} PGUSER=${info.user}\n` : "";
}
