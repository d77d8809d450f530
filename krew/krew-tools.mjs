// Builds krew's own tools from the Go module proxy, once, into ~/.cache/kubectl-ptah/krew-bin:
// `krew` (linked as kubectl-krew, so `kubectl krew …` works) and `validate-krew-manifest`.
// test/distribution/manifest.test.ts uses them when they are there (or on PATH, or in $PTAH_KREW_BIN_DIR):
// the real validator on the rendered manifest, and `kubectl krew install --manifest --archive`
// for every platform. Needs Go; prints the folder.
//
//   node krew/krew-tools.mjs [--version v0.5.0]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const KREW_VERSION = "v0.5.0";
export const KREW_BIN_DIR = process.env.PTAH_KREW_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "krew-bin");

const argv = process.argv.slice(2);
const version = argv.includes("--version") ? argv[argv.indexOf("--version") + 1] : KREW_VERSION;
mkdirSync(KREW_BIN_DIR, { recursive: true });
for (const tool of ["krew", "validate-krew-manifest"]) {
  if (existsSync(path.join(KREW_BIN_DIR, tool))) continue;
  const r = spawnSync("go", ["install", `sigs.k8s.io/krew/cmd/${tool}@${version}`], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, GOBIN: KREW_BIN_DIR } });
  if (r.error || r.status !== 0) {
    process.stderr.write(`krew-tools: go install sigs.k8s.io/krew/cmd/${tool}@${version} failed${r.error ? `: ${r.error.message}` : ""}\n`);
    process.exit(1);
  }
}
const link = path.join(KREW_BIN_DIR, "kubectl-krew");
rmSync(link, { force: true });
symlinkSync("krew", link);
process.stdout.write(`${KREW_BIN_DIR}\n`);
