// Cold start of the plugin, as a user waits for it: wall time of one process from spawn to exit,
// median (and min/max) of N runs after one warm-up, against `node -e 0` as the floor.
//
//   node krew/startup.mjs [--runs 10] [--bin dist/bin/kubectl-ptah] [--compare [LABEL=]OTHER_BINARY] [--json]
//
// Rows: node -e 0; the npm bin (bin/kubectl-ptah.js → dist/kubectl-ptah.mjs and its chunks);
// the SEA binary (if built), and --compare (e.g. a SEA built with --no-code-cache), each for
// --version, explain stale and completion candidates (`__complete ""`). Needs `npm run build`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(option("--runs") ?? 10);
const bin = path.resolve(ROOT, option("--bin") ?? "dist/bin/kubectl-ptah");
const compare = option("--compare");

function time(command, args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 || r.stderr.length > 0) throw new Error(`${command} ${args.join(" ")}: status ${r.status}, stderr ${r.stderr}`);
  return ms;
}

function measure(label, command, args) {
  time(command, args); // warm the file cache once
  const samples = Array.from({ length: runs }, () => time(command, args)).sort((a, b) => a - b);
  const median = samples.length % 2 ? samples[(samples.length - 1) / 2] : (samples[samples.length / 2 - 1] + samples[samples.length / 2]) / 2;
  return { label, median, min: samples[0], max: samples[samples.length - 1] };
}

const cases = [
  ["--version", ["--version"]],
  ["explain stale", ["explain", "stale"]],
  ['__complete ""', ["__complete", ""]],
];
const rows = [measure("node -e 0", process.execPath, ["-e", "0"])];
const npmBin = path.join(ROOT, "bin", "kubectl-ptah.js");
for (const [name, args] of cases) rows.push(measure(`npm bin ${name}`, process.execPath, [npmBin, ...args]));
const binaries = [];
if (existsSync(bin)) binaries.push(["SEA", bin]);
if (compare) {
  const eq = compare.indexOf("=");
  binaries.push(eq > 0 ? [compare.slice(0, eq), path.resolve(compare.slice(eq + 1))] : ["other", path.resolve(compare)]);
}
for (const [label, file] of binaries) for (const [name, args] of cases) rows.push(measure(`${label} ${name}`, file, args));

if (argv.includes("--json")) {
  process.stdout.write(`${JSON.stringify({ runs, node: process.version, rows }, null, 2)}\n`);
} else {
  const floor = rows[0].median;
  const width = Math.max(...rows.map((r) => r.label.length)) + 2;
  const lines = [`cold start, ${runs} runs each (median, min–max), ${process.version} on ${process.platform}/${process.arch}`, ""];
  lines.push(`${"command".padEnd(width)}${"median".padStart(9)}${"min–max".padStart(17)}${"vs node -e 0".padStart(15)}`);
  for (const r of rows) {
    const range = `${r.min.toFixed(0)}–${r.max.toFixed(0)} ms`;
    const extra = r === rows[0] ? "" : `+${(r.median - floor).toFixed(0)} ms`;
    lines.push(`${r.label.padEnd(width)}${`${r.median.toFixed(0)} ms`.padStart(9)}${range.padStart(17)}${extra.padStart(15)}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
