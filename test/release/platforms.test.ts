// The six release binaries `npm run build:release` made (test/release/global-setup.ts), checked
// on this linux/amd64 machine as far as each can be: linux/amd64 natively (smoke test, npm-bin
// parity, krew install), linux/arm64 under qemu-user, windows/amd64 under wine, and by structure
// (headers, the SEA blob where that platform's node reads it, the fuse; macOS: a valid ad-hoc
// signature) for windows/arm64 and both darwin builds, which nothing here can run. The qemu and
// wine runs need those tools (test/support/machine-tools.ts: skipped with the command that installs
// them, required under CI); without Go to build the signer the whole tier is not run
// (PTAH_RELEASE_SKIP, from ./global-setup.ts).
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { inspectBinary, verifyAdHocSignature } from "../../krew/inspect-binary.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { NODE_BUILDS, fetchNodeBuild } from "../../krew/node-builds.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { PLATFORMS, archiveName, binaryName, completeHelperName, releaseVersion } from "../../krew/platforms.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { findAdhocSign } from "../../krew/release-tools.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { readTarGz } from "../../krew/tar.mjs";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { validateArchive, validateManifest } from "../../krew/validate-manifest.mjs";
import { ARM64_SYSROOT, needTool } from "../support/machine-tools.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const VERSION = releaseVersion() as string;
const RELEASE = path.join(ROOT, "dist", "release");
const MANIFEST = path.join(ROOT, "dist", "krew", "ptah.yaml");
/** Set by ./global-setup.ts when the tier cannot run here (its reason). */
const skip = Boolean(process.env.PTAH_RELEASE_SKIP);

interface Platform {
  os: string;
  arch: string;
}
interface ManifestPlatform {
  selector: { matchLabels: Platform };
  uri: string;
  sha256: string;
  files: Array<{ from: string; to: string }>;
  bin: string;
}

const binaryOf = (p: Platform): string => path.join(ROOT, "dist", "release-bin", `${p.os}_${p.arch}`, binaryName(p.os) as string);
const blobOf = (p: Platform): string => path.join(ROOT, "dist", "sea", `${p.os}_${p.arch}`, "kubectl-ptah.blob");

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { encoding: "utf8", timeout: 240_000, env: { ...process.env, NO_COLOR: "1", ...env } });
}

/** The offline answers every platform's binary must give, whatever runs it. */
function expectOffline(exec: (args: string[]) => { status: number | null; stdout: string; stderr: string }): void {
  const version = exec(["--version"]);
  expect({ status: version.status, stdout: version.stdout, stderr: version.stderr }).toEqual({ status: 0, stdout: `kubectl-ptah ${VERSION}\n`, stderr: "" });
  const stale = exec(["explain", "stale"]);
  expect(stale.status, stale.stderr).toBe(0);
  expect(stale.stdout).toMatch(/^Stale \(approval state\)\n/u);
  expect(stale.stderr).toBe("");
}

describe.skipIf(skip)("the six-platform manifest and archives", () => {
  let doc: { spec: { version: string; platforms: ManifestPlatform[] } };
  beforeAll(() => {
    doc = yaml.load(fs.readFileSync(MANIFEST, "utf8")) as typeof doc;
  });

  it("names all six platforms, and passes krew's rules", () => {
    expect(doc.spec.platforms.map((p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`).sort()).toEqual(
      (PLATFORMS as Platform[]).map((p) => `${p.os}/${p.arch}`).sort(),
    );
    expect(validateManifest(doc, { fileName: "ptah.yaml" })).toEqual([]);
  });

  it.each((PLATFORMS as Platform[]).map((p) => [`${p.os}/${p.arch}`, p] as const))("%s: the archive matches its sha256, its .sha256 file and the built binary", (_n, p) => {
    const entry = doc.spec.platforms.find((m) => m.selector.matchLabels.os === p.os && m.selector.matchLabels.arch === p.arch)!;
    const name = archiveName(VERSION, p.os, p.arch) as string;
    const archive = fs.readFileSync(path.join(RELEASE, name));
    expect(path.basename(entry.uri)).toBe(name);
    expect(validateArchive(entry, archive)).toEqual([]);
    expect(fs.readFileSync(path.join(RELEASE, `${name}.sha256`), "utf8")).toBe(`${entry.sha256}  ${name}\n`);
    const files = readTarGz(archive) as Array<{ name: string; data: Buffer }>;
    expect(files.map((f) => f.name).sort()).toEqual([binaryName(p.os), completeHelperName(p.os), "LICENSE"].sort());
    expect(files.find((f) => f.name === binaryName(p.os))!.data.equals(fs.readFileSync(binaryOf(p)))).toBe(true);
  });

  it("passes krew's own validate-krew-manifest, and krew installs and runs the linux/amd64 archive", () => {
    const tools = run(process.execPath, [path.join(ROOT, "krew", "krew-tools.mjs")]);
    expect(tools.status, tools.stderr).toBe(0);
    const PATH = [tools.stdout.trim(), process.env.PATH].join(path.delimiter);
    const validate = run("validate-krew-manifest", ["-manifest", MANIFEST, "-skip-install"], { PATH });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stderr).toMatch(/structural validation OK/u);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-krew-release-"));
    const archive = path.join(RELEASE, archiveName(VERSION, "linux", "amd64") as string);
    const install = spawnSync("kubectl", ["krew", "install", `--manifest=${MANIFEST}`, `--archive=${archive}`], {
      encoding: "utf8",
      input: "",
      env: { ...process.env, PATH, KREW_ROOT: root },
      timeout: 120_000,
    });
    expect(install.status, install.stderr).toBe(0);
    const installed = run("kubectl", ["ptah", "--version"], { PATH: [path.join(root, "bin"), PATH].join(path.delimiter), KUBECONFIG: path.join(root, "none") });
    expect(installed).toMatchObject({ status: 0, stdout: `kubectl-ptah ${VERSION}\n`, stderr: "" });
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe.skipIf(skip)("the release job's krew checks (.ci/release-check.sh) over the six archives", () => {
  it("validates the manifest and installs every platform's archive with krew", () => {
    const r = run("bash", [path.join(ROOT, ".ci", "release-check.sh")]);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(`kubectl-ptah ${VERSION}\n`);
  });
});

describe.skipIf(skip)("linux/amd64 (this machine)", () => {
  const p = { os: "linux", arch: "amd64" };
  it("passes the release smoke test, archive layout included", () => {
    const r = run(process.execPath, [path.join(ROOT, "krew", "smoke.mjs"), binaryOf(p), "--archive", path.join(RELEASE, archiveName(VERSION, "linux", "amd64") as string)]);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
  it("gives the npm bin's stdout, stderr and status for every parity command line", () => {
    const r = run("npx", ["vitest", "run", "--project", "unit", "test/distribution/bin-parity.test.ts"], { PTAH_TEST_BIN: binaryOf(p), CI: "true" });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+\d+ passed/u);
  });
});

describe.skipIf(skip)("linux/arm64 under qemu-user", () => {
  const p = { os: "linux", arch: "arm64" };
  it("is an arm64 ELF with the blob injected", () => {
    expect(inspectBinary(fs.readFileSync(binaryOf(p)), p.os, p.arch)).toEqual([]);
  });
  it("answers the offline commands", (ctx) => {
    const qemu = needTool(ctx, "qemu-user");
    expectOffline((args) => run(qemu, ["-L", ARM64_SYSROOT, binaryOf(p), ...args]));
  });
});

describe.skipIf(skip)("windows/amd64 under wine", () => {
  const p = { os: "windows", arch: "amd64" };
  it("is an amd64 console PE with the NODE_SEA_BLOB resource", () => {
    expect(inspectBinary(fs.readFileSync(binaryOf(p)), p.os, p.arch)).toEqual([]);
  });
  it("answers the offline commands", (ctx) => {
    const wine = needTool(ctx, "wine64");
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-wine-"));
    // Node under wine cannot write to a pipe (EBADF on stdout), so the streams go to files; wine
    // reports Windows 7 by default, which Node 20 refuses: the prefix is set to Windows 10.
    const env = { WINEPREFIX: prefix, WINEDEBUG: "-all" };
    expect(run(wine, ["reg", "add", "HKCU\\Software\\Wine", "/v", "Version", "/d", "win10", "/f"], env).status).toBe(0);
    expectOffline((args) => {
      const out = path.join(prefix, "out.txt");
      const err = path.join(prefix, "err.txt");
      const fdOut = fs.openSync(out, "w");
      const fdErr = fs.openSync(err, "w");
      const r = spawnSync(wine, [binaryOf(p), ...args], { stdio: ["ignore", fdOut, fdErr], env: { ...process.env, ...env, NO_COLOR: "1" }, timeout: 240_000 });
      fs.closeSync(fdOut);
      fs.closeSync(fdErr);
      return { status: r.status, stdout: fs.readFileSync(out, "utf8"), stderr: fs.readFileSync(err, "utf8") };
    });
    spawnSync(path.join(path.dirname(wine), "wineserver"), ["-k"], { env: { ...process.env, ...env } });
    fs.rmSync(prefix, { recursive: true, force: true });
  });
});

describe.skipIf(skip)("windows/arm64 (structure only: nothing here runs an arm64 PE)", () => {
  it("is an arm64 console PE with the NODE_SEA_BLOB resource and the fuse flipped", () => {
    expect(inspectBinary(fs.readFileSync(binaryOf({ os: "windows", arch: "arm64" })), "windows", "arm64")).toEqual([]);
  });
});

// The structural check can fail: the very Node builds the binaries were made from, before injection.
describe.skipIf(skip).each(["windows/arm64", "windows/amd64", "darwin/amd64", "darwin/arm64", "linux/arm64"])("the structural check on %s's plain node", (key) => {
  it("finds no blob and an unflipped fuse", () => {
    const [os_, arch] = key.split("/") as [string, string];
    const node = fetchNodeBuild(NODE_BUILDS[key]) as string;
    const problems = inspectBinary(fs.readFileSync(node), os_, arch, 1) as string[];
    expect(problems).toContain("the SEA fuse is not flipped (no blob was injected)");
    expect(problems.join("\n")).toMatch(/no NODE_SEA/u);
  });
});

describe.skipIf(skip).each([
  ["darwin/amd64", "amd64"],
  ["darwin/arm64", "arm64"],
])("%s (structure and signature: nothing here runs Mach-O)", (_n, arch) => {
  const p = { os: "darwin", arch };
  it("is a Mach-O executable for its CPU with the whole blob in NODE_SEA/__NODE_SEA_BLOB", () => {
    expect(inspectBinary(fs.readFileSync(binaryOf(p)), p.os, p.arch, fs.statSync(blobOf(p)).size)).toEqual([]);
  });
  // Two readings of the signature: go-macho's parser (krew/adhoc-sign show) and our own
  // (verifyAdHocSignature); each must hold on the binary and fail on a copy with one byte changed.
  it("carries a valid ad-hoc signature, by go-macho's reading and by ours, which a changed byte breaks", () => {
    const signer = findAdhocSign() as string | undefined;
    expect(signer, "krew/adhoc-sign (built by npm run build:release)").toBeDefined();
    const show = run(signer!, ["show", binaryOf(p)]);
    expect({ status: show.status, stderr: show.stderr }).toEqual({ status: 0, stderr: "" });
    expect(show.stdout).toMatch(/^ad-hoc signature: identifier kubectl-ptah, \d+ pages of 4096 bytes, SHA-256, every page matches its hash\n$/u);
    const bytes = fs.readFileSync(binaryOf(p));
    expect(verifyAdHocSignature(bytes)).toEqual([]);
    bytes[0x4000] = bytes[0x4000]! ^ 0xff;
    expect(verifyAdHocSignature(bytes)).toEqual([expect.stringMatching(/^1 of \d+ pages do not match their hash/u)]);
    const changed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ptah-macho-")), "kubectl-ptah");
    fs.writeFileSync(changed, bytes);
    const broken = run(signer!, ["show", changed]);
    fs.rmSync(path.dirname(changed), { recursive: true, force: true });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^1 of \d+ pages do not match their hash\n$/u);
  });
});
