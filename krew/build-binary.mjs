// `npm run build:binary` (after `npm run build`): the single-executable kubectl-ptah for the
// platform this runs on, its release archive, and a krew manifest for that archive.
//
//   dist/bin/kubectl-ptah[.exe]                          Node SEA: node + the CommonJS bundle
//   dist/release/kubectl-ptah_<v>_<os>_<arch>.tar.gz     kubectl-ptah[.exe], LICENSE, kubectl_complete-ptah[.cmd]
//   dist/release/kubectl-ptah_<v>_<os>_<arch>.tar.gz.sha256
//   dist/krew/ptah.yaml                                   plugin-manifest/ptah.yaml rendered for the archives in dist/release
//
// Recipe (../shared/contract/kubectl-conventions.md §1.6): the blob must come from the same node
// binary that is copied, so this only builds for its own platform; the release workflow runs it
// on one native runner per platform. Options: --no-code-cache, --no-archive, --out FILE (write
// only the binary, there, working in a temp folder: what test/distribution/bin-parity.test.ts uses).
// Environment: PTAH_VERSION overrides the version (as in krew/bundle.mjs).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { archiveName, binaryName, completeHelperName, hostPlatform, releaseVersion } from "./platforms.mjs";
import { renderManifestFile } from "./render-manifest.mjs";
import { createTarGz } from "./tar.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The Windows twin of `kubectl ptah completion kubectl` (kubectl finds .cmd through PATHEXT). */
const WINDOWS_COMPLETE_HELPER = "@echo off\r\nkubectl ptah __complete %*\r\n";

function fail(message) {
  process.stderr.write(`build-binary: ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  if (r.error) fail(`${command}: ${r.error.message}`);
  return r;
}

export function sha256(buffer) {
  return createHash("sha256").update(buffer).digest("hex");
}

async function main() {
  const argv = process.argv.slice(2);
  const codeCache = !argv.includes("--no-code-cache");
  const out = argv.includes("--out") ? path.resolve(argv[argv.indexOf("--out") + 1] ?? "") : undefined;
  const withArchive = !argv.includes("--no-archive") && out === undefined;
  const host = hostPlatform();
  if (!host) fail(`no release target for ${process.platform}/${process.arch}`);
  const version = releaseVersion();
  const entry = path.join(DIST, "kubectl-ptah.cjs");
  if (!existsSync(entry)) fail("dist/kubectl-ptah.cjs is missing: run `npm run build` first");

  // 1. The preparation blob, made by this very node.
  const seaDir = out ? mkdtempSync(path.join(os.tmpdir(), "ptah-sea-")) : path.join(DIST, "sea");
  mkdirSync(seaDir, { recursive: true });
  const blob = path.join(seaDir, "kubectl-ptah.blob");
  const config = path.join(seaDir, "sea-config.json");
  writeFileSync(
    config,
    `${JSON.stringify({ main: entry, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: codeCache }, null, 2)}\n`,
  );
  const prep = run(process.execPath, ["--experimental-sea-config", config], { cwd: ROOT });
  if (prep.status !== 0) fail(`node --experimental-sea-config failed:\n${prep.stderr}`);

  // 2. A copy of node with the blob injected.
  const binary = out ?? path.join(DIST, "bin", binaryName(host.os));
  mkdirSync(path.dirname(binary), { recursive: true });
  rmSync(binary, { force: true });
  copyFileSync(process.execPath, binary);
  chmodSync(binary, 0o755);
  if (host.os === "darwin") {
    const r = run("codesign", ["--remove-signature", binary]);
    if (r.status !== 0) fail(`codesign --remove-signature: ${r.stderr}`);
  }
  // postject's CLI in a child process: its ELF writer prints "Can't find string offset for
  // section name '.note…'" warnings, harmless (kubectl-conventions §1.6); other lines are kept.
  const postject = createRequire(import.meta.url).resolve("postject/dist/cli.js");
  const inject = run(process.execPath, [
    postject,
    binary,
    "NODE_SEA_BLOB",
    blob,
    "--sentinel-fuse",
    SEA_FUSE,
    ...(host.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : []),
  ]);
  const noise = /^warning: Can't find string offset for section name '\.note[^']*'$|^Start injection|^Injection done|^💉/u;
  const injectErrors = `${inject.stderr}`.split("\n").filter((l) => l.trim() !== "" && !noise.test(l));
  if (inject.status !== 0) fail(`postject failed:\n${inject.stdout}${inject.stderr}`);
  if (injectErrors.length > 0) process.stderr.write(`${injectErrors.join("\n")}\n`);
  if (out) rmSync(seaDir, { recursive: true, force: true });
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
  const lines = [`binary   ${path.relative(ROOT, binary)}  ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB  (code cache ${codeCache ? "on" : "off"})`];

  if (withArchive) {
    // 4. The release archive. The helper is the plugin's own `completion kubectl` output.
    const helper = run(binary, ["completion", "kubectl"]);
    if (helper.status !== 0 || helper.stderr !== "") fail(`completion kubectl failed: ${helper.stderr}`);
    const entries = [
      { name: binaryName(host.os), data: readFileSync(binary), mode: 0o755 },
      { name: "LICENSE", data: readFileSync(path.join(ROOT, "LICENSE")), mode: 0o644 },
      { name: completeHelperName(host.os), data: Buffer.from(host.os === "windows" ? WINDOWS_COMPLETE_HELPER : helper.stdout), mode: 0o755 },
    ];
    const releaseDir = path.join(DIST, "release");
    mkdirSync(releaseDir, { recursive: true });
    const name = archiveName(version, host.os, host.arch);
    const archive = createTarGz(entries, { mtime: Number(process.env.SOURCE_DATE_EPOCH ?? 0) });
    const sum = sha256(archive);
    writeFileSync(path.join(releaseDir, name), archive);
    writeFileSync(path.join(releaseDir, `${name}.sha256`), `${sum}  ${name}\n`);
    lines.push(`archive  dist/release/${name}  ${(archive.length / 1024 / 1024).toFixed(1)} MiB  sha256 ${sum}`);

    // 5. The manifest for the archives at hand.
    const manifest = path.join(DIST, "krew", "ptah.yaml");
    const rendered = renderManifestFile({ releaseDir, out: manifest, version, onlyAvailable: true });
    lines.push(`manifest dist/krew/ptah.yaml  platforms: ${rendered.platforms.join(", ")}`);
    lines.push("", "Install it locally with krew:", `  kubectl krew install --manifest=dist/krew/ptah.yaml --archive=dist/release/${name}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
