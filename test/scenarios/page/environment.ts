// What a run ran against, read when it is recorded: the API server's version (kubectl version),
// the plugin's own version (kubectl ptah version --client) and the checkout's commit, the operator
// simulator's bundle digest (<lab>/sim.json), the lab's PostgreSQL (<lab>/postgres.json, written
// by the lab when it runs one), the time, and the scenario file's last commit.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { labEnv } from "../../support/lab.ts";
import { REPO } from "../scenario.ts";
import type { RanAgainst } from "./record.ts";

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const r = spawnSync(cmd, args, { cwd: REPO, encoding: "utf8", env, timeout: 30_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function json<T>(text: string | undefined): T | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** A short commit, marked when the checkout (or the one file) differs from it. */
function commitOf(file?: string): string {
  const scope = file ? ["--", file] : [];
  const commit = run("git", ["log", "-1", "--format=%H", ...scope]);
  if (!commit) return file ? "not committed" : "unknown (not a git checkout)";
  const dirty = run("git", ["status", "--porcelain", "--untracked-files=no", ...scope]);
  return `${commit.slice(0, 12)}${dirty ? " plus uncommitted changes" : ""}`;
}

/** The lab's PostgreSQL version from <lab>/postgres.json, when the lab has one. */
export function postgresVersion(labDir: string): string | undefined {
  const pg = json<{ version?: unknown }>(fs.existsSync(path.join(labDir, "postgres.json")) ? fs.readFileSync(path.join(labDir, "postgres.json"), "utf8") : undefined);
  return typeof pg?.version === "string" && pg.version ? pg.version : undefined;
}

export function ranAgainst(scenarioFile: string, binDir: string, now: Date = new Date()): RanAgainst {
  const lab = labEnv();
  const version = json<{ serverVersion?: { gitVersion?: string } }>(run("kubectl", ["--kubeconfig", lab.kubeconfig, "--context", lab.contexts.admin, "version", "-o", "json"]));
  const plugin = json<{ clientVersion?: string }>(run(path.join(binDir, "kubectl-ptah"), ["version", "--client", "-o", "json"]));
  const sim = json<{ bundleDigest?: string }>(fs.existsSync(path.join(lab.labDir, "sim.json")) ? fs.readFileSync(path.join(lab.labDir, "sim.json"), "utf8") : undefined);
  const postgres = postgresVersion(lab.labDir);
  return {
    kubernetes: version?.serverVersion?.gitVersion ?? "unknown",
    plugin: plugin?.clientVersion ?? "unknown",
    pluginCommit: commitOf(),
    simulator: `the lab's operator simulator (test/sim), bundle ${sim?.bundleDigest?.slice(0, 19) ?? "unknown"}`,
    ...(postgres ? { postgres } : {}),
    recordedAt: now.toISOString().replace(/\.\d{3}Z$/u, "Z"),
    scenarioCommit: commitOf(path.relative(REPO, scenarioFile)),
  };
}
