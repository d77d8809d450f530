#!/usr/bin/env node
// The lab: a real, local Kubernetes control plane (kube-apiserver + etcd, no Docker) for the
// end-to-end tests, the demo and the benchmarks of kubectl-ptah.
//
//   node lab/lab.mjs [start]   build once (cached outside the repo), start, print `export KUBECONFIG=…`
//   node lab/lab.mjs stop      stop the processes and wipe the etcd data (next start is clean)
//   node lab/lab.mjs status    report; exit 0 when running and healthy, 3 otherwise
//   node lab/lab.mjs env       print the export line; exit 3 when not running
//   node lab/lab.mjs stop-apiserver / start-apiserver
//                              stop only kube-apiserver (etcd and the data stay), start it again
//                              with the same arguments and port (fault tests: a watch across an
//                              apiserver restart)
//
// This file is the launcher: the lab is TypeScript (lab/*.ts, entry lab/cli.ts, type-checked
// with the rest), which Node 20 cannot run directly. It bundles it with esbuild (a
// devDependency, through lab/bundle.mjs) into .cache/lab-bundle/, keyed by the digest of every
// input, so a launch without changes only hashes those files, and runs it.
// Exit codes: 0 ok, 1 a step failed, 2 usage, 3 not running, 4 no Go toolchain for the first build.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cachedBundle } from "./bundle.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let lab;
try {
  const bundle = await cachedBundle({ entry: path.join(REPO, "lab", "cli.ts"), dir: path.join(REPO, ".cache", "lab-bundle"), name: "lab", root: REPO });
  lab = await import(pathToFileURL(bundle).href);
} catch (err) {
  process.stderr.write(`lab: step "bundle lab/*.ts (esbuild; npm ci installs it)" failed: ${err?.message ?? err}\n`);
  process.exit(1);
}
process.exit(await lab.run(process.argv.slice(2), REPO));
