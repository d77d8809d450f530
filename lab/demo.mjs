#!/usr/bin/env node
// `npm run demo`: replays scenarios against the lab and prints what was checked; with --html DIR it
// also writes one self-contained replay page per scenario and DIR/index.html. Starts the lab if
// needed (node lab/lab.mjs, which also starts the operator simulator and waits until it is ready).
// This file only parses the flags and dispatches: the recorder is TypeScript
// (test/scenarios/page/recorder.ts, over test/scenarios/runner.ts), bundled with esbuild into
// .cache/demo/recorder.mjs, as lab.mjs bundles the simulator. Exit 0 when every claim held (and every
// read-only step held again as lab-viewer), 1 when one did not, 2 on usage errors, 3 when the lab
// could not be started.
//
//   node lab/demo.mjs [SCENARIO...] [--all] [--html DIR]
//     SCENARIO   a test/scenarios/*.yaml id (default stale-approval); --all replays every one
//     --html DIR write DIR/<id>.html, DIR/<id>.json and DIR/index.html (site/ is git-ignored)
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
  return "usage: node lab/demo.mjs [SCENARIO...] [--all] [--html DIR]   (default stale-approval; see test/scenarios/*.yaml)\n";
}

/** { ids, all, html } or a usage error's message. */
function parseArgs(argv) {
  const opts = { ids: [], all: false, html: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--all") opts.all = true;
    else if (a === "--html" || a.startsWith("--html=")) {
      const v = a === "--html" ? argv[++i] : a.slice("--html=".length);
      if (!v || v.startsWith("-")) return { error: "--html needs a folder" };
      opts.html = v;
    } else if (a.startsWith("-")) return { error: `unknown flag ${a}` };
    else opts.ids.push(a);
  }
  if (opts.all && opts.ids.length > 0) return { error: "give scenario ids or --all, not both" };
  return opts;
}

async function main(argv) {
  if (argv.some((a) => a === "-h" || a === "--help")) {
    out(usage());
    return 0;
  }
  const opts = parseArgs(argv);
  if (opts.error) {
    err(`demo: ${opts.error}\n${usage()}`);
    return 2;
  }
  const dir = path.join(REPO, "test", "scenarios");
  const ids = opts.all
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".yaml"))
        .sort()
        .map((f) => f.slice(0, -5))
    : opts.ids.length > 0
      ? opts.ids
      : ["stale-approval"];
  const files = ids.map((id) => path.join(dir, `${id}.yaml`));
  const missing = files.find((f) => !fs.existsSync(f));
  if (missing) {
    err(`demo: no scenario ${path.basename(missing, ".yaml")} (${path.relative(REPO, missing)} does not exist)\n${usage()}`);
    return 2;
  }
  const plugin = path.join(REPO, "bin", "kubectl-ptah.js");
  if (!fs.existsSync(path.join(REPO, "dist", "start.cjs"))) {
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

  // Two folders below the repository, so the modules' own paths (import.meta.url, ../..) still
  // find the repository from inside the bundle.
  const bundle = path.join(REPO, ".cache", "demo", "recorder.mjs");
  await bundleForNode(path.join(REPO, "test", "scenarios", "page", "recorder.ts"), bundle);
  const recorder = await import(pathToFileURL(bundle).href);

  const binDir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-demo-bin-"));
  fs.symlinkSync(plugin, path.join(binDir, "kubectl-ptah"));
  try {
    return await recorder.demo({ files, html: opts.html && path.resolve(opts.html), binDir, out, err });
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
