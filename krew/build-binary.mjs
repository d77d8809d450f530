// `npm run build:binary` (after `npm run build`): the single-executable kubectl-ptah for the
// platform this runs on, its release archive, and a krew manifest for that archive.
//
//   dist/bin/kubectl-ptah[.exe]                          Node SEA: node + the CommonJS bundle
//   dist/release/kubectl-ptah_<v>_<os>_<arch>.tar.gz     kubectl-ptah[.exe], LICENSE, kubectl_complete-ptah[.cmd]
//   dist/release/kubectl-ptah_<v>_<os>_<arch>.tar.gz.sha256
//   dist/krew/ptah.yaml                                   plugin-manifest/ptah.yaml rendered for the archives in dist/release
//
// Recipe (node's single executable applications, krew/sea.mjs): the blob must come from the same node
// binary that is copied, so this only builds for its own platform; the release workflow runs it
// on one native runner per platform. By default the binary is the npm tree: its main script is
// dist/sea-start.cjs, the npm bin's loader (src/cli/code-cache.ts), and each file of dist/npm/ is an
// asset it loads when the command reaches it, from the same V8 code cache folder as the npm bin.
// Options for the earlier forms, kept to measure against (docs/performance.md): --snapshot (a
// V8 startup snapshot of dist/kubectl-ptah.cjs with every command loaded), --bundle (that one
// file with SEA's code cache), --bundle --no-code-cache (neither); --no-archive, --out FILE
// (write only the binary, there, working in a temp folder: what test/distribution/bin-parity.test.ts uses).
// Environment: PTAH_VERSION overrides the version (as in krew/bundle.mjs).
import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { binaryName, hostPlatform, releaseVersion } from "./platforms.mjs";
import { renderManifestFile } from "./render-manifest.mjs";
import { BuildError, injectBlob, prepareBlob, writeReleaseArchive } from "./sea.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");

function fail(message) {
  process.stderr.write(`build-binary: ${message}\n`);
  process.exit(1);
}

/** A native macOS build removes node's own signature before injecting, then signs ad hoc. */
function unsign(binary) {
  const r = run("codesign", ["--remove-signature", binary]);
  if (r.status !== 0) fail(`codesign --remove-signature: ${r.stderr}`);
}

/**
 * Writes `file` again through 64 KiB writes. postject writes the whole binary at once, and the page
 * cache then holds it as large folios, which a start maps whole: the same binary measured 57 MB of
 * peak RSS on `explain stale` as written, 41-44 MB rewritten so, copied, or read back after its pages
 * were dropped (docs/performance.md).
 */
function rewriteInSmallWrites(file) {
  const data = readFileSync(file);
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    for (let at = 0; at < data.length; at += 65536) writeSync(fd, data, at, Math.min(65536, data.length - at));
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o755);
  renameSync(tmp, file);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  if (r.error) fail(`${command}: ${r.error.message}`);
  return r;
}

async function main() {
  const argv = process.argv.slice(2);
  // The npm tree from SEA assets, through the npm bin's loader: as fast as the npm bin, where the
  // snapshot of every command (--snapshot) took 1.15-1.23x its time and 60 MB against its 41-43 MB
  // of peak RSS (docs/performance.md).
  const snapshot = argv.includes("--snapshot");
  const loader = !snapshot && !argv.includes("--bundle");
  const codeCache = snapshot || (!loader && !argv.includes("--no-code-cache"));
  const out = argv.includes("--out") ? path.resolve(argv[argv.indexOf("--out") + 1] ?? "") : undefined;
  const withArchive = !argv.includes("--no-archive") && out === undefined;
  const host = hostPlatform();
  if (!host) fail(`no release target for ${process.platform}/${process.arch}`);
  const version = releaseVersion();
  const entry = path.join(DIST, loader ? "sea-start.cjs" : "kubectl-ptah.cjs");
  if (!existsSync(entry)) fail(`${path.relative(ROOT, entry)} is missing: run \`npm run build\` first`);

  // 1. The preparation blob, made by this very node; 2. a copy of node with the blob injected.
  const seaDir = out ? mkdtempSync(path.join(os.tmpdir(), "ptah-sea-")) : path.join(DIST, "sea");
  const binary = out ?? path.join(DIST, "bin", binaryName(host.os));
  try {
    const blob = prepareBlob({ node: process.execPath, entry, dir: seaDir, codeCache, snapshot, tree: loader ? path.join(DIST, "npm") : undefined });
    const warnings = injectBlob({ node: process.execPath, blob, binary, os: host.os, beforeInject: host.os === "darwin" ? unsign : undefined });
    if (warnings.length > 0) process.stderr.write(`${warnings.join("\n")}\n`);
  } catch (err) {
    if (err instanceof BuildError) fail(err.message);
    throw err;
  }
  if (out) rmSync(seaDir, { recursive: true, force: true });
  rewriteInSmallWrites(binary);
  if (host.os === "darwin") {
    const r = run("codesign", ["--sign", "-", binary]);
    if (r.status !== 0) fail(`codesign --sign -: ${r.stderr}`);
  }

  // 3. It runs, says its version and nothing else.
  const smoke = run(binary, ["--version"]);
  const expected = `kubectl-ptah ${version}\n`;
  if (smoke.status !== 0 || smoke.stdout !== expected || smoke.stderr !== "") {
    fail(`the binary's smoke test failed: status ${smoke.status}, stdout ${JSON.stringify(smoke.stdout)}, stderr ${JSON.stringify(smoke.stderr)}`);
  }
  const lines = [
    `binary   ${path.relative(ROOT, binary)}  ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB  (${loader ? "npm tree's loader" : snapshot ? "startup snapshot" : `code cache ${codeCache ? "on" : "off"}`})`,
  ];

  if (withArchive) {
    // 4. The release archive. The helper is the plugin's own `completion kubectl` output.
    const helper = run(binary, ["completion", "kubectl"]);
    if (helper.status !== 0 || helper.stderr !== "") fail(`completion kubectl failed: ${helper.stderr}`);
    const releaseDir = path.join(DIST, "release");
    const archive = writeReleaseArchive({ binary, os: host.os, arch: host.arch, version, license: path.join(ROOT, "LICENSE"), unixHelper: helper.stdout, releaseDir });
    lines.push(`archive  dist/release/${archive.name}  ${(archive.size / 1024 / 1024).toFixed(1)} MiB  sha256 ${archive.sum}`);

    // 5. The manifest for the archives at hand.
    const manifest = path.join(DIST, "krew", "ptah.yaml");
    const rendered = renderManifestFile({ releaseDir, out: manifest, version, onlyAvailable: true });
    lines.push(`manifest dist/krew/ptah.yaml  platforms: ${rendered.platforms.join(", ")}`);
    lines.push("", "Install it locally with krew:", `  kubectl krew install --manifest=dist/krew/ptah.yaml --archive=dist/release/${archive.name}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
