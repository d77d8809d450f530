// Builds k9s from the Go module proxy, once, into ~/.cache/kubectl-ptah/k9s-bin (or
// $PTAH_K9S_BIN_DIR), for the e2e test of plugins.yaml (test/e2e/k9s.e2e.test.ts), which drives it
// in tmux against the lab. Needs Go; prints the binary's path. .ci/run calls it before the tests,
// so no long build is inside a test.
//
//   node plugin-manifest/k9s/k9s-tool.mjs [--version v0.50.16]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const K9S_VERSION = "v0.50.16";
export const K9S_BIN_DIR = process.env.PTAH_K9S_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "k9s-bin");

const argv = process.argv.slice(2);
const version = argv.includes("--version") ? argv[argv.indexOf("--version") + 1] : K9S_VERSION;
const bin = path.join(K9S_BIN_DIR, "k9s");
if (!existsSync(bin)) {
  mkdirSync(K9S_BIN_DIR, { recursive: true });
  const r = spawnSync("go", ["install", `github.com/derailed/k9s@${version}`], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, GOBIN: K9S_BIN_DIR } });
  if (r.error || r.status !== 0) {
    process.stderr.write(`k9s-tool: go install github.com/derailed/k9s@${version} failed${r.error ? `: ${r.error.message}` : ""}\n`);
    process.exit(1);
  }
}
process.stdout.write(`${bin}\n`);
