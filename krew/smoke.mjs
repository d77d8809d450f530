// Smoke test of a built binary (run on every release runner): it starts, answers the offline
// commands with exit 0 and an EMPTY stderr, refuses a usage error with exit 2, and works as a
// kubectl plugin when kubectl is on PATH. Optionally checks a release archive's layout too.
//
//   node krew/smoke.mjs dist/bin/kubectl-ptah[.exe] [--archive dist/release/….tar.gz]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { releaseVersion } from "./platforms.mjs";
import { readTarGz } from "./tar.mjs";

const [binaryArg, ...rest] = process.argv.slice(2);
if (!binaryArg) {
  process.stderr.write("usage: node krew/smoke.mjs BINARY [--archive FILE]\n");
  process.exit(2);
}
const binary = path.resolve(binaryArg);
const version = releaseVersion();
const failures = [];
const lines = [];

function check(label, args, expect, options = {}) {
  const r = spawnSync(options.command ?? binary, args, { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...options.env }, timeout: 60_000 });
  const problems = [];
  if (r.error) problems.push(r.error.message);
  if (r.status !== expect.status) problems.push(`exit ${r.status}, expected ${expect.status}`);
  if (expect.stderrEmpty && r.stderr !== "") problems.push(`stderr not empty: ${JSON.stringify(r.stderr.slice(0, 300))}`);
  if (expect.stdout && !expect.stdout.test(r.stdout ?? "")) problems.push(`stdout ${JSON.stringify((r.stdout ?? "").slice(0, 200))} does not match ${expect.stdout}`);
  if (expect.stderr && !expect.stderr.test(r.stderr ?? "")) problems.push(`stderr ${JSON.stringify((r.stderr ?? "").slice(0, 200))} does not match ${expect.stderr}`);
  lines.push(`${problems.length ? "FAIL" : "ok  "} ${label}${problems.length ? `: ${problems.join("; ")}` : ""}`);
  if (problems.length) failures.push(label);
}

const ok = (stdout) => ({ status: 0, stderrEmpty: true, stdout });
check("--version", ["--version"], ok(new RegExp(`^kubectl-ptah ${version.replaceAll(".", "\\.")}\\n$`, "u")));
check("--help", ["--help"], ok(/^kubectl ptah: /u));
check("explain stale", ["explain", "stale"], ok(/^Stale \(approval state\)/u));
check("version --client -o json", ["version", "--client", "-o", "json"], ok(/"clientVersion"/u));
check("completion kubectl", ["completion", "kubectl"], ok(/^#!\/usr\/bin\/env sh\n[\s\S]*exec kubectl ptah __complete "\$@"\n$/u));
check('__complete ""', ["__complete", ""], ok(/^status\t[\s\S]*\n:4\n$/u));
check("usage error", ["status", "--bogus"], { status: 2, stderr: /^error: unknown flag: --bogus/u, stdout: /^$/u });

// As a kubectl plugin: kubectl finds kubectl-ptah[.exe] on PATH.
const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
if (kubectl.error || kubectl.status !== 0) {
  lines.push("skip kubectl ptah --version (no kubectl on PATH)");
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ptah-smoke-"));
  const name = process.platform === "win32" ? "kubectl-ptah.exe" : "kubectl-ptah";
  if (process.platform === "win32") copyFileSync(binary, path.join(dir, name));
  else symlinkSync(binary, path.join(dir, name));
  check("kubectl ptah --version", ["ptah", "--version"], ok(/^kubectl-ptah v/u), { command: "kubectl", env: { PATH: `${dir}${path.delimiter}${process.env.PATH}` } });
  rmSync(dir, { recursive: true, force: true });
}

const archiveIndex = rest.indexOf("--archive");
if (archiveIndex >= 0) {
  const entries = readTarGz(readFileSync(rest[archiveIndex + 1]));
  const names = entries.map((e) => e.name).sort();
  const windows = names.includes("kubectl-ptah.exe");
  const expected = (windows ? ["kubectl-ptah.exe", "kubectl_complete-ptah.cmd", "LICENSE"] : ["kubectl-ptah", "kubectl_complete-ptah", "LICENSE"]).sort();
  const same = JSON.stringify(names) === JSON.stringify(expected);
  const bin = entries.find((e) => e.name.startsWith("kubectl-ptah"));
  const identical = bin && Buffer.compare(bin.data, readFileSync(binary)) === 0;
  lines.push(`${same && identical ? "ok  " : "FAIL"} archive holds ${names.join(", ")}${identical ? "" : " (the binary differs from the one tested)"}`);
  if (!same || !identical) failures.push("archive");
}

process.stdout.write(`${lines.join("\n")}\n`);
if (failures.length) process.exit(1);
