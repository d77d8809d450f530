// The release tier's setup: `npm run build:release` (the bundle, then six SEA binaries from the
// pinned Node builds, their archives and the six-platform manifest), once per run. The Node
// builds and krew/adhoc-sign (the macOS signer, Go) are cached under $HOME/.cache/kubectl-ptah, so
// only the first run downloads (~230 MB from the npm registry, about 2 minutes here) and builds
// adhoc-sign (about a minute of CPU); krew's tools are built first, into ~/.cache too. Without Go and without a built adhoc-sign the tier is not
// run, with its reason (PTAH_RELEASE_SKIP, printed by test/support/not-run-reporter.ts), unless
// under CI (CI=true or CI=1, or PTAH_E2E=required: toolsRequired), where that is a failure; a
// failed build always fails the tier.
import { spawnSync } from "node:child_process";
import path from "node:path";
// @ts-expect-error -- plain .mjs release tooling, no type declarations
import { findAdhocSign, hasGo } from "../../krew/release-tools.mjs";
import { toolsRequired } from "../support/machine-tools.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");

export default function setup(): void {
  if (!(findAdhocSign() as string | undefined) && !(hasGo() as boolean)) {
    const why = "no Go toolchain on PATH to build krew/adhoc-sign, the macOS binaries' signer; to run it: install Go >= 1.26 (as the lab needs)";
    if (toolsRequired()) throw new Error(`the release tier is required under CI, but ${why}`);
    process.stderr.write(`[release] not running the release tier: ${why}\n`);
    process.env.PTAH_RELEASE_SKIP = why;
    return;
  }
  // krew's own tools (Go, from the module proxy; minutes the first time) are built here, before
  // the tests, rather than inside a test's timeout.
  process.stderr.write("[release] krew's tools (first run: go install of krew and validate-krew-manifest)\n");
  const krew = spawnSync(process.execPath, [path.join(REPO, "krew", "krew-tools.mjs")], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"], timeout: 30 * 60_000 });
  if (krew.status !== 0) throw new Error(`node krew/krew-tools.mjs failed (exit ${String(krew.status)}); see the lines above`);
  process.stderr.write("[release] npm run build:release (first run: downloads the Node builds, builds krew/adhoc-sign)\n");
  const r = spawnSync("npm", ["run", "-s", "build:release"], { cwd: REPO, stdio: ["ignore", "inherit", "inherit"], timeout: 30 * 60_000 });
  if (r.status !== 0) throw new Error(`npm run build:release failed (exit ${String(r.status)}); see the lines above`);
}
