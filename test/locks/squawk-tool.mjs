// Fetches squawk (a PostgreSQL migration linter) once, into ~/.cache/kubectl-ptah/squawk-bin (or
// $PTAH_SQUAWK_BIN_DIR), for the lock analyser's cross-check (test/locks/squawk.test.ts): the
// PyPI package squawk-cli carries the linter's own binary inside its wheel, so `pip download`
// brings the wheel (no install into any Python) and the binary is taken out of it. Needs pip and
// python3; prints the binary's path. .ci/run calls it before the tests.
//
//   node test/locks/squawk-tool.mjs
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const SQUAWK_VERSION = "2.70.0";
export const SQUAWK_BIN_DIR = process.env.PTAH_SQUAWK_BIN_DIR ?? path.join(os.homedir(), ".cache", "kubectl-ptah", "squawk-bin");

function fail(message) {
  process.stderr.write(`squawk-tool: ${message}\n`);
  process.exit(1);
}

const bin = path.join(SQUAWK_BIN_DIR, "squawk");
const has = () => existsSync(bin) && spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim() === `squawk ${SQUAWK_VERSION}`;
if (!has()) {
  mkdirSync(SQUAWK_BIN_DIR, { recursive: true });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "squawk-wheel-"));
  try {
    const pip = spawnSync("python3", ["-m", "pip", "download", `squawk-cli==${SQUAWK_VERSION}`, "--no-deps", "--only-binary=:all:", "--quiet", "-d", tmp], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (pip.error || pip.status !== 0) fail(`pip download squawk-cli==${SQUAWK_VERSION} failed${pip.error ? `: ${pip.error.message}` : ""}`);
    const wheel = readdirSync(tmp).find((f) => f.endsWith(".whl"));
    if (!wheel) fail("pip downloaded no wheel");
    // A wheel is a zip; the binary is its one script.
    const member = `squawk_cli-${SQUAWK_VERSION}.data/scripts/squawk`;
    const out = path.join(tmp, "squawk");
    const unzip = spawnSync(
      "python3",
      ["-c", "import sys, zipfile; open(sys.argv[3], 'wb').write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))", path.join(tmp, wheel), member, out],
      {
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    if (unzip.status !== 0) fail(`${wheel} holds no ${member}`);
    // A copy, not a rename: the temporary folder may be on another file system.
    copyFileSync(out, bin);
    chmodSync(bin, 0o755);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!has()) fail(`${bin} does not answer --version with squawk ${SQUAWK_VERSION}`);
}
process.stdout.write(`${bin}\n`);
