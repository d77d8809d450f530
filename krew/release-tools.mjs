// The tools the six-platform build needs beyond Node: the pinned Node builds (krew/node-builds.mjs)
// and krew/adhoc-sign, our small Go program over github.com/blacktop/go-macho that signs the macOS
// binaries ad hoc and reads a signature back. adhoc-sign is built with the Go toolchain the lab
// already needs (from the Go module proxy, about a minute of CPU) into
// $HOME/.cache/kubectl-ptah/adhoc-sign/adhoc-sign-<sha256 of its sources>, so an edited source is
// rebuilt and an unchanged one costs nothing. (Until 2026-12 this was rcodesign, built with cargo:
// 8 minutes idle, an hour under load; README "Installation" has the measurements.)
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SOURCES = path.join(path.dirname(fileURLToPath(import.meta.url)), "adhoc-sign");

function cacheRoot() {
  return process.env.PTAH_CACHE_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah");
}

/** Where adhoc-sign built from the current sources lives (whether or not it is built yet). */
export function adhocSignPath() {
  const hash = createHash("sha256");
  for (const f of readdirSync(SOURCES)
    .filter((f) => f.endsWith(".go") || f === "go.mod" || f === "go.sum")
    .sort()) {
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(path.join(SOURCES, f)))
      .update("\0");
  }
  return path.join(cacheRoot(), "adhoc-sign", `adhoc-sign-${hash.digest("hex").slice(0, 16)}`);
}

export function hasGo() {
  return spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
}

/** adhoc-sign's path; with `build`, builds it when it is not there yet (throws without Go). */
export function findAdhocSign({ build = false, log = () => undefined } = {}) {
  const bin = adhocSignPath();
  if (existsSync(bin) || !build) return existsSync(bin) ? bin : undefined;
  if (!hasGo()) throw new Error("krew/adhoc-sign is not built and there is no Go toolchain on PATH (Go >= 1.26, as the lab needs)");
  log("building krew/adhoc-sign with Go (first time: about a minute)");
  mkdirSync(path.dirname(bin), { recursive: true });
  const tmp = `${bin}.${process.pid}.tmp`;
  const r = spawnSync("go", ["build", "-trimpath", "-o", tmp, "."], {
    cwd: SOURCES,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly", CGO_ENABLED: "0" },
  });
  if (r.status !== 0 || !existsSync(tmp)) throw new Error(`go build of krew/adhoc-sign failed${r.error ? `: ${r.error.message}` : ""}`);
  renameSync(tmp, bin);
  return bin;
}

// `node krew/release-tools.mjs --build`: build adhoc-sign and fetch the pinned Node builds now
// (.ci/run does, before the tests, so their time is a step of its own).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === "--build") {
  const log = (l) => process.stderr.write(`[release-tools] ${l}\n`);
  const { BLOB_NODES, NODE_BUILDS, fetchNodeBuild } = await import("./node-builds.mjs");
  for (const build of [...Object.values(NODE_BUILDS), ...Object.values(BLOB_NODES)]) log(fetchNodeBuild(build));
  process.stdout.write(`${findAdhocSign({ build: true, log })}\n`);
}
