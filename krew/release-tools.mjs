// The tools the six-platform build and its checks use beyond Node: rcodesign (apple-codesign from
// crates.io, to sign and verify macOS binaries ad hoc), qemu-user for linux/arm64 and wine for
// windows/amd64 (Debian's packages). rcodesign is built once with cargo into
// $HOME/.cache/kubectl-ptah/rcodesign-<version>/ (as the lab builds its binaries from the Go
// module proxy); the Debian tools are installed by .ci/run when missing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const RCODESIGN_VERSION = "0.29.0";

function cacheRoot() {
  return process.env.PTAH_CACHE_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah");
}

function onPath(name) {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** rcodesign's path; with `build`, builds it with cargo when it is not there yet. */
export function findRcodesign({ build = false, log = () => undefined } = {}) {
  const cached = path.join(cacheRoot(), `rcodesign-${RCODESIGN_VERSION}`, "bin", "rcodesign");
  if (existsSync(cached)) return cached;
  const found = onPath("rcodesign");
  if (found || !build) return found;
  const cargo = onPath("cargo") ?? [path.join(os.homedir(), ".cargo", "bin", "cargo")].find((c) => existsSync(c));
  if (!cargo) throw new Error("rcodesign is not built and cargo is not on PATH (install Rust, or rcodesign itself)");
  log(`building rcodesign ${RCODESIGN_VERSION} with cargo (first time: many minutes)`);
  const root = path.dirname(path.dirname(cached));
  const r = spawnSync(cargo, ["install", "apple-codesign", "--version", RCODESIGN_VERSION, "--locked", "--root", root], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0 || !existsSync(cached)) throw new Error(`cargo install apple-codesign ${RCODESIGN_VERSION} failed`);
  return cached;
}

/** qemu-aarch64 (user mode) and the arm64 sysroot it needs for node's shared libraries. */
export function findQemuArm64() {
  const qemu = onPath("qemu-aarch64-static") ?? onPath("qemu-aarch64");
  const sysroot = "/usr/aarch64-linux-gnu";
  return qemu && existsSync(path.join(sysroot, "lib", "ld-linux-aarch64.so.1")) ? { qemu, sysroot } : undefined;
}

/** Debian's wine64 loader (the package installs it outside PATH). */
export function findWine64() {
  for (const candidate of ["/usr/lib/wine/wine64", onPath("wine64")]) if (candidate && existsSync(candidate)) return candidate;
  return undefined;
}

// `node krew/release-tools.mjs --build`: build rcodesign now (.ci/run does, before the tests).
if (process.argv[1]?.endsWith("release-tools.mjs") && process.argv[2] === "--build") {
  process.stdout.write(`${findRcodesign({ build: true, log: (l) => process.stderr.write(`[release-tools] ${l}\n`) })}\n`);
}
