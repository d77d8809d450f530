// The release matrix and its file names: one place for the build script, the manifest renderer,
// the release workflow (via `node krew/platforms.mjs --json`) and the tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Go's os/arch names (what krew's selectors use) and Node's names for the same platform. */
export const PLATFORMS = [
  { os: "linux", arch: "amd64", nodePlatform: "linux", nodeArch: "x64" },
  { os: "linux", arch: "arm64", nodePlatform: "linux", nodeArch: "arm64" },
  { os: "darwin", arch: "amd64", nodePlatform: "darwin", nodeArch: "x64" },
  { os: "darwin", arch: "arm64", nodePlatform: "darwin", nodeArch: "arm64" },
  { os: "windows", arch: "amd64", nodePlatform: "win32", nodeArch: "x64" },
  { os: "windows", arch: "arm64", nodePlatform: "win32", nodeArch: "arm64" },
];

export const PLUGIN = "ptah";
export const BINARY = "kubectl-ptah";
/** kubectl's plugin-completion helper name (kubectl_complete-<plugin>). */
export const COMPLETE_HELPER = "kubectl_complete-ptah";

/** `v` + package.json's version, unless PTAH_VERSION overrides it (as krew/bundle.mjs does). */
export function releaseVersion() {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return process.env.PTAH_VERSION ?? `v${pkg.version}`;
}

export function binaryName(os) {
  return os === "windows" ? `${BINARY}.exe` : BINARY;
}

export function completeHelperName(os) {
  return os === "windows" ? `${COMPLETE_HELPER}.cmd` : COMPLETE_HELPER;
}

export function archiveName(version, os, arch) {
  return `${BINARY}_${version}_${os}_${arch}.tar.gz`;
}

/** The platform this process runs on, in Go's names; undefined when it is not in the matrix. */
export function hostPlatform() {
  return PLATFORMS.find((p) => p.nodePlatform === process.platform && p.nodeArch === process.arch);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === "--json") {
  process.stdout.write(`${JSON.stringify(PLATFORMS)}\n`);
}
