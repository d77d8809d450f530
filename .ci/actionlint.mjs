// Builds actionlint (github.com/rhysd/actionlint, a Go module) from the Go module proxy once into
// $XDG_CACHE_HOME (or ~/.cache)/kubectl-ptah/ci-bin/actionlint-<version>/, the way the lab's
// binaries and krew's tools are built, then runs it over .github/workflows (arguments are passed
// on). Exit status: actionlint's (0 clean, 1 problems found), 2 when it could not be built.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const VERSION = "v1.7.12";
const dir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "kubectl-ptah", "ci-bin", `actionlint-${VERSION}`);
const bin = path.join(dir, "actionlint");
if (!existsSync(bin)) {
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const r = spawnSync("go", ["install", `github.com/rhysd/actionlint/cmd/actionlint@${VERSION}`], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, GOBIN: dir, GOFLAGS: "-mod=mod", GOWORK: "off" },
  });
  if (r.error || r.status !== 0) {
    process.stderr.write(`actionlint: go install github.com/rhysd/actionlint/cmd/actionlint@${VERSION} failed${r.error ? `: ${r.error.message}` : ""}\n`);
    process.exit(2);
  }
  process.stderr.write(`actionlint ${VERSION} built in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
const repo = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const r = spawnSync(bin, args.length ? args : ["-no-color"], { cwd: repo, stdio: "inherit" });
process.exit(r.status ?? 2);
