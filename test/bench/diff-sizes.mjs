// Diff at the operator's largest plan size, in-process: two plans of 160,000
// statements (≈8 MiB of SQL each) that share 99 %, 50 % or 0 % of their statements, aligned and
// cut into hunks; beside the same process writing one plan's SQL as `plan -o sql` does
// (statementText per statement, joined). Each row runs in its own node process (its peak RSS is
// the row's); time is the median of the runs. `node test/bench/diff-sizes.mjs [runs]`.
// Not the lab's `kubectl ptah diff` (test/bench/bench.mjs has that row, at 8,931 statements).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const STATEMENTS = 160_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const child = `
import { alignStatements, buildHunks, countEdits } from "./src/plan/statement-diff.ts";
import { statementText } from "./src/plan/sql-text.ts";
const [what, shareText] = process.argv.slice(2);
const n = ${STATEMENTS};
const stmt = (p, i) => ({ sql: "ALTER TABLE app.t" + p + (i % 4096) + " ADD COLUMN c" + i + " int NOT NULL;" });
const from = Array.from({ length: n }, (_, i) => stmt("a", i));
const share = Number(shareText);
// Every statement whose index falls outside the shared fraction differs (spread evenly).
const to = from.map((s, i) => (Math.floor((i * share) / 100) !== Math.floor(((i + 1) * share) / 100) ? s : stmt("b", i)));
const bytes = from.reduce((t, s) => t + s.sql.length + 1, 0);
const start = performance.now();
let out;
if (what === "sql") out = { bytes: from.map((s) => statementText(s.sql) + ";").join("\\n").length };
else {
  const d = alignStatements(from, to);
  const hunks = buildHunks(d.runs, 3);
  out = { ...countEdits(d.runs), hunks: hunks.length, lines: hunks.reduce((t, h) => t + h.lines.length, 0), ...d.alignment };
}
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, rssMiB: process.resourceUsage().maxRSS / 1024, mib: bytes / 1048576, ...out }));
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-diff-bench-"));
try {
  fs.writeFileSync(path.join(root, ".diff-bench-entry.ts"), child);
  await build({ entryPoints: [path.join(root, ".diff-bench-entry.ts")], bundle: true, platform: "node", format: "esm", outfile: path.join(dir, "entry.mjs"), logLevel: "error" });
  fs.rmSync(path.join(root, ".diff-bench-entry.ts"));
  const runs = Number(process.argv[2] ?? 3);
  const rows = [];
  for (const [label, args] of [
    ["plan -o sql of one", ["sql", "100"]],
    ["diff, 99 % shared", ["diff", "99"]],
    ["diff, 50 % shared", ["diff", "50"]],
    ["diff, 0 % shared", ["diff", "0"]],
  ]) {
    const results = [];
    for (let r = 0; r < runs; r++) {
      const p = spawnSync(process.execPath, [path.join(dir, "entry.mjs"), ...args], { encoding: "utf8" });
      if (p.status !== 0) throw new Error(p.stderr);
      results.push(JSON.parse(p.stdout));
    }
    results.sort((x, y) => x.ms - y.ms);
    const median = results[Math.floor(results.length / 2)];
    rows.push({ label, ...median, rssMiB: Math.max(...results.map((x) => x.rssMiB)) });
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`| case (${STATEMENTS.toLocaleString("en")} statements, ${rows[0].mib.toFixed(2)} MiB each) | time (median of ${runs}) | peak RSS | result |`);
  console.log("| --- | --- | --- | --- |");
  for (const r of rows) {
    const result = r.label.startsWith("plan")
      ? `${(r.bytes / 1048576).toFixed(2)} MiB of SQL`
      : `${r.added} added, ${r.removed} removed, ${r.unchanged} unchanged; ${r.algorithm}, minimal ${r.minimal}, unaligned ${r.unaligned}; ${r.hunks} hunks`;
    console.log(`| ${r.label} | ${r.ms.toFixed(0)} ms | ${r.rssMiB.toFixed(0)} MiB | ${result} |`);
  }
  console.log(`\nload average at the end (1/5/15 min): ${load}; ${os.cpus().length} cores`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(path.join(root, ".diff-bench-entry.ts"), { force: true });
}
