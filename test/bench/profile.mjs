#!/usr/bin/env node
// Where a command's time goes: runs it under `node --cpu-prof` (--runs times, medians) and sums the profile's self
// time by where it was spent — node's own start and loader (node:internal), each file of the
// bundle (dist/npm/kubectl-ptah.cjs and its chunks: the parser, commands, zod models, connection),
// V8 work outside JavaScript ("(program)": mostly compiling), the garbage collector, and
// "(idle)": waiting, i.e. on the network — plus the top functions. Bundle files are named by
// what they hold (from dist/meta.npm.json).
//
//   node test/bench/profile.mjs [--runs N] [--top N] -- COMMAND ARGS...   (COMMAND: a .js/.mjs file run by node)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const opts = dash >= 0 ? argv.slice(0, dash) : [];
const command = dash >= 0 ? argv.slice(dash + 1) : argv;
const top = Number(opts[opts.indexOf("--top") + 1] ?? 12) || 12;
if (command.length === 0) throw new Error("usage: node test/bench/profile.mjs [--runs N] [--top N] -- FILE ARGS...");

const runs = Number(opts[opts.indexOf("--runs") + 1] ?? 1) || 1;

/** What each output file of the bundle holds (dist/meta.npm.json): its two largest sources. */
const contents = new Map();
function describeOutput(file) {
  if (contents.has(file)) return contents.get(file);
  let label = path.basename(file);
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(file.slice(0, file.lastIndexOf("/dist/") + 5), "meta.npm.json"), "utf8"));
    const out = Object.entries(meta.outputs).find(([o]) => file.endsWith(o.replace(/^dist\//, "")));
    const sizes = {};
    for (const [input, x] of Object.entries(out?.[1].inputs ?? {})) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = m ? m[1] : input.split("/").slice(0, 2).join("/");
      sizes[key] = (sizes[key] ?? 0) + x.bytesInOutput;
    }
    const top = Object.entries(sizes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2);
    if (top.length) label += ` (${top.map(([k, b]) => `${k} ${Math.round(b / 1024)} KB`).join(", ")})`;
  } catch {
    /* no metafile: the file name only */
  }
  contents.set(file, label);
  return label;
}

function bucket(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  // V8 compiling the bundle's ES modules is reported as node's loader function.
  if (functionName === "compileSourceTextModule") return "compile: V8 compiling the bundle's modules";
  // The npm bin's loader (src/cli/code-cache.ts): vm.Script compiles, or reads V8's code cache.
  if (url === "node:vm" && functionName === "Script") return "compile: vm.Script (the bundle, or its code cache)";
  if (url.startsWith("node:")) return "node:internal (start, loader, streams, TLS)";
  if (url.includes("/node_modules/")) return `node_modules/${url.split("/node_modules/")[1].split("/")[0]}`;
  return describeOutput(url.replace(/^file:\/\//, ""));
}

/** One run under the profiler: wall time and self time by place and by function. */
function profileOnce() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-prof-"));
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=100", ...command], { stdio: ["ignore", "ignore", "inherit"] });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile (exit ${r.status})`);
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  fs.rmSync(dir, { recursive: true, force: true });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const buckets = new Map();
  const fns = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = byId.get(profile.samples[i]).callFrame;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const b = bucket(frame);
    buckets.set(b, (buckets.get(b) ?? 0) + ms);
    const key = `${frame.functionName || "(anonymous)"} ${b}:${frame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
  }
  return { wallMs, status: r.status, buckets, fns };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const samples = Array.from({ length: runs }, profileOnce);
/** Median over the runs of each key's time (0 in a run where it did not show). */
function medians(pick) {
  const keys = new Set(samples.flatMap((x) => [...pick(x).keys()]));
  return [...keys].map((k) => [k, median(samples.map((x) => pick(x).get(k) ?? 0))]).sort((a, b) => b[1] - a[1]);
}
const places = medians((x) => x.buckets);
const profiled = places.reduce((a, [, ms]) => a + ms, 0);
const out = [
  `${command.join(" ")}: wall ${median(samples.map((x) => x.wallMs)).toFixed(0)} ms (median of ${runs}, exit ${samples[0].status}), profiled ${profiled.toFixed(0)} ms from the profiler's start`,
  "",
  "self time by place (medians):",
];
for (const [b, ms] of places) if (ms >= 0.5) out.push(`  ${ms.toFixed(1).padStart(7)} ms  ${b}`);
out.push("", `top ${top} functions (self, medians):`);
for (const [f, ms] of medians((x) => x.fns).slice(0, top)) out.push(`  ${ms.toFixed(1).padStart(7)} ms  ${f}`);
process.stdout.write(`${out.join("\n")}\n`);
