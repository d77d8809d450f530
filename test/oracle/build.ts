// Builds a Go oracle under test/oracle/<name>/ (stdlib only, its own go.mod) with the Go
// toolchain the lab already needs, once per source: the binary is cached in
// $XDG_CACHE_HOME (or ~/.cache)/kubectl-ptah/oracle/<name>-<sha256 of its sources>, so an edited
// oracle is rebuilt and an unchanged one costs nothing.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// PTAH_ORACLE_SOURCES: where the sources are when this module runs from a bundle elsewhere (the
// lab's operator simulator, .lab/sim.mjs, which the lab starts with it set to this folder).
const ORACLES = process.env.PTAH_ORACLE_SOURCES || import.meta.dirname;

export function hasGo(): boolean {
  return spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
}

/** Whether the oracle's sources are beside this module (not when it runs from a bundle elsewhere). */
export function oracleSourcesHere(name: string): boolean {
  return fs.existsSync(path.join(ORACLES, name, "go.mod"));
}

/** The path of the built oracle `name`; builds it when the cache has no binary for these sources. */
export function buildOracle(name: string): string {
  const dir = path.join(ORACLES, name);
  const hash = createHash("sha256");
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".go") || f === "go.mod")
    .sort()) {
    hash
      .update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(dir, f)))
      .update("\0");
  }
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "kubectl-ptah", "oracle");
  const bin = path.join(cache, `${name}-${hash.digest("hex").slice(0, 16)}`);
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(cache, { recursive: true });
  const tmp = `${bin}.${process.pid}.tmp`;
  const r = spawnSync("go", ["build", "-trimpath", "-o", tmp, "."], { cwd: dir, encoding: "utf8", env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" } });
  if (r.status !== 0) throw new Error(`go build of test/oracle/${name} failed: ${r.error?.message ?? r.stderr}`);
  fs.renameSync(tmp, bin);
  return bin;
}

/**
 * Asks the oracle `name` about every input in one process: each input one JSON line in, one JSON
 * answer line out, in order. Throws when the oracle fails or answers a different number of lines.
 */
export function askOracle<A>(name: string, inputs: readonly unknown[]): A[] {
  const r = spawnSync(buildOracle(name), { input: inputs.map((i) => JSON.stringify(i)).join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`test/oracle/${name} failed (${r.status}): ${r.error?.message ?? r.stderr}`);
  const answers = r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as A);
  if (answers.length !== inputs.length) throw new Error(`test/oracle/${name} answered ${answers.length} lines for ${inputs.length} inputs`);
  return answers;
}
