#!/usr/bin/env node
// `npm run bench`: kubectl ptah measured against its floor and kubectl on the lab.
//
//   node test/bench/bench.mjs [--quick] [--runs N] [--sizes 100,1000,5000] [--keep-lab] [--record]
//
// Starts a dedicated lab (PTAH_LAB_DIR=bench-results/lab, simulator off, so nothing but the
// measured commands talks to its API server), seeds it incrementally through the HTTP API
// (seed.mjs) — 100, 1,000 and 5,000 PtahSchemas over 10 namespaces, each with a current plan and
// three approvals, plus one schema whose plan is 8 MiB in 16 chunks — and at each size measures
// every case (cases.mjs): the plugin and its references in the same run, interleaved, after one
// warm-up each (measure.mjs): wall time (median), peak RSS and the HTTP requests each run sent
// (the lab's audit log, by user agent). Prints a table, writes bench-results/bench.json and
// bench.md (report.mjs); --record also copies the JSON to test/bench/latest.json and puts the
// table in docs/performance.md. Performance is judged only here, by ratios within one run, never by timed
// assertions in tests. Exit status: 0 when the harness ran (missed targets are reported), 1 otherwise.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildCases } from "./cases.mjs";
import { fleetLayout, slowProxy, writeFleetKubeconfig } from "./fleet.mjs";
import { measureCase, RSS_METHOD, round, runSync } from "./measure.mjs";
import { parseArgs } from "./options.mjs";
import { fmtMs, renderMarkdown, renderText, updateDocs } from "./report.mjs";
import { ApiClient, NAMESPACES, pool, schemaAt, seedBigPlan, seedSchema } from "./seed.mjs";
import { evaluateTargets } from "./targets.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const OUT_DIR = path.join(REPO, "bench-results");
const t0 = performance.now();
const say = (msg) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);

/**
 * gcloud's `kubectl` is a dispatcher that GETs /version before every command to pick
 * kubectl.<minor>, then runs it: an extra process and round trip. The bench runs the binary it
 * would pick, directly.
 */
function chooseKubectl(opts, lab) {
  if (opts.kubectl) return { path: opts.kubectl, note: "--kubectl" };
  const v = runSync("kubectl", ["version", "--client", "-o", "json"]);
  const git = /"gitVersion":\s*"([^"]+)"/.exec(v.stdout)?.[1] ?? "";
  if (!git.includes("dispatcher")) return { path: "kubectl", note: `kubectl ${git}` };
  const real = fs.realpathSync(runSync("sh", ["-c", "command -v kubectl"]).stdout.trim());
  const minor = /^(\d+\.\d+)/.exec(lab.versions.kubernetes)?.[1];
  const candidate = path.join(path.dirname(real), `kubectl.${minor}`);
  if (minor && fs.existsSync(candidate))
    return { path: candidate, note: `${path.basename(candidate)} (what gcloud's kubectl dispatcher ${git} runs for a ${minor} server; used directly)` };
  return { path: "kubectl", note: `kubectl ${git} (dispatcher; no kubectl.${minor} beside it)` };
}

/** A private copy of the build (bin/, dist/, package.json): colleagues may rebuild dist/ mid-run. */
function snapshotBuild(tmp) {
  const root = path.join(tmp, "pkg");
  // The npm tree and its loader; not the SEA's one-file bundle, metafiles, the binary or release archives.
  const keep = (rel) => rel !== "kubectl-ptah.cjs" && !rel.endsWith(".json") && !/^(bin|release|krew)(\/|$)/.test(rel);
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(REPO, "bin"), path.join(root, "bin"), { recursive: true });
  fs.cpSync(path.join(REPO, "dist"), path.join(root, "dist"), { recursive: true, filter: (src) => keep(path.relative(path.join(REPO, "dist"), src)) });
  fs.copyFileSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
  return path.join(root, "bin", "kubectl-ptah.js");
}

/**
 * A copy of the snapshot whose loader installs neither guard (the two install calls of
 * dist/start.cjs replaced): the guards' cost at start is the guarded bin's time minus this one's,
 * in the same case. Throws when the calls are not found once each, so a renamed call cannot
 * silently measure two guarded bins.
 */
function unguardedBuild(tmp, plugin) {
  const root = path.join(tmp, "pkg-unguarded");
  fs.cpSync(path.resolve(path.dirname(plugin), ".."), root, { recursive: true });
  const start = path.join(root, "dist", "start.cjs");
  let text = fs.readFileSync(start, "utf8");
  for (const call of ["installProcessGuard", "installEgressGuard"]) {
    const found = text.match(new RegExp(`\\b[\\w$]+\\.${call}\\(\\)`, "g")) ?? [];
    if (found.length !== 1) throw new Error(`dist/start.cjs calls ${call}() ${found.length} times, not once: the unguarded copy cannot be made`);
    text = text.replace(found[0], "void 0");
  }
  fs.writeFileSync(start, text);
  return path.join(root, "bin", "kubectl-ptah.js");
}

function labCommand(opts, cmd) {
  const env = { ...process.env, PTAH_LAB_DIR: opts.labDir, PTAH_LAB_SIM: opts.sim ? "1" : "0" };
  const r = runSync(process.execPath, [path.join(REPO, "lab", "lab.mjs"), cmd], { env, stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`node lab/lab.mjs ${cmd} exited with ${r.status}`);
}

function startLab(opts) {
  fs.mkdirSync(opts.labDir, { recursive: true });
  // Every bench starts from an empty cluster: stop wipes etcd, start is then a fresh one.
  say(`starting a fresh lab in ${path.relative(REPO, opts.labDir)} (simulator ${opts.sim ? "on" : "off"})`);
  labCommand(opts, "stop");
  labCommand(opts, "start");
  return JSON.parse(fs.readFileSync(path.join(opts.labDir, "lab.json"), "utf8"));
}

async function bundleLib(tmp) {
  const esbuild = await import("esbuild");
  const outfile = path.join(tmp, "publish-plan.mjs");
  await esbuild.build({
    entryPoints: [path.join(REPO, "test", "support", "publish-plan.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}

async function seedUpTo(api, lib, from, to, concurrency) {
  const started = performance.now();
  const before = api.requests;
  let last = 0;
  await pool(
    from,
    to,
    concurrency,
    (i) => seedSchema(api, lib, i),
    (done) => {
      if (performance.now() - last > 10_000) {
        last = performance.now();
        say(`  seeded ${from + done}/${to} schemas`);
      }
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return { from, to, seconds: round(seconds, 1), requests: api.requests - before, requestsPerSecond: round((api.requests - before) / seconds, 0) };
}

/** Schema 0's current plan and its chunks, for the single-object floors. */
async function firstSchemaPlan(api) {
  const { name, namespace } = schemaAt(0);
  const base = `/apis/operator.ptah.run/v1alpha1/namespaces/${namespace}`;
  const schema = await api.request("GET", `${base}/ptahschemas/${name}`);
  const plan = await api.request("GET", `${base}/ptahschemaplans/${schema.body.status.plan.name}`);
  return { plan: plan.body.metadata.name, chunks: plan.body.status.publishedChunks.map((c) => c.name) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2), OUT_DIR);
  if (!fs.existsSync(path.join(REPO, "dist", "start.cjs"))) throw new Error("dist/ is missing: run `npm run build` (npm run bench does)");
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-bench-"));
  const plugin = opts.pluginBin ?? snapshotBuild(tmp);
  const unguarded = unguardedBuild(tmp, plugin);
  const binDir = path.join(tmp, "bin");
  fs.mkdirSync(binDir);
  fs.symlinkSync(plugin, path.join(binDir, "kubectl-ptah"));
  const builtBinary = path.join(REPO, "dist", "bin", "kubectl-ptah");
  let binary = opts.binary ?? (fs.existsSync(builtBinary) ? builtBinary : undefined);
  if (binary) {
    fs.copyFileSync(binary, path.join(binDir, "kubectl-ptah-binary"));
    fs.chmodSync(path.join(binDir, "kubectl-ptah-binary"), 0o755);
    binary = path.join(binDir, "kubectl-ptah-binary");
  } else say("no single binary (npm run build:binary): its rows and columns are left out");

  const loadBefore = os.loadavg().map((x) => round(x, 2));
  const lab = startLab(opts);
  const env = {
    ...process.env,
    PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
    KUBECONFIG: lab.kubeconfigs.viewer,
    KUBECACHEDIR: path.join(tmp, "kube-cache"),
    NO_COLOR: "1",
  };
  delete env.PTAH_DEBUG;
  const kubectl = chooseKubectl(opts, lab);
  say(`kubectl: ${kubectl.note}`);
  const ctx = {
    lab,
    env,
    tmp,
    runs: opts.runs,
    offlineRuns: opts.quick ? opts.runs : opts.runs * 3,
    guardRuns: opts.quick ? 21 : 101,
    heavyRuns: opts.heavyRuns,
    only: opts.only,
    kubectl: kubectl.path,
    binary,
    unguarded,
    firstSize: opts.sizes[0],
    largestSize: Math.max(...opts.sizes),
  };

  // The fleet case's 50 contexts: the lab, a proxy adding 100 ms each way (a far cluster), port 1 (refused).
  const labUrl = new URL(lab.server);
  const slow = await slowProxy({ host: labUrl.hostname, port: Number(labUrl.port) }, 100);
  const layout = fleetLayout(50, { slow: slow.port, dead: 1 });
  const count = (kind) => layout.filter((c) => c.kind === kind).length;
  ctx.fleet = {
    kubeconfig: await writeFleetKubeconfig(lab.kubeconfigs.viewer, layout, NAMESPACES[0], path.join(tmp, "fleet", "config")),
    slowest: layout.find((c) => c.kind === "slow").name,
    summary: `${count("live")} at the lab, ${count("slow")} through a proxy adding 100 ms each way, ${count("dead")} refused`,
  };

  const lib = await bundleLib(tmp);
  const api = new ApiClient(lab, { concurrency: opts.concurrency });
  for (const ns of NAMESPACES) await api.ensureNamespace(ns);
  say("seeding the schema with the 8 MiB plan");
  const big = await seedBigPlan(api, lib);
  say(`  ${big.plan}: ${big.documentBytes} bytes, ${big.chunks.length} chunks, ${big.statements} statements`);

  const git = (...args) => runSync("git", args, { cwd: REPO }).stdout.trim();
  const report = {
    tool: "kubectl-ptah bench (test/bench/bench.mjs)",
    date: new Date().toISOString(),
    commit: git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain", "--untracked-files=no") ? "+dirty" : ""),
    mode: opts.quick ? "quick" : "full",
    runs: opts.runs,
    heavyRuns: opts.heavyRuns,
    offlineRuns: ctx.offlineRuns,
    guardRuns: ctx.guardRuns,
    rssMethod: RSS_METHOD,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "?", memoryMb: Math.round(os.totalmem() / 1048576), loadBefore, loadAfter: [] },
    versions: {
      node: process.version,
      kubectl: runSync(kubectl.path, ["version", "--client", "-o", "json"], { env }).stdout.match(/"gitVersion":\s*"([^"]+)"/)?.[1] ?? "?",
      kubectlBinary: kubectl.note,
      server: lab.versions,
      plugin: runSync(plugin, ["--version"]).stdout.trim(),
      pluginBinary: opts.pluginBin ?? "bin/kubectl-ptah.js (npm bin → dist/start.cjs → dist/npm/, V8 code cache warm), copied before the run",
      binary: binary ? "dist/bin/kubectl-ptah (npm run build:binary), copied before the run" : null,
    },
    lab: { server: lab.server, identity: "lab-viewer", simulator: opts.sim },
    seeding: { concurrency: opts.concurrency, namespaces: NAMESPACES.length, approvalsPerSchema: 3, big, steps: [] },
    sizes: [],
    targets: [],
  };

  let seeded = 0;
  let one;
  for (const size of opts.sizes) {
    say(`seeding schemas ${seeded}..${size - 1} (${size - seeded} schemas, ${3 * (size - seeded)} approvals)`);
    const step = await seedUpTo(api, lib, seeded, size, opts.concurrency);
    report.seeding.steps.push(step);
    say(`  done in ${step.seconds}s (${step.requests} requests, ${step.requestsPerSecond}/s)`);
    seeded = size;
    one ??= await firstSchemaPlan(api);
    const results = [];
    for (const c of buildCases(ctx, size, one, big)) {
      say(`size ${size}: ${c.id}`);
      const r = await measureCase(c, ctx);
      results.push(r);
      const refs = Object.entries(r.ratios)
        .map(([n, x]) => `${n} ${fmtMs(r.sides[n].medianMs)} (${x ?? "-"}×)`)
        .join(", ");
      const errors = Object.entries(r.sides)
        .filter(([, x]) => x.error)
        .map(([n, x]) => ` ${n} error: ${x.error}`)
        .join("");
      say(`  plugin ${fmtMs(r.sides.plugin.medianMs)} (${r.sides.plugin.requestCount ?? "-"} req, ${r.sides.plugin.peakRssMb ?? "-"} MB) vs ${refs}${errors}`);
    }
    report.sizes.push({ size, schemas: size + 1, approvals: 3 * size, results });
  }
  api.close();
  await slow.close();

  report.machine.loadAfter = os.loadavg().map((x) => round(x, 2));
  report.targets = evaluateTargets(report);
  report.totalSeconds = Math.round((performance.now() - t0) / 1000);
  report.recorded = opts.record;
  // No machine paths in the record: the checkout and the run's temp folder by name only.
  const json = JSON.stringify(report, null, 2).replaceAll(tmp, "<tmp>").replaceAll(REPO, "<repo>");
  fs.writeFileSync(path.join(OUT_DIR, "bench.json"), `${json}\n`);
  const markdown = renderMarkdown(report);
  fs.writeFileSync(path.join(OUT_DIR, "bench.md"), markdown);
  if (opts.record) {
    fs.copyFileSync(path.join(OUT_DIR, "bench.json"), path.join(REPO, "test", "bench", "latest.json"));
    if (!updateDocs(markdown)) say("docs/performance.md has no bench markers");
  }
  process.stdout.write(`\n${renderText(report)}`);
  say(`results: bench-results/bench.json, bench.md${opts.record ? "; recorded in test/bench/latest.json and docs/performance.md" : ""}`);
  if (opts.keepLab) say(`the lab keeps running: export KUBECONFIG=${lab.kubeconfig}  (stop: PTAH_LAB_DIR=${lab.labDir} node lab/lab.mjs stop)`);
  else labCommand(opts, "stop");
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`bench: ${err?.stack ?? err}\n`);
  process.exit(1);
});
