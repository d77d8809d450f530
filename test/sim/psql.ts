// The simulator's database driver: psql as a subprocess (the server's own psql, from the `bin`
// of <lab>/postgres.json, else psql on PATH), with the lab's connection (PTAH_LAB_POSTGRES =
// the path of postgres.json, else PGHOST/PGPORT/PGUSER). Every call is `psql -X -w -q -v
// ON_ERROR_STOP=1` (no psqlrc, never a password prompt, stop at the first error); scripts go on
// stdin, so psql's variables (`:'name'`, `:"name"`) quote values and identifiers. Why psql and
// not a driver package: docs/decisions.md.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Connection {
  host: string;
  port: number;
  user: string;
  /** The psql binary. */
  psql: string;
}

/** A statement PostgreSQL refused (the message is psql's, without its `psql:<stdin>:N:` prefix). */
export class SqlError extends Error {}

/** The lab's connection, from the environment the lab gives the simulator (and the runner). */
export function connectionFromEnv(env: NodeJS.ProcessEnv = process.env): Connection {
  const file = env.PTAH_LAB_POSTGRES;
  if (file) {
    const info = JSON.parse(fs.readFileSync(file, "utf8")) as { host: string; port: number; user: string; bin?: string };
    const own = info.bin ? path.join(info.bin, "psql") : "";
    return { host: info.host, port: Number(info.port), user: info.user, psql: own && fs.existsSync(own) ? own : "psql" };
  }
  if (!env.PGHOST || !env.PGPORT) throw new Error("no PostgreSQL for the simulator: PTAH_LAB_POSTGRES (or PGHOST and PGPORT) is not set; start it with node lab/lab.mjs");
  return { host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER ?? "postgres", psql: "psql" };
}

export interface PsqlOptions {
  /** Wrap the script in one transaction (psql --single-transaction): all of it commits, or none. */
  transaction?: boolean;
  /** psql variables (-v name=value), read in the script as :'name' (a literal) or :"name" (an identifier). */
  vars?: Record<string, string>;
}

/** Runs a script in `database`; resolves with stdout (unaligned, tuples only), rejects with SqlError. */
export function psql(conn: Connection, database: string, script: string, opts: PsqlOptions = {}): Promise<string> {
  const args = ["-X", "-w", "-q", "-At", "-v", "ON_ERROR_STOP=1", ...(opts.transaction ? ["--single-transaction"] : [])];
  for (const [k, v] of Object.entries(opts.vars ?? {})) args.push("-v", `${k}=${v}`);
  args.push("-f", "-");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LC_ALL: "C",
    PGHOST: conn.host,
    PGPORT: String(conn.port),
    PGUSER: conn.user,
    PGDATABASE: database,
    PGCONNECT_TIMEOUT: "5",
    PGAPPNAME: "ptah-operator-simulator",
  };
  return new Promise((resolve, reject) => {
    const child = execFile(conn.psql, args, { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const message = stderr
        .split("\n")
        .map((l) => l.replace(/^psql:<stdin>:\d+: /, ""))
        .filter((l) => l.trim() !== "")
        .join("\n");
      reject(new SqlError(message || err.message));
    });
    child.stdin?.end(script);
  });
}

/** A query whose single result is one JSON value (build it with json_agg / json_build_object). */
export async function queryJSON<T>(conn: Connection, database: string, sql: string, vars?: Record<string, string>): Promise<T> {
  const out = (await psql(conn, database, sql, { vars })).trim();
  return JSON.parse(out === "" ? "null" : out) as T;
}
