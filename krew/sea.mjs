// The steps every single-executable build shares (node's single executable applications): prepare the SEA
// blob with a given node, inject it into a copy of a target node with postject (ELF, Mach-O and
// PE alike), and pack the release archive. Used by build-binary.mjs (this machine's platform)
// and build-release.mjs (all six).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { archiveName, binaryName, completeHelperName } from "./platforms.mjs";
import { createTarGz } from "./tar.mjs";

export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The Windows twin of `kubectl ptah completion kubectl` (kubectl finds .cmd through PATHEXT). */
export const WINDOWS_COMPLETE_HELPER = "@echo off\r\nkubectl ptah __complete %*\r\n";

export class BuildError extends Error {}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw new BuildError(`${command}: ${r.error.message}`);
  return r;
}

export function sha256(buffer) {
  return createHash("sha256").update(buffer).digest("hex");
}

/**
 * Writes the preparation blob for `entry`, made by `node`. A code cache is V8's compiled form
 * for the node that makes it: only valid when the blob's node is the target's own build.
 */
export function prepareBlob({ node, entry, dir, codeCache, snapshot = false, tree }) {
  mkdirSync(dir, { recursive: true });
  const blob = path.join(dir, "kubectl-ptah.blob");
  const config = path.join(dir, "sea-config.json");
  // The MCP server rides beside the snapshot as an asset (krew/bundle.mjs says why).
  // So does the lock analyser's WebAssembly (krew/wasm-asset.mjs).
  // (The npm tree, `tree`, holds the MCP server as a chunk of its own.)
  const assets = Object.fromEntries([...(tree ? [] : ["mcp-server.cjs.gz"]), "libpg-query.wasm.gz"].map((a) => [a, path.join(path.dirname(entry), a)]));
  // `tree` (the npm tree, dist/npm/): each of its .cjs files and packs (krew/packs.mjs) an asset
  // named by its path there, which the main script (dist/sea-start.cjs) loads as the npm bin does
  // (src/cli/code-cache.ts).
  if (tree) for (const file of treeFiles(tree)) assets[file] = path.join(tree, file);
  const settings = { main: entry, output: blob, disableExperimentalSEAWarning: true, useSnapshot: snapshot, useCodeCache: codeCache && !snapshot, assets };
  writeFileSync(config, `${JSON.stringify(settings, null, 2)}\n`);
  const prep = run(node, ["--experimental-sea-config", config]);
  if (prep.status !== 0) throw new BuildError(`${node} --experimental-sea-config failed:\n${prep.stderr}`);
  return blob;
}

/** The .cjs files and their packs under `dir`, as paths relative to it with "/" (their asset names). */
export function treeFiles(dir, under = "") {
  return readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((e) => {
    const rel = under ? `${under}/${e.name}` : e.name;
    return e.isDirectory() ? treeFiles(dir, rel) : e.name.endsWith(".cjs") || e.name.endsWith(".cjs.pack") ? [rel] : [];
  });
}

/** Copies `node` to `binary` and injects `blob`; returns postject's unexpected stderr lines. */
export function injectBlob({ node, blob, binary, os, beforeInject }) {
  mkdirSync(path.dirname(binary), { recursive: true });
  rmSync(binary, { force: true });
  copyFileSync(node, binary);
  chmodSync(binary, 0o755);
  beforeInject?.(binary);
  // postject's CLI in a child process: its ELF writer prints "Can't find string offset for
  // section name '.note…'" warnings, harmless (postject's known warning); other lines are kept.
  const postject = createRequire(import.meta.url).resolve("postject/dist/cli.js");
  const args = [postject, binary, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...(os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [])];
  const inject = run(process.execPath, args);
  if (inject.status !== 0) throw new BuildError(`postject failed:\n${inject.stdout}${inject.stderr}`);
  const noise = /^warning: Can't find string offset for section name '\.note[^']*'$|^Start injection|^Injection done|^💉/u;
  return `${inject.stderr}`.split("\n").filter((l) => l.trim() !== "" && !noise.test(l));
}

/**
 * Removes a PE file's Authenticode signature (the certificate table the security data directory
 * points at, always at the end of the file), as `signtool remove /s` does: injecting a resource
 * would leave it invalid ("The signature seems corrupted!"). The result is an unsigned binary.
 */
export function removePeSignature(file) {
  const buf = readFileSync(file);
  const pe = buf.readUInt32LE(0x3c);
  if (buf.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new BuildError(`${file}: not a PE file`);
  const optional = pe + 24;
  const magic = buf.readUInt16LE(optional);
  const directories = optional + (magic === 0x20b ? 112 : 96);
  const security = directories + 4 * 8;
  const offset = buf.readUInt32LE(security);
  const size = buf.readUInt32LE(security + 4);
  if (size === 0) return false;
  if (offset + size !== buf.length) throw new BuildError(`${file}: the certificate table is not at the end of the file`);
  buf.writeUInt32LE(0, security);
  buf.writeUInt32LE(0, security + 4);
  buf.writeUInt32LE(0, optional + 64); // CheckSum: no longer valid, and unchecked for executables
  writeFileSync(file, buf.subarray(0, offset));
  return true;
}

/**
 * The release archive: the binary, LICENSE and kubectl's completion helper (the plugin's own
 * `completion kubectl` text, or its .cmd twin on Windows). Writes it and its .sha256 file.
 */
export function writeReleaseArchive({ binary, os, arch, version, license, unixHelper, releaseDir }) {
  const entries = [
    { name: binaryName(os), data: readFileSync(binary), mode: 0o755 },
    { name: "LICENSE", data: readFileSync(license), mode: 0o644 },
    { name: completeHelperName(os), data: Buffer.from(os === "windows" ? WINDOWS_COMPLETE_HELPER : unixHelper), mode: 0o755 },
  ];
  mkdirSync(releaseDir, { recursive: true });
  const name = archiveName(version, os, arch);
  const archive = createTarGz(entries, { mtime: Number(process.env.SOURCE_DATE_EPOCH ?? 0) });
  const sum = sha256(archive);
  writeFileSync(path.join(releaseDir, name), archive);
  writeFileSync(path.join(releaseDir, `${name}.sha256`), `${sum}  ${name}\n`);
  return { name, sum, size: archive.length };
}
