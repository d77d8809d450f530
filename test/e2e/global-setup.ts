// The e2e tier's setup and teardown. Setup: build the plugin, put `kubectl-ptah` on a PATH
// folder (PTAH_BIN_DIR) so the real `kubectl` runs it as `kubectl ptah`, start the lab (built
// once from the Go module proxy). Without Go the tier is skipped with its reason (PTAH_E2E_SKIP, listed
// at the end of the run by test/support/not-run-reporter.ts), unless under CI (CI=true or CI=1, or
// PTAH_E2E=required: test/support/machine-tools.ts toolsRequired), where that is a failure: the tier
// and the read-only proof after it cannot be skipped by CI without a word. It names the audit log and the offset the tier
// starts at (PTAH_E2E_AUDIT_LOG, PTAH_E2E_AUDIT_START) for the read-only proof, which runs in
// test/e2e/read-only-reporter.ts and not in the teardown here: vitest only logs a teardown's error.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { TestProject } from "vitest/node";
import { binCacheRoot, labDirOf, labLayout, repoLayout } from "../../lab/config.ts";
import type { LabState } from "../../lab/state.ts";
import { auditLogSize } from "../support/audit.ts";
import { toolsRequired } from "../support/machine-tools.ts";
import { shellQuote } from "../support/shell-quote.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const LAB = repoLayout(REPO).launcher;

function log(line: string): void {
  process.stderr.write(`[e2e] ${line}\n`);
}

function hasGo(): boolean {
  return spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
}

/** True when the run has the read-only proof's reporter (vitest.config.ts or a --reporter flag). */
function proofRegistered(project: TestProject): boolean {
  return project.vitest.config.reporters.some((r) => Array.isArray(r) && typeof r[0] === "string" && r[0].includes("read-only-reporter"));
}

/**
 * `kubectl-ptah` on PTAH_BIN_DIR: the plugin under test, always with the lab's plugin certificates
 * (lab/config.ts PLUGIN_GROUP). A kubeconfig of the lab, in KUBECONFIG or --kubeconfig,
 * is swapped for its plugin twin (same contexts and user names, the twin certificates), so the
 * tier's kubectl acts as the person and `kubectl ptah` in the same shell as the plugin's own
 * identity, which the read-only proof judges whatever the user agent. Any other kubeconfig (a
 * private lab's, a missing one) is left as it is. A node script that imports the bundle, so that
 * the kubectl-ptah kubectl finds is this process (doctor's "plugin on PATH"); the single binary
 * (PTAH_TEST_BIN) is started by a shell script instead.
 */
function writePluginEntry(entry: string, bin: string, state: LabState): void {
  const twins: Record<string, string> = { [state.kubeconfig]: state.pluginKubeconfigs.admin };
  for (const [user, file] of Object.entries(state.kubeconfigs)) twins[file] = state.pluginKubeconfigs[user as keyof LabState["kubeconfigs"]];
  const swap = `const twins = ${JSON.stringify(twins)};
const swap = (v) => twins[v] ?? v;
if (process.env.KUBECONFIG) process.env.KUBECONFIG = process.env.KUBECONFIG.split(":").map(swap).join(":");
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith("--kubeconfig=")) process.argv[i] = "--kubeconfig=" + swap(a.slice(13));
  else if (process.argv[i - 1] === "--kubeconfig") process.argv[i] = swap(a);
}`;
  const cases = Object.entries(twins).map(([from, to]) => `  ${shellQuote(from)}) KUBECONFIG=${shellQuote(to)} ;;`);
  const text = bin.endsWith(".js")
    ? `#!/usr/bin/env node\n// Written by test/e2e/global-setup.ts (writePluginEntry).\n${swap}\nimport(${JSON.stringify(pathToFileURL(bin).href)});\n`
    : `#!/bin/sh\n# Written by test/e2e/global-setup.ts (writePluginEntry); KUBECONFIG only.\ncase "$KUBECONFIG" in\n${cases.join("\n")}\nesac\nexport KUBECONFIG\nexec ${shellQuote(bin)} "$@"\n`;
  fs.writeFileSync(entry, text, { mode: 0o755 });
}

export default function setup(project: TestProject): () => void {
  const required = toolsRequired();
  const under = "the end-to-end tier is required under CI (CI=true, CI=1 or PTAH_E2E=required)";
  if (!proofRegistered(project)) {
    const why = "the read-only proof (test/e2e/read-only-reporter.ts) is not among the reporters; pass --reporter=./test/e2e/read-only-reporter.ts too";
    if (required) throw new Error(`${under}, but ${why}`);
    log(`warning: ${why}`);
  }
  const labJson = labLayout(labDirOf(REPO)).state;
  const labBin = binCacheRoot();
  if (!hasGo() && !fs.existsSync(labJson) && !fs.existsSync(labBin)) {
    const why =
      "no Go toolchain on PATH, so the lab's kube-apiserver cannot be built; to run it: install Go >= 1.26 (https://go.dev/dl/; the first start builds from the Go module proxy)";
    if (required) throw new Error(`${under}, but ${why}`);
    log(`skipping the end-to-end tier: ${why}`);
    process.env.PTAH_E2E_SKIP = why;
    return () => undefined;
  }
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: REPO, stdio: ["ignore", "inherit", "inherit"] });
  if (build.status !== 0) throw new Error("npm run build failed");
  const binDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-e2e-bin-"));
  // PTAH_TEST_BIN=dist/bin/kubectl-ptah runs the whole tier against the single binary instead.
  const bin = process.env.PTAH_TEST_BIN && process.env.PTAH_TEST_BIN !== "skip" ? path.resolve(REPO, process.env.PTAH_TEST_BIN) : path.join(REPO, "bin", "kubectl-ptah.js");
  if (!fs.existsSync(bin)) throw new Error(`PTAH_TEST_BIN names ${bin}, which does not exist (npm run build:binary)`);
  log(`the plugin under test: ${path.relative(REPO, bin)}`);
  process.env.PTAH_BIN_DIR = binDir;

  // A lab that was already running (a developer's) is reused and left running; one this
  // setup starts is stopped at the end unless PTAH_KEEP_LAB is set.
  const wasRunning = spawnSync(process.execPath, [LAB, "status"], { cwd: REPO, stdio: "ignore" }).status === 0;
  log("starting the lab (the first start builds kube-apiserver and etcd: many minutes)");
  const lab = spawnSync(process.execPath, [LAB], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", timeout: 60 * 60_000 });
  if (lab.status !== 0) {
    const why =
      lab.status === 4
        ? "the lab is missing a prerequisite (exit 4, named in its line above); to run it: install it (Go >= 1.26 for the first build; PostgreSQL: apt-get install postgresql)"
        : `the lab did not start (exit ${String(lab.status)}); see the lines above and .lab/*.log`;
    if (required || lab.status !== 4) throw new Error(why);
    log(`skipping the end-to-end tier: ${why}`);
    process.env.PTAH_E2E_SKIP = why;
    return () => undefined;
  }
  const state = JSON.parse(fs.readFileSync(labJson, "utf8")) as LabState;
  writePluginEntry(path.join(binDir, "kubectl-ptah"), bin, state);
  process.env.PTAH_E2E_AUDIT_LOG = state.auditLog;
  process.env.PTAH_E2E_AUDIT_START = String(auditLogSize(state.auditLog));

  return () => {
    fs.rmSync(binDir, { recursive: true, force: true });
    if (!wasRunning && !process.env.PTAH_KEEP_LAB) {
      spawnSync(process.execPath, [LAB, "stop"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
    }
  };
}
