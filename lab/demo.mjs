#!/usr/bin/env node
// `npm run demo`: replays the seed's stale-approval story against the lab and prints what was
// checked. Starts the lab if needed (node lab/lab.mjs, which also starts the operator simulator
// and waits until it is ready), replays test/scenarios/<id>.yaml step by step (note, command,
// output), then the `What was checked` table (Step | Claim | Held). Exit 0 when every claim
// held, 1 when one did not, 2 on usage errors, 3 when the lab could not be started.
//
//   node lab/demo.mjs [SCENARIO]     default stale-approval; any test/scenarios/*.yaml id works
//
// The scenario runner is TypeScript (test/scenarios/runner.ts); it is bundled with esbuild into
// .lab/demo-runner.mjs by lab/bundle.mjs, the lab's one esbuild step. `npm run demo` builds the plugin first.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleForNode } from "./bundle.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAB_DIR = path.resolve(process.env.PTAH_LAB_DIR || path.join(REPO, ".lab"));
const out = (s) => process.stdout.write(s);
const err = (s) => process.stderr.write(s);

function usage() {
  return "usage: node lab/demo.mjs [SCENARIO]   (default stale-approval; see test/scenarios/*.yaml)\n";
}

function indent(text) {
  return text.replace(/\n$/, "").split("\n").map((l) => `  ${l}`).join("\n") + "\n";
}

async function main(argv) {
  if (argv.some((a) => a === "-h" || a === "--help")) {
    out(usage());
    return 0;
  }
  if (argv.length > 1) {
    err(usage());
    return 2;
  }
  const id = argv[0] ?? "stale-approval";
  const file = path.join(REPO, "test", "scenarios", `${id}.yaml`);
  if (!fs.existsSync(file)) {
    err(`demo: no scenario ${id} (${path.relative(REPO, file)} does not exist)\n${usage()}`);
    return 2;
  }
  const plugin = path.join(REPO, "bin", "kubectl-ptah.js");
  if (!fs.existsSync(path.join(REPO, "dist", "kubectl-ptah.mjs"))) {
    err("demo: the plugin is not built; run `npm run demo` (it builds first) or `npm run build`\n");
    return 2;
  }

  err("[demo] starting the lab if needed (node lab/lab.mjs)\n");
  const lab = spawnSync(process.execPath, [path.join(REPO, "lab", "lab.mjs")], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (lab.status !== 0) {
    err(`demo: the lab did not start (exit ${lab.status}); see the lines above and .lab/*.log\n`);
    return 3;
  }
  process.env.PTAH_LAB_DIR = LAB_DIR;

  const bundle = path.join(LAB_DIR, "demo-runner.mjs");
  await bundleForNode(path.join(REPO, "test", "scenarios", "runner.ts"), bundle);
  const runner = await import(pathToFileURL(bundle).href);

  const binDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-demo-bin-"));
  fs.symlinkSync(plugin, path.join(binDir, "kubectl-ptah"));
  try {
    const scenario = runner.loadScenario(file);
    out(`${scenario.title}\n`);
    if (scenario.tagline) out(`${scenario.tagline}\n`);
    if (scenario.learn) out(`What it shows. ${scenario.learn}\n`);
    out("\n");
    const result = await runner.runScenario(scenario, {
      binDir,
      log: (line) => err(`[demo] ${line}\n`),
      onStepStart: (index, step, as) => {
        const lines = step.run.replace(/\n$/, "").split("\n");
        out(`# ${index}. ${step.note}${as === "approver" ? "" : `  (as lab-${as})`}\n`);
        out(`$ ${lines[0]}\n${lines.slice(1).map((l) => `> ${l}\n`).join("")}`);
      },
      onStep: (r) => {
        if (r.stdout) out(indent(r.stdout));
        if (r.stderr) out(indent(r.stderr));
        if (r.exit !== 0) out(`  (exit ${r.exit})\n`);
        out("\n");
      },
    });
    out("What was checked\n");
    out("Every step states what has to hold before its output may be published. A condition is read as its type, status and reason on the live object, never as a phrase in a message.\n\n");
    out(runner.formatChecks(result.checks));
    const held = result.checks.filter((c) => c.held).length;
    const versions = spawnSync("kubectl", ["version", "-o", "json"], { encoding: "utf8", env: { ...process.env, KUBECONFIG: path.join(LAB_DIR, "kubeconfig") } });
    let server = "unknown";
    try {
      server = JSON.parse(versions.stdout).serverVersion.gitVersion;
    } catch {
      /* keep unknown */
    }
    const ptah = spawnSync(process.execPath, [plugin, "version", "--client"], { encoding: "utf8" });
    out(`\nWhat it ran against\n- Kubernetes ${server} (the lab: kube-apiserver + etcd, RBAC, audit log)\n- Operator: the lab's operator simulator (test/sim), namespace ${result.namespace}\n- kubectl ptah ${(ptah.stdout || "").trim().split("\n")[0]?.replace(/^Client Version:\s*/, "") || "unknown"}\n- Recorded ${new Date().toISOString()}\n\n`);
    if (!result.passed) {
      err(`demo: ${result.checks.length - held} of ${result.checks.length} claims did not hold:\n${runner.formatFailures(result.checks)}\n`);
      return 1;
    }
    out(`${held} checks held.\n`);
    return 0;
  } finally {
    fs.rmSync(binDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    err(`demo: ${e?.stack ?? e}\n`);
    process.exit(1);
  },
);
