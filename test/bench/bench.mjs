#!/usr/bin/env node
// `npm run bench`: kubectl ptah measured side by side with kubectl against the lab (issue 9).
//
//   node test/bench/bench.mjs [--quick] [--runs N] [--sizes 100,1000,5000] [--keep-lab] [--record]
//
// Starts a dedicated lab (PTAH_LAB_DIR=bench-results/lab, simulator off, so nothing but the
// measured commands talks to its API server), seeds it incrementally through the HTTP API
// (seed.mjs) — 100, 1,000 and 5,000 PtahSchemas over 10 namespaces, each with a current plan and
// three approvals, plus one schema whose plan is 8 MiB in 16 chunks — and at each size measures
// every command and its kubectl reference in the same run, interleaved (A B A B …) after one
// warm-up each: wall time (median), peak RSS (/usr/bin/time -f %M, else /proc polling) and the
// HTTP requests each run sent (the lab's audit log, between byte offsets, by user agent).
// Prints a table and writes bench-results/bench.json (+ bench.md); --record also copies the JSON
// to test/bench/latest.json and puts the table in README.md between its bench markers. Performance is judged only here, by ratios
// within one run, never by timed assertions in tests.
//
// Exit status: 0 when the harness ran (targets missed are reported, not failures), 1 otherwise.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ApiClient, BIG_NAMESPACE, NAMESPACES, pool, schemaAt, seedBigPlan, seedSchema } from "./seed.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const OUT_DIR = path.join(REPO, "bench-results");
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0)}s`;
const say = (msg) => process.stderr.write(`[bench ${elapsed()}] ${msg}\n`);

// ---------------------------------------------------------------------------------------------
// options

function parseArgs(argv) {
  const o = { quick: false, runs: undefined, sizes: undefined, keepLab: false, record: false, concurrency: 16, labDir: undefined, sim: false, only: undefined, kubectl: undefined, pluginBin: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--quick") o.quick = true;
    else if (a.startsWith("--runs")) o.runs = Number(value());
    else if (a.startsWith("--sizes")) o.sizes = value().split(",").map(Number);
    else if (a.startsWith("--concurrency")) o.concurrency = Number(value());
    else if (a.startsWith("--lab-dir")) o.labDir = path.resolve(value());
    else if (a.startsWith("--only")) o.only = value().split(",");
    else if (a.startsWith("--kubectl")) o.kubectl = value();
    else if (a.startsWith("--plugin-bin")) o.pluginBin = path.resolve(value());
    else if (a === "--keep-lab") o.keepLab = true;
    else if (a === "--record") o.record = true;
    else if (a === "--with-sim") o.sim = true;
    else if (a === "-h" || a === "--help") {
      process.stdout.write(
        [
          "usage: node test/bench/bench.mjs [options]   (npm run bench -- [options])",
          "  --quick            sizes 20,100 and 3 runs: checks the harness in about a minute",
          "  --sizes A,B,C      schema counts to seed and measure, ascending (default 100,1000,5000)",
          "  --runs N           measured runs per command after one warm-up (default 5)",
          "  --only a,b         only these cases: offline,status-one,status-all,approvals-all,ledger-all,inbox-all,plan,diff",
          "  --keep-lab         leave the seeded lab running (for profiling); default stops it",
          "  --record           also copy the results to test/bench/latest.json and put the table in",
          "                     README.md between <!-- bench:start --> and <!-- bench:end -->",
          "  --lab-dir DIR      lab state folder (default bench-results/lab; never the shared .lab)",
          "  --with-sim         start the operator simulator too (default off: no background traffic)",
          "  --concurrency N    requests in flight while seeding (default 16)",
          "  --plugin-bin FILE  measure this plugin executable instead of the npm bin (e.g. a SEA binary)",
          "  --kubectl PATH     kubectl binary for both sides (default: kubectl; behind gcloud's dispatcher,",
          "                     the kubectl.<minor> binary the dispatcher would pick for the lab's server)",
          "",
        ].join("\n"),
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  o.sizes ??= o.quick ? [20, 100] : [100, 1000, 5000];
  o.runs ??= o.quick ? 3 : 5;
  o.labDir ??= path.join(OUT_DIR, "lab");
  if (o.sizes.some((s, i) => !Number.isInteger(s) || s < 1 || (i > 0 && s <= o.sizes[i - 1]))) throw new Error("--sizes must be ascending positive integers");
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error("--runs must be a positive integer");
  return o;
}

// ---------------------------------------------------------------------------------------------
// small helpers

function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function pages(count, limit = 500) {
  return Math.max(1, Math.ceil(count / limit));
}

function runSync(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  return r;
}

const HAVE_TIME = (() => {
  try {
    return runSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;
  } catch {
    return false;
  }
})();

/**
 * The kubectl both sides run through. gcloud's `kubectl` is a dispatcher that, before every
 * non-plugin command, GETs /version to pick kubectl.<minor> and then runs it: an extra process
 * and round trip that only the kubectl references would pay. A normal install has no dispatcher,
 * so when one is found the bench uses the binary it would pick, for both sides.
 */
function chooseKubectl(opts, lab) {
  if (opts.kubectl) return { path: opts.kubectl, note: "--kubectl" };
  const v = runSync("kubectl", ["version", "--client", "-o", "json"]);
  const git = /"gitVersion":\s*"([^"]+)"/.exec(v.stdout)?.[1] ?? "";
  if (!git.includes("dispatcher")) return { path: "kubectl", note: `kubectl ${git}` };
  const real = fs.realpathSync(runSync("sh", ["-c", "command -v kubectl"]).stdout.trim());
  const minor = /^(\d+\.\d+)/.exec(lab.versions.kubernetes)?.[1];
  const candidate = path.join(path.dirname(real), `kubectl.${minor}`);
  if (minor && fs.existsSync(candidate)) return { path: candidate, note: `${path.basename(candidate)} (what gcloud's kubectl dispatcher ${git} runs for a ${minor} server; used directly)` };
  return { path: "kubectl", note: `kubectl ${git} (dispatcher; no kubectl.${minor} beside it)` };
}

/** A private copy of the build (bin/, dist/, package.json): colleagues may rebuild dist/ mid-run. */
function snapshotBuild(tmp) {
  const root = path.join(tmp, "pkg");
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(REPO, "bin"), path.join(root, "bin"), { recursive: true });
  fs.cpSync(path.join(REPO, "dist"), path.join(root, "dist"), { recursive: true, filter: (src) => !src.endsWith(".cjs") && !src.endsWith(".json") });
  fs.copyFileSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
  return path.join(root, "bin", "kubectl-ptah.js");
}

// ---------------------------------------------------------------------------------------------
// the lab

function labCommand(opts, cmd) {
  const env = { ...process.env, PTAH_LAB_DIR: opts.labDir, PTAH_LAB_SIM: opts.sim ? "1" : "0" };
  const r = runSync(process.execPath, [path.join(REPO, "lab", "lab.mjs"), cmd], { env, stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`node lab/lab.mjs ${cmd} exited with ${r.status}`);
  return r.stdout;
}

function startLab(opts) {
  fs.mkdirSync(opts.labDir, { recursive: true });
  // Every bench starts from an empty cluster: stop wipes etcd, start is then a fresh one.
  say(`starting a fresh lab in ${path.relative(REPO, opts.labDir)} (simulator ${opts.sim ? "on" : "off"})`);
  labCommand(opts, "stop");
  labCommand(opts, "start");
  return JSON.parse(fs.readFileSync(path.join(opts.labDir, "lab.json"), "utf8"));
}

// ---------------------------------------------------------------------------------------------
// the audit log: requests per run, by user agent, between byte offsets

function auditSize(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function auditEventsSince(file, offset) {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    let read = 0;
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const byId = new Map();
    for (const line of buf.subarray(0, read).toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      let ev;
      try {
        ev = JSON.parse(line);
      } catch {
        continue;
      }
      if (ev && typeof ev.auditID === "string" && !byId.has(ev.auditID)) byId.set(ev.auditID, ev);
    }
    return [...byId.values()];
  } finally {
    fs.closeSync(fd);
  }
}

function classify(userAgent = "") {
  if (userAgent.startsWith("kubectl-ptah/")) return "plugin";
  if (userAgent.startsWith("kubectl-dispatcher/")) return "dispatcher";
  if (userAgent.startsWith("kubectl")) return "kubectl";
  if (userAgent.startsWith("ptah-bench-seed/")) return "seed";
  return "other";
}

function describeRequest(ev) {
  const r = ev.objectRef;
  if (!r?.resource) return `${ev.verb} ${ev.requestURI.split("?")[0]}`;
  return `${ev.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ""}`;
}

function summariseRequests(events) {
  const byAgent = {};
  const byRequest = {};
  for (const ev of events) {
    const who = classify(ev.userAgent);
    if (who === "seed") continue;
    byAgent[who] = (byAgent[who] ?? 0) + 1;
    const key = `${who}: ${describeRequest(ev)}`;
    byRequest[key] = (byRequest[key] ?? 0) + 1;
  }
  return { byAgent, byRequest };
}

// ---------------------------------------------------------------------------------------------
// running one command

/** Peak RSS of a process tree by polling /proc (fallback when /usr/bin/time is missing). */
function pollRss(rootPid) {
  let peakKb = 0;
  const tick = () => {
    let total = 0;
    const stack = [rootPid];
    const seen = new Set();
    while (stack.length) {
      const pid = stack.pop();
      if (seen.has(pid)) continue;
      seen.add(pid);
      try {
        const st = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const m = /VmRSS:\s+(\d+)/.exec(st);
        if (m) total += Number(m[1]);
        for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
          const kids = fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
          if (kids) stack.push(...kids.split(/\s+/).map(Number));
        }
      } catch {
        /* gone */
      }
    }
    peakKb = Math.max(peakKb, total);
  };
  const timer = setInterval(tick, 5);
  tick();
  return () => {
    clearInterval(timer);
    return peakKb;
  };
}

async function runOnce(argv, ctx, { capture = false } = {}) {
  const timeFile = path.join(ctx.tmp, "time.out");
  fs.rmSync(timeFile, { force: true });
  const [cmd, ...args] = HAVE_TIME ? ["/usr/bin/time", "-f", "%M", "-o", timeFile, ...argv] : argv;
  const stdoutFile = capture ? path.join(ctx.tmp, "stdout.out") : "/dev/null";
  const out = fs.openSync(stdoutFile, "w");
  const mark = auditSize(ctx.lab.auditLog);
  let stderr = "";
  const start = performance.now();
  const child = spawn(cmd, args, { env: ctx.env, stdio: ["ignore", out, "pipe"] });
  const stopPoll = HAVE_TIME ? undefined : pollRss(child.pid);
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c, sig) => resolve(c ?? (sig ? 128 : 1)));
  });
  const ms = performance.now() - start;
  fs.closeSync(out);
  let rssKb = stopPoll?.() ?? NaN;
  if (HAVE_TIME) {
    const lines = fs.readFileSync(timeFile, "utf8").trim().split("\n");
    rssKb = Number(lines[lines.length - 1]);
  }
  const requests = summariseRequests(auditEventsSince(ctx.lab.auditLog, mark));
  const stdoutBytes = capture ? fs.statSync(stdoutFile).size : undefined;
  return { ms, rssKb, code, stderr, requests, stdoutBytes, stdoutFile: capture ? stdoutFile : undefined };
}

/** One warm-up each, then `runs` interleaved measured runs of plugin and reference. */
async function measurePair(c, ctx) {
  const sides = { plugin: c.plugin, reference: c.reference };
  const result = { id: c.id, label: c.label, target: c.target, expectedRequests: c.expectedRequests, plugin: null, reference: null };
  for (const [side, spec] of Object.entries(sides)) {
    const warm = await runOnce(spec.argv, ctx, { capture: true });
    const problem = warm.code !== 0 ? `exit ${warm.code}: ${warm.stderr.trim().split("\n")[0] ?? ""}` : spec.check?.(warm);
    result[side] = { command: spec.display, argv: spec.argv, samplesMs: [], rssKb: [], requests: [], requestDetail: undefined, stdoutBytes: warm.stdoutBytes, error: problem || undefined };
  }
  const ok = (side) => !result[side].error;
  const runs = c.runs ?? ctx.runs;
  result.runs = runs;
  for (let r = 0; r < runs; r++) {
    // Alternate which side goes first, so drift in the machine's load hits both alike.
    const order = r % 2 === 0 ? ["plugin", "reference"] : ["reference", "plugin"];
    for (const side of order) {
      if (!ok(side)) continue;
      const x = await runOnce(sides[side].argv, ctx);
      const rec = result[side];
      if (x.code !== 0) {
        rec.error = `exit ${x.code} in run ${r + 1}: ${x.stderr.trim().split("\n")[0] ?? ""}`;
        continue;
      }
      rec.samplesMs.push(round(x.ms, 1));
      rec.rssKb.push(x.rssKb);
      const mine = side === "plugin" ? sides.plugin.agent : sides.reference.agent;
      rec.requests.push(mine ? (x.requests.byAgent[mine] ?? 0) : 0);
      rec.requestsByAgent = x.requests.byAgent;
      rec.requestDetail = x.requests.byRequest;
    }
  }
  for (const side of ["plugin", "reference"]) {
    const rec = result[side];
    rec.medianMs = rec.samplesMs.length ? round(median(rec.samplesMs), 1) : null;
    rec.peakRssMb = rec.rssKb.length ? round(Math.max(...rec.rssKb) / 1024, 1) : null;
    rec.requestCount = rec.requests.length ? Math.max(...rec.requests) : null;
    rec.requestsVaried = rec.requests.length ? Math.min(...rec.requests) !== Math.max(...rec.requests) : false;
  }
  result.ratio = result.plugin.medianMs && result.reference.medianMs ? round(result.plugin.medianMs / result.reference.medianMs, 2) : null;
  result.timeHeld = result.ratio === null ? null : result.ratio <= c.target;
  result.requestsHeld = c.expectedRequests === undefined || result.plugin.requestCount === null ? null : result.plugin.requestCount === c.expectedRequests;
  return result;
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// ---------------------------------------------------------------------------------------------
// the cases

function buildCases(ctx, size, big) {
  const kubectl = (args) => [ctx.kubectl, ...args];
  const ns0 = NAMESPACES[0];
  const oneSchema = schemaAt(0).name;
  const schemasTotal = size + 1; // + the big one
  const approvalsTotal = 3 * size;
  const schemasInNs0 = Math.ceil(size / NAMESPACES.length);
  const approvalsInNs0 = 3 * schemasInNs0;
  const pluginSide = (args) => ({ argv: kubectl(["ptah", ...args]), display: `kubectl ptah ${args.join(" ")}`, agent: "plugin" });
  const kubectlSide = (args) => ({ argv: kubectl(args), display: `kubectl ${args.join(" ")}`, agent: "kubectl" });
  // Start-up cases are cheap and the noisiest: three times the runs.
  const cheapRuns = ctx.runs * 3;
  const cases = [];

  // Offline: the plugin on its own vs the Node floor; and through kubectl's plugin dispatch vs a
  // do-nothing Node plugin (kubectl-bench-node0) behind the same dispatch.
  for (const [id, args] of [
    ["version", ["--version"]],
    ["explain", ["explain", "stale"]],
  ]) {
    cases.push({
      group: "offline",
      id: `${id}-direct`,
      label: `kubectl-ptah ${args.join(" ")} (the plugin process) vs node -e 0`,
      target: 1.3,
      expectedRequests: 0,
      runs: cheapRuns,
      plugin: { argv: ["kubectl-ptah", ...args], display: `kubectl-ptah ${args.join(" ")}`, agent: "plugin" },
      reference: { argv: [process.execPath, "-e", "0"], display: "node -e 0" },
    });
    cases.push({
      group: "offline",
      id: `${id}-via-kubectl`,
      label: `kubectl ptah ${args.join(" ")} vs kubectl benchnode0 (node -e 0 as a plugin)`,
      target: 1.3,
      expectedRequests: 0,
      runs: cheapRuns,
      plugin: pluginSide(args),
      reference: { argv: kubectl(["benchnode0"]), display: "kubectl benchnode0", agent: "plugin" },
    });
  }

  cases.push({
    group: "status-one",
    id: "status-one",
    label: `status ${oneSchema} (ns with ${schemasInNs0} schemas, ${approvalsInNs0} approvals)`,
    target: 1.2,
    expectedRequests: 1 + pages(approvalsInNs0),
    plugin: pluginSide(["status", oneSchema, "-n", ns0]),
    reference: kubectlSide(["get", "ptahschema", oneSchema, "-n", ns0, "-o", "yaml"]),
  });

  cases.push({
    group: "status-all",
    id: "status-all",
    label: "status -A",
    target: 1.2,
    expectedRequests: pages(schemasTotal) + pages(0) + pages(approvalsTotal),
    plugin: pluginSide(["status", "-A"]),
    reference: kubectlSide(["get", "ptahschemas,ptahmigrations,ptahschemaapprovals", "-A", "-o", "json", "--chunk-size=500"]),
  });

  // kubectl's default output of the same kinds (server-side Table): what a person would type.
  cases.push({
    group: "status-all",
    id: "status-all-table",
    label: "status -A vs kubectl get -A (table output)",
    target: 1.2,
    expectedRequests: pages(schemasTotal) + pages(0) + pages(approvalsTotal),
    plugin: pluginSide(["status", "-A"]),
    reference: kubectlSide(["get", "ptahschemas,ptahmigrations,ptahschemaapprovals", "-A", "--chunk-size=500"]),
  });

  cases.push({
    group: "approvals-all",
    id: "approvals-all",
    label: "approvals -A",
    target: 1.2,
    expectedRequests: pages(approvalsTotal) + pages(schemasTotal) + pages(0) + pages(0),
    plugin: pluginSide(["approvals", "-A"]),
    reference: kubectlSide(["get", "ptahschemaapprovals,ptahschemas,ptahmigrationapprovals,ptahmigrations", "-A", "-o", "json", "--chunk-size=500"]),
  });

  // The audit record: one list per kind (schemas, both approval kinds, acknowledgments, migrations).
  cases.push({
    group: "ledger-all",
    id: "ledger-all",
    label: "ledger -A",
    target: 1.2,
    expectedRequests: pages(schemasTotal) + pages(approvalsTotal) + pages(0) + pages(0) + pages(0),
    plugin: pluginSide(["ledger", "-A"]),
    reference: kubectlSide(["get", "ptahschemas,ptahschemaapprovals,ptahmigrations,ptahmigrationapprovals,ptahmigrationrunacknowledgments", "-A", "-o", "json", "--chunk-size=500"]),
  });

  // What waits: two lists, then access reviews. The bench runs as lab-viewer, who may create no
  // approval: one cluster-wide review (denied), then one per namespace where a schema awaits
  // approval (the seed's even-numbered schemas, in every other namespace, plus the big one's).
  const awaitingNamespaces = Math.min(size, NAMESPACES.length / 2) + 1;
  cases.push({
    group: "inbox-all",
    id: "inbox-all",
    label: `inbox -A (1 + ${awaitingNamespaces} access reviews)`,
    target: 1.2,
    expectedRequests: pages(schemasTotal) + pages(0) + 1 + awaitingNamespaces,
    plugin: pluginSide(["inbox", "-A"]),
    reference: kubectlSide(["get", "ptahschemas,ptahmigrations", "-A", "-o", "json", "--chunk-size=500"]),
  });

  const bigObjects = [`ptahschema/${big.schema}`, `ptahschemaplan/${big.plan}`, ...big.chunks.map((c) => `ptahschemaplanchunk/${c}`)];
  cases.push({
    group: "plan",
    id: "plan-8mib",
    label: `plan ${big.schema} -o sql (${(big.documentBytes / 1048576).toFixed(2)} MiB in ${big.chunks.length} chunks)`,
    target: 1.5,
    expectedRequests: 2 + big.chunks.length,
    plugin: {
      ...pluginSide(["plan", big.schema, "-n", BIG_NAMESPACE, "-o", "sql"]),
      check: (warm) => (warm.stdoutBytes < big.documentBytes * 0.5 ? `printed only ${warm.stdoutBytes} bytes of SQL` : undefined),
    },
    reference: kubectlSide(["get", ...bigObjects, "-n", BIG_NAMESPACE, "-o", "json"]),
  });

  // Two 8 MiB plans of 16 chunks, diffed statement by statement, beside `plan -o sql` of one.
  // Its cost does not depend on the number of schemas: measured once, at the largest size.
  if (size === ctx.largestSize) cases.push({
    group: "diff",
    id: "diff-8mib",
    label: `diff ${big.schema} --from plan (two ${(big.documentBytes / 1048576).toFixed(2)} MiB plans in 16 chunks, ${big.statements} statements each)`,
    target: 2.5,
    expectedRequests: 1 + 2 * (1 + big.chunks.length),
    plugin: {
      ...pluginSide(["diff", big.schema, "-n", BIG_NAMESPACE, "--from", "plan", big.earlierPlan]),
      check: (warm) => (warm.stdoutBytes < 1000 ? `printed only ${warm.stdoutBytes} bytes` : undefined),
    },
    reference: pluginSide(["plan", big.schema, "-n", BIG_NAMESPACE, "-o", "sql"]),
  });

  return cases.filter((c) => !ctx.only || ctx.only.includes(c.group));
}

// ---------------------------------------------------------------------------------------------
// seeding

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
  await pool(from, to, concurrency, (i) => seedSchema(api, lib, i), (done) => {
    const now = performance.now();
    if (now - last > 10_000) {
      last = now;
      say(`  seeded ${from + done}/${to} schemas`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  return { from, to, seconds: round(seconds, 1), requests: api.requests - before, requestsPerSecond: round((api.requests - before) / seconds, 0) };
}

// ---------------------------------------------------------------------------------------------
// report

function fmtMs(ms) {
  if (ms === null || ms === undefined) return "-";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms)}ms`;
}

function pad(s, w, right = false) {
  s = String(s);
  return right ? s.padStart(w) : s.padEnd(w);
}

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => pad(c, widths[i], i >= 2)).join("  ").trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function resultRows(report) {
  const rows = [];
  for (const s of report.sizes) {
    for (const r of s.results) {
      const p = r.plugin;
      const ref = r.reference;
      const err = p.error || ref.error;
      const held = err ? "ERROR" : [r.timeHeld === false ? "no" : "yes", r.requestsHeld === false ? "req!" : ""].filter(Boolean).join(" ");
      rows.push([
        String(s.size),
        r.id,
        fmtMs(p.medianMs),
        fmtMs(ref.medianMs),
        r.ratio === null ? "-" : `${r.ratio.toFixed(2)}x`,
        `<=${r.target}x`,
        held,
        p.peakRssMb === null ? "-" : `${Math.round(p.peakRssMb)}MB`,
        ref.peakRssMb === null ? "-" : `${Math.round(ref.peakRssMb)}MB`,
        p.requestCount === null ? "-" : String(p.requestCount),
        r.expectedRequests === undefined ? "-" : String(r.expectedRequests),
        ref.requestCount === null ? "-" : String(ref.requestCount),
      ]);
    }
  }
  return rows;
}

const HEADERS = ["schemas", "case", "plugin", "reference", "ratio", "target", "held", "plugin RSS", "ref RSS", "plugin req", "expected", "ref req"];

function renderText(report) {
  const out = [];
  out.push(table(resultRows(report), HEADERS));
  out.push("");
  out.push("Cases (plugin vs reference):");
  const seen = new Set();
  for (const s of report.sizes) {
    for (const r of s.results) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push(`  ${r.id}: ${r.plugin.command}  vs  ${r.reference.command}`);
    }
  }
  const errors = report.sizes.flatMap((s) => s.results.flatMap((r) => ["plugin", "reference"].filter((k) => r[k].error).map((k) => `  ${s.size} ${r.id} ${k}: ${r[k].error}`)));
  if (errors.length) out.push("", "Errors:", ...errors);
  out.push("", "Targets:");
  for (const t of report.targets) out.push(`  [${t.held === null ? "n/a " : t.held ? "held" : "MISS"}] ${t.name}: ${t.detail}`);
  out.push("", `kubectl: ${report.versions.kubectlBinary}.`);
  out.push(`Medians of ${report.runs} runs (offline cases ${report.runs * 3}) after one warm-up, plugin and reference interleaved; RSS = ${report.rssMethod}; requests from the audit log (plugin: user agent kubectl-ptah/…, reference: kubectl…/…).`);
  out.push(`Machine: ${report.machine.cpus} × ${report.machine.cpuModel}, load ${report.machine.loadBefore.join(" ")} → ${report.machine.loadAfter.join(" ")} (shared: figures are noisy). Total ${report.totalSeconds}s.`);
  return out.join("\n") + "\n";
}

const CASE_TITLES = {
  "version-direct": "`kubectl-ptah --version` vs `node -e 0`",
  "version-via-kubectl": "`kubectl ptah --version` vs a do-nothing Node plugin",
  "explain-direct": "`kubectl-ptah explain stale` vs `node -e 0`",
  "explain-via-kubectl": "`kubectl ptah explain stale` vs a do-nothing Node plugin",
  "status-one": "`status <schema>` vs `kubectl get ptahschema <schema> -o yaml`",
  "status-all": "`status -A` vs `kubectl get ptahschemas,ptahmigrations,ptahschemaapprovals -A -o json`",
  "status-all-table": "`status -A` vs the same `kubectl get … -A` with its default (table) output",
  "approvals-all": "`approvals -A` vs `kubectl get` of the 4 kinds `-A -o json`",
  "ledger-all": "`ledger -A` vs `kubectl get` of the 5 kinds `-A -o json`",
  "inbox-all": "`inbox -A` as lab-viewer (2 lists, 1 cluster-wide + 1 per waiting namespace access reviews) vs `kubectl get ptahschemas,ptahmigrations -A -o json`",
  "plan-8mib": "`plan <schema> -o sql` (8 MiB, 16 chunks) vs `kubectl get` of schema, plan and chunks",
  "diff-8mib": "`diff <schema> --from plan` (two 8 MiB plans, 16 chunks each) vs `plan <schema> -o sql` of one",
};

/** One row per case, one column per size: the README's table. */
function renderMarkdown(report) {
  const sizes = report.sizes.map((s) => s.size);
  const last = report.sizes[report.sizes.length - 1];
  const ids = [...new Set(report.sizes.flatMap((s) => s.results.map((r) => r.id)))];
  const md = [];
  md.push(
    `\`npm run bench\` (${report.mode}), ${report.date.slice(0, 10)}, commit ${report.commit}: medians of ${report.runs} runs (start-up cases ${report.runs * 3}) after a warm-up, ` +
      `plugin and kubectl interleaved; ${report.machine.cpus} shared CPUs (load ${report.machine.loadBefore[0]}→${report.machine.loadAfter[0]}), so figures are noisy; ` +
      `kubectl = ${report.versions.kubectl}, server ${report.versions.server.kubernetes}; the whole run took ${Math.round(report.totalSeconds / 60)} min.`,
  );
  md.push("");
  md.push(`| case | target | ${sizes.map((n) => `${n.toLocaleString("en-US")} schemas`).join(" | ")} | requests at ${last.size.toLocaleString("en-US")} (expected) | peak RSS at ${last.size.toLocaleString("en-US")}, plugin / kubectl |`);
  md.push(`| --- | --- | ${sizes.map(() => "---").join(" | ")} | --- | --- |`);
  for (const id of ids) {
    const cells = report.sizes.map((s) => {
      const r = s.results.find((x) => x.id === id);
      if (!r) return "";
      if (r.plugin.error || r.reference.error) return "error";
      return `${fmtMs(r.plugin.medianMs)} / ${fmtMs(r.reference.medianMs)} = **${r.ratio.toFixed(2)}×**${r.timeHeld ? "" : " ✗"}`;
    });
    const r = last.results.find((x) => x.id === id);
    const req = r ? `${r.plugin.requestCount ?? "-"} (${r.expectedRequests ?? "-"})${r.requestsHeld === false ? " ✗" : ""}${r.reference.requestCount ? `, kubectl ${r.reference.requestCount}` : ""}` : "";
    const rss = r ? `${Math.round(r.plugin.peakRssMb ?? 0)} / ${Math.round(r.reference.peakRssMb ?? 0)} MB` : "";
    md.push(`| ${CASE_TITLES[id] ?? id} | ≤ ${r?.target ?? "?"}× | ${cells.join(" | ")} | ${req} | ${rss} |`);
  }
  md.push("");
  md.push("Cells: plugin / reference = ratio (✗ = over the target). Targets:");
  md.push("");
  for (const t of report.targets) md.push(`* ${t.held === null ? "n/a" : t.held ? "**held**" : "**missed**"}: ${t.name} — ${t.detail}`);
  md.push("");
  md.push(`Full figures (every sample, requests by kind): \`bench-results/bench.json\`${report.recorded ? ", copied to `test/bench/latest.json`" : ""}.`);
  return md.join("\n") + "\n";
}

function updateReadme(markdown) {
  const file = path.join(REPO, "README.md");
  const begin = "<!-- bench:start -->";
  const end = "<!-- bench:end -->";
  const text = fs.readFileSync(file, "utf8");
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return false;
  fs.writeFileSync(file, `${text.slice(0, i + begin.length)}\n${markdown.trimEnd()}\n${text.slice(j)}`);
  return true;
}

function evaluateTargets(report) {
  const targets = [];
  const last = report.sizes[report.sizes.length - 1];
  const all = report.sizes.flatMap((s) => s.results.map((r) => ({ ...r, size: s.size })));
  const group = (ids) => all.filter((r) => ids.includes(r.id));
  const verdict = (rs) => (rs.length === 0 || rs.some((r) => r.ratio === null) ? null : rs.every((r) => r.timeHeld));
  const ratios = (rs) => rs.map((r) => `${r.size}: ${r.ratio ?? "error"}x`).join(", ");
  const offline = group(["version-direct", "explain-direct"]);
  targets.push({ name: "offline ≤ 1.3× node -e 0 (plugin process vs node)", held: verdict(offline), detail: offline.map((r) => `${r.id} ${r.ratio ?? "error"}x @${r.size}`).join("; ") });
  const viaKubectl = group(["version-via-kubectl", "explain-via-kubectl"]);
  targets.push({ name: "offline through kubectl ≤ 1.3× a do-nothing Node plugin", held: verdict(viaKubectl), detail: viaKubectl.map((r) => `${r.id} ${r.ratio ?? "error"}x @${r.size}`).join("; ") });
  const one = group(["status-one"]);
  targets.push({ name: "status <schema> ≤ 1.2× kubectl get -o yaml", held: verdict(one), detail: ratios(one) });
  for (const id of ["status-all", "approvals-all"]) {
    const rs = group([id]);
    targets.push({ name: `${id.replace("-all", " -A")} ≤ 1.2× kubectl get -A -o json at every size`, held: verdict(rs), detail: ratios(rs) });
    const table = group([`${id}-table`]);
    if (table.length) targets.push({ name: `${id.replace("-all", " -A")} ≤ 1.2× kubectl get -A (table output) at every size`, held: verdict(table), detail: ratios(table) });
    const req = rs.filter((r) => r.requestsHeld !== null);
    targets.push({
      name: `${id.replace("-all", " -A")} requests = kinds × pages (limit 500)`,
      held: req.length === 0 ? null : req.every((r) => r.requestsHeld),
      detail: rs.map((r) => `${r.size}: ${r.plugin.requestCount ?? "-"}/${r.expectedRequests}`).join(", "),
    });
  }
  const plan = group(["plan-8mib"]);
  targets.push({ name: "plan 8 MiB ≤ 1.5× kubectl get of the chunks", held: verdict(plan), detail: ratios(plan) });
  const diff = group(["diff-8mib"]);
  targets.push({
    name: "diff of two 8 MiB plans ≤ 2.5× plan -o sql of one (twice the reads and verification, plus the statement diff)",
    held: verdict(diff),
    detail: diff.map((r) => `${r.size}: ${r.ratio ?? "error"}x, peak RSS ${r.plugin.peakRssMb ?? "-"} MB (plan -o sql ${r.reference.peakRssMb ?? "-"} MB)`).join(", "),
  });
  if (last) {
    // The commands whose memory grows with the number of schemas; the 8 MiB plan is reported
    // on its own (its memory depends on the plan's size, not on the cluster's).
    const peaks = last.results.filter((r) => ["status-one", "status-all", "approvals-all"].includes(r.id) && r.plugin.peakRssMb !== null);
    const peak = peaks.length ? Math.max(...peaks.map((r) => r.plugin.peakRssMb)) : null;
    const which = peaks.find((r) => r.plugin.peakRssMb === peak);
    const kubectlPeak = which?.reference.peakRssMb;
    const plan = last.results.find((r) => r.id === "plan-8mib");
    targets.push({
      name: "peak RSS ≤ 150 MB at 5,000 schemas",
      held: last.size >= 5000 && peak !== null ? peak <= 150 : null,
      detail:
        `${peak ?? "-"} MB at ${last.size} (${which?.id ?? "-"}; kubectl ${kubectlPeak ?? "-"} MB)` +
        (plan?.plugin.peakRssMb ? `; the 8 MiB plan: ${plan.plugin.peakRssMb} MB (kubectl ${plan.reference.peakRssMb} MB)` : "") +
        (last.size < 5000 ? "; not measured at 5,000 in this mode" : ""),
    });
  }
  // Linear growth: the plugin's marginal cost per 1,000 schemas over the last step of sizes must
  // not exceed 1.5× that of the step before (kubectl's shown alongside for the same steps).
  for (const id of ["status-all", "approvals-all"]) {
    const rs = group([id]).filter((r) => r.plugin.medianMs !== null);
    if (rs.length < 3) {
      targets.push({ name: `${id} time grows linearly`, held: null, detail: "needs three sizes" });
      continue;
    }
    const slope = (a, b, side) => ((b[side].medianMs - a[side].medianMs) / (b.size - a.size)) * 1000;
    const steps = [];
    for (let i = 1; i < rs.length; i++) steps.push({ from: rs[i - 1].size, to: rs[i].size, plugin: slope(rs[i - 1], rs[i], "plugin"), kubectl: slope(rs[i - 1], rs[i], "reference") });
    const a = steps[steps.length - 2];
    const b = steps[steps.length - 1];
    targets.push({
      name: `${id} time grows linearly (ms per 1,000 schemas; last step ≤ 1.5× the one before)`,
      held: b.plugin <= 1.5 * Math.max(a.plugin, 1),
      detail: steps.map((s) => `${s.from}→${s.to}: plugin ${s.plugin.toFixed(0)}, kubectl ${s.kubectl.toFixed(0)}`).join("; "),
      steps,
    });
  }
  return targets;
}

// ---------------------------------------------------------------------------------------------
// main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(REPO, "dist", "kubectl-ptah.mjs"))) throw new Error("dist/ is missing: run `npm run build` (npm run bench does)");
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-bench-"));
  const plugin = opts.pluginBin ?? snapshotBuild(tmp);
  const binDir = path.join(tmp, "bin");
  fs.mkdirSync(binDir);
  fs.symlinkSync(plugin, path.join(binDir, "kubectl-ptah"));
  // A do-nothing Node plugin: what Node costs behind kubectl's plugin dispatch.
  fs.writeFileSync(path.join(binDir, "kubectl-benchnode0"), "#!/usr/bin/env node\n", { mode: 0o755 });

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
  const ctx = { lab, env, tmp, runs: opts.runs, only: opts.only, kubectl: kubectl.path, largestSize: Math.max(...opts.sizes) };

  const lib = await bundleLib(tmp);
  const api = new ApiClient(lab, { concurrency: opts.concurrency });
  for (const ns of NAMESPACES) await api.ensureNamespace(ns);
  say("seeding the schema with the 8 MiB plan");
  const big = await seedBigPlan(api, lib);
  say(`  ${big.plan}: ${big.documentBytes} bytes, ${big.chunks.length} chunks, ${big.statements} statements`);

  const report = {
    tool: "kubectl-ptah bench (test/bench/bench.mjs)",
    date: new Date().toISOString(),
    commit: runSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO }).stdout.trim() + (runSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: REPO }).stdout.trim() ? "+dirty" : ""),
    mode: opts.quick ? "quick" : "full",
    runs: opts.runs,
    rssMethod: HAVE_TIME ? "/usr/bin/time -f %M (max RSS of the command's process tree)" : "/proc/<pid>/status VmRSS polled every 5 ms over the process tree",
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "?", memoryMb: Math.round(os.totalmem() / 1048576), loadBefore, loadAfter: [] },
    versions: {
      node: process.version,
      kubectl: runSync(kubectl.path, ["version", "--client", "-o", "json"], { env }).stdout.match(/"gitVersion":\s*"([^"]+)"/)?.[1] ?? "?",
      kubectlBinary: kubectl.note,
      server: lab.versions,
      plugin: runSync(plugin, ["--version"]).stdout.trim(),
      pluginBinary: opts.pluginBin ?? "bin/kubectl-ptah.js (npm bin → dist/kubectl-ptah.mjs), copied before the run",
    },
    lab: { dir: path.relative(REPO, lab.labDir) || ".", server: lab.server, identity: "lab-viewer", simulator: opts.sim },
    seeding: { concurrency: opts.concurrency, namespaces: NAMESPACES.length, approvalsPerSchema: 3, big, steps: [] },
    sizes: [],
    targets: [],
  };

  let seeded = 0;
  for (const size of opts.sizes) {
    say(`seeding schemas ${seeded}..${size - 1} (${size - seeded} schemas, ${3 * (size - seeded)} approvals)`);
    const step = await seedUpTo(api, lib, seeded, size, opts.concurrency);
    report.seeding.steps.push(step);
    say(`  done in ${step.seconds}s (${step.requests} requests, ${step.requestsPerSecond}/s)`);
    seeded = size;
    const cases = buildCases(ctx, size, big);
    const results = [];
    for (const c of cases) {
      say(`size ${size}: ${c.id}`);
      const r = await measurePair(c, ctx);
      results.push(r);
      say(`  plugin ${fmtMs(r.plugin.medianMs)} (${r.plugin.requestCount ?? "-"} req, ${r.plugin.peakRssMb ?? "-"} MB) vs ${fmtMs(r.reference.medianMs)} (${r.reference.requestCount ?? "-"} req) → ${r.ratio ?? "-"}x${r.plugin.error ? ` plugin error: ${r.plugin.error}` : ""}${r.reference.error ? ` reference error: ${r.reference.error}` : ""}`);
    }
    report.sizes.push({ size, schemas: size + 1, approvals: 3 * size, results });
  }
  api.close();

  report.machine.loadAfter = os.loadavg().map((x) => round(x, 2));
  report.targets = evaluateTargets(report);
  report.totalSeconds = Math.round((performance.now() - t0) / 1000);

  report.recorded = opts.record;
  const text = renderText(report);
  const markdown = renderMarkdown(report);
  fs.writeFileSync(path.join(OUT_DIR, "bench.json"), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT_DIR, "bench.md"), markdown);
  let readme = false;
  if (opts.record) {
    fs.copyFileSync(path.join(OUT_DIR, "bench.json"), path.join(REPO, "test", "bench", "latest.json"));
    readme = updateReadme(markdown);
  }
  process.stdout.write(`\n${text}`);
  say(`results: ${path.relative(REPO, path.join(OUT_DIR, "bench.json"))}, bench.md${opts.record ? `; recorded in test/bench/latest.json${readme ? " and README.md (bench markers)" : " (README.md has no bench markers)"}` : ""}`);

  if (opts.keepLab) say(`the lab keeps running: export KUBECONFIG=${lab.kubeconfig}  (stop: PTAH_LAB_DIR=${lab.labDir} node lab/lab.mjs stop)`);
  else labCommand(opts, "stop");
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`bench: ${err?.stack ?? err}\n`);
  process.exit(1);
});
