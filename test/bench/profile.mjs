#!/usr/bin/env node
// Where a command's time goes: runs it once under `node --cpu-prof` and sums the profile's self
// time by where it was spent — node's own start and loader (node:internal), each file of the
// bundle (dist/kubectl-ptah.mjs and its chunks: the parser, commands, zod models, connection),
// V8 work outside JavaScript ("(program)": mostly compiling), the garbage collector, and
// "(idle)": waiting, i.e. on the network — plus the top functions.
//
//   node test/bench/profile.mjs [--top N] -- COMMAND ARGS...   (COMMAND: a .js/.mjs file run by node)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const opts = dash >= 0 ? argv.slice(0, dash) : [];
const command = dash >= 0 ? argv.slice(dash + 1) : argv;
const top = Number(opts[opts.indexOf("--top") + 1] ?? 12) || 12;
if (command.length === 0) throw new Error("usage: node test/bench/profile.mjs [--top N] -- FILE ARGS...");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-prof-"));
const started = process.hrtime.bigint();
const r = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=100", ...command], { stdio: ["ignore", "ignore", "inherit"] });
const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile (exit ${r.status})`);
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
fs.rmSync(dir, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0) / 1000);

function bucket(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:internal (start, loader, streams, TLS)";
  const base = path.basename(url.replace(/^file:\/\//, ""));
  if (url.includes("/node_modules/")) return `node_modules/${url.split("/node_modules/")[1].split("/")[0]}`;
  return base;
}

const buckets = new Map();
const fns = new Map();
for (const [id, ms] of self) {
  const frame = byId.get(id).callFrame;
  const b = bucket(frame);
  buckets.set(b, (buckets.get(b) ?? 0) + ms);
  const key = `${frame.functionName || "(anonymous)"} ${b}:${frame.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + ms);
}
const profiled = [...self.values()].reduce((a, b) => a + b, 0);
const rows = (m) => [...m].sort((a, b) => b[1] - a[1]);
const out = [
  `${command.join(" ")}: wall ${wallMs.toFixed(0)} ms (process, exit ${r.status}), profiled ${profiled.toFixed(0)} ms (from the profiler's start)`,
  "",
  "self time by place:",
];
for (const [b, ms] of rows(buckets)) if (ms >= 0.5) out.push(`  ${ms.toFixed(1).padStart(7)} ms  ${b}`);
out.push("", `top ${top} functions (self):`);
for (const [f, ms] of rows(fns).slice(0, top)) out.push(`  ${ms.toFixed(1).padStart(7)} ms  ${f}`);
process.stdout.write(`${out.join("\n")}\n`);
