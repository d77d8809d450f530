// `npm run build:release` (the release workflow calls the same): after the bundle, one SEA binary
// for each of the six platforms, made on this machine from that platform's pinned Node build
// (krew/node-builds.mjs), archived as the manifest expects, with sha256 files and
// dist/krew/ptah.yaml rendered for all six.
//
//   dist/release-bin/<os>_<arch>/kubectl-ptah[.exe]
//   dist/release/kubectl-ptah_<v>_<os>_<arch>.tar.gz (+ .sha256)
//   dist/krew/ptah.yaml
//
// The blob: a SEA blob is read by the node it is injected into, so it is prepared by a node of
// the target's version running here (linux/x64). The V8 code cache is compiled by that node for
// its own CPU and flags; a target of another architecture or OS rejects or mis-reads it (Node's
// SEA documentation says cross-platform blobs must not use it; measured here: see the README),
// so only linux/amd64, whose blob node is the target build itself, gets one. It covers only the
// main script (dist/sea-start.cjs, the npm tree's loader): every platform's binary caches the
// commands' own code at run time in the user's cache folder, as the npm bin does.
// macOS binaries are signed ad hoc after injection with krew/adhoc-sign (our Go program over
// github.com/blacktop/go-macho, built once into $HOME/.cache), since macOS on arm64 runs no
// unsigned code; the build then reads each signature back twice (adhoc-sign show, and
// krew/inspect-binary.mjs's own verifyAdHocSignature) and fails unless both hold.
//
// Options: --only os/arch[,os/arch…] builds a subset (its manifest lists only those).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BLOB_NODES, NODE_BUILDS, NODE_VERSION, fetchNodeBuild } from "./node-builds.mjs";
import { PLATFORMS, binaryName, releaseVersion } from "./platforms.mjs";
import { renderManifestFile } from "./render-manifest.mjs";
import { verifyAdHocSignature } from "./inspect-binary.mjs";
import { findAdhocSign } from "./release-tools.mjs";
import { BuildError, injectBlob, prepareBlob, removePeSignature, writeReleaseArchive } from "./sea.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");

function fail(message) {
  process.stderr.write(`build-release: ${message}\n`);
  process.exit(1);
}

function log(line) {
  process.stderr.write(`[release] ${line}\n`);
}

/** The host must be linux/x64: every blob node below is a linux/x64 build. */
function checkHost() {
  if (process.platform !== "linux" || process.arch !== "x64") fail(`builds on linux/x64 only (this is ${process.platform}/${process.arch})`);
  if (process.version !== `v${NODE_VERSION}`) fail(`run with Node ${NODE_VERSION}, the tested version (this is ${process.version})`);
}

/** Whether the target takes a code cache: only when the blob node is the target build itself. */
export function usesCodeCache(platform) {
  return platform === "linux/amd64";
}

function blobNodeFor(build) {
  if (build.version === NODE_VERSION) return fetchNodeBuild(NODE_BUILDS["linux/amd64"]);
  const other = BLOB_NODES[build.version];
  if (!other) throw new BuildError(`no linux/x64 node ${build.version} pinned to prepare the blob`);
  return fetchNodeBuild(other);
}

function signAdHoc(binary) {
  const signer = findAdhocSign({ build: true, log });
  const signed = `${binary}.signed`;
  const r = spawnSync(signer, ["sign", binary, signed], { encoding: "utf8" });
  if (r.status !== 0) throw new BuildError(`adhoc-sign sign ${binary}: ${r.stderr.trim()}`);
  renameSync(signed, binary);
  const show = spawnSync(signer, ["show", binary], { encoding: "utf8" });
  if (show.status !== 0) throw new BuildError(`adhoc-sign show ${binary}: ${show.stderr.trim()}`);
  const problems = verifyAdHocSignature(readFileSync(binary));
  if (problems.length > 0) throw new BuildError(`${binary}: ${problems.join("; ")}`);
}

function main() {
  checkHost();
  const argv = process.argv.slice(2);
  const only = argv.includes("--only") ? (argv[argv.indexOf("--only") + 1] ?? "").split(",") : undefined;
  // The npm tree's loader as the main script, the tree's files as assets (krew/build-binary.mjs).
  const entry = path.join(DIST, "sea-start.cjs");
  if (!existsSync(entry)) fail("dist/sea-start.cjs is missing: run `npm run build` first");
  const version = releaseVersion();
  const releaseDir = path.join(DIST, "release");
  rmSync(releaseDir, { recursive: true, force: true });
  // The completion helper is the same text on every unix: the plugin's own `completion kubectl`.
  const helper = spawnSync(process.execPath, [path.join(ROOT, "bin", "kubectl-ptah.js"), "completion", "kubectl"], { encoding: "utf8" });
  if (helper.status !== 0) fail(`completion kubectl: ${helper.stderr}`);

  const lines = [];
  for (const p of PLATFORMS) {
    const key = `${p.os}/${p.arch}`;
    if (only && !only.includes(key)) continue;
    const build = NODE_BUILDS[key];
    if (!build) fail(`no Node build pinned for ${key}`);
    log(`${key}: node ${build.version} from ${build.package}`);
    const node = fetchNodeBuild(build);
    const codeCache = usesCodeCache(key);
    const blob = prepareBlob({ node: blobNodeFor(build), entry, dir: path.join(DIST, "sea", `${p.os}_${p.arch}`), codeCache, tree: path.join(DIST, "npm") });
    const binary = path.join(DIST, "release-bin", `${p.os}_${p.arch}`, binaryName(p.os));
    const warnings = injectBlob({ node, blob, binary, os: p.os, beforeInject: p.os === "windows" ? removePeSignature : undefined });
    if (warnings.length > 0) log(warnings.join("\n"));
    if (p.os === "darwin") signAdHoc(binary);
    const archive = writeReleaseArchive({ binary, os: p.os, arch: p.arch, version, license: path.join(ROOT, "LICENSE"), unixHelper: helper.stdout, releaseDir });
    const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    lines.push(
      `${key.padEnd(14)} node ${build.version.padEnd(8)} code cache ${codeCache ? "on " : "off"}  ${mib(statSync(binary).size).padStart(9)}  ${archive.name}  sha256 ${archive.sum}`,
    );
  }
  const manifest = path.join(DIST, "krew", "ptah.yaml");
  const rendered = renderManifestFile({ releaseDir, out: manifest, version, onlyAvailable: only !== undefined });
  lines.push(`manifest dist/krew/ptah.yaml  platforms: ${rendered.platforms.join(", ")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    if (err instanceof BuildError) fail(err.message);
    throw err;
  }
}
