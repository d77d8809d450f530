// Turns StrykerJS's JSON reports (reports/mutation/<module>.json, written by mutate.mjs) into the
// checked-in figures: test/mutation/stryker-results.json (per module: when it ran, how long, the
// counts, every surviving mutant) and the block of docs/testing.md between <!-- mutation:start -->
// and <!-- mutation:end -->. A module without a fresh report keeps its last recorded figures.
// Each survivor is either named in test/mutation/equivalents.json with the reason no test can
// kill it, or listed as a survivor: a gap in the tests. The block is a pure function of the two
// checked-in files (renderBlock), so test/mutation/stryker-report.test.ts checks docs/testing.md
// against them without running Stryker.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MODULES } from "./stryker-modules.mjs";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const RESULTS = "test/mutation/stryker-results.json";
export const EQUIVALENTS = "test/mutation/equivalents.json";
export const BEGIN = "<!-- mutation:start -->";
export const END = "<!-- mutation:end -->";

export const reportFile = (module) => `reports/mutation/${module.replace(/^src\//u, "").replace(/[/.]/gu, "_")}.json`;

/** The text a mutant replaces, from the module's source and Stryker's 1-based location. */
function originalText(source, { start, end }) {
  const lines = source.split("\n");
  const offset = (p) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  return source.slice(offset(start), offset(end));
}

/** The files a MODULES entry covers (itself, or a folder's files) among `names`. */
export const within = (module, names) => names.filter((n) => (module.endsWith("/") ? n.startsWith(module) : n === module)).sort();

/** One file's figures from its Stryker report. */
export function summarise(module, file, seconds, when) {
  const count = (...s) => file.mutants.filter((m) => s.includes(m.status)).length;
  const survivors = file.mutants
    .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
    .map((m) => ({
      line: m.location.start.line,
      mutator: m.mutatorName,
      original: originalText(file.source, m.location),
      replacement: m.replacement,
      status: m.status,
    }))
    .sort((a, b) => a.line - b.line || a.original.localeCompare(b.original) || a.replacement.localeCompare(b.replacement));
  return {
    module,
    ran: when,
    seconds,
    mutants: file.mutants.length,
    killed: count("Killed", "Timeout"),
    invalid: count("CompileError", "RuntimeError"),
    // Ignored: the static mutants mutate.mjs does not run (ignoreStatic).
    static: count("Ignored"),
    survivors,
  };
}

/** A survivor's identity, stable while its line moves. */
export const keyOf = (module, s) => JSON.stringify([module, s.mutator, s.original, s.replacement]);

const code = (s) => {
  const flat = s.replace(/\s+/gu, " ");
  const short = flat.length > 70 ? `${flat.slice(0, 67)}…` : flat;
  const ticks = short.includes("`") ? "``" : "`";
  return `${ticks}${short.replace(/\|/gu, "\\|")}${ticks}`;
};

/** The docs block: a pure function of the results and the equivalents. */
export function renderBlock(results, equivalents) {
  const reasons = new Map(equivalents.map((e) => [keyOf(e.module, e), e.reason]));
  const md = [
    "Written by `node test/mutation/stryker-report.mjs` (run by `npm run mutate`) from StrykerJS's reports; each module was mutated",
    "against the unit test files `test/mutation/stryker-modules.mjs` lists for it, one test runner, on this 2-core machine.",
    'Score: killed over valid mutants; "equivalent" survivors are named in `test/mutation/equivalents.json` with the',
    "reason no test can tell them apart (listed below); any other survivor is a gap in the tests, or module-level code",
    "the runner cannot switch on (see above). Static mutants are not run, and not counted in the score.",
    "",
    "| module | ran | wall time | mutants run | static, not run | killed | equivalent | other survivors | score | score without equivalents |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const open = [];
  const equivalent = [];
  const rows = MODULES.flatMap(({ module }) => {
    const files = within(module, Object.keys(results));
    return files.length > 0 ? files : [module];
  });
  for (const module of rows) {
    const r = results[module];
    if (!r) {
      md.push(`| \`${module}\` | not yet | | | | | | | | |`);
      continue;
    }
    const valid = r.mutants - r.invalid - (r.static ?? 0);
    const eq = r.survivors.filter((s) => reasons.has(keyOf(module, s)));
    const others = r.survivors.filter((s) => !reasons.has(keyOf(module, s)));
    open.push(...others.map((s) => ({ module, ...s })));
    equivalent.push(...eq.map((s) => ({ module, ...s, reason: reasons.get(keyOf(module, s)) })));
    const pct = (n, d) => (d === 0 ? "—" : `${((100 * n) / d).toFixed(1)} %`);
    md.push(
      `| \`${module}\` | ${r.ran} | ${Math.round(r.seconds / 60)} min${r.incremental ? " (incremental)" : ""} | ${valid} | ${r.static ?? "run"} | ${r.killed} | ${eq.length} | ${others.length} | ${pct(r.killed, valid)} | ${pct(r.killed, valid - eq.length)} |`,
    );
  }
  md.push("");
  md.push(`Equivalent mutants (${equivalent.length}):`);
  md.push("");
  if (equivalent.length === 0) md.push("none.");
  for (const e of equivalent) md.push(`- \`${e.module}\`:${e.line}, ${e.mutator}: ${code(e.original)} → ${code(e.replacement)} — ${e.reason}`);
  md.push("");
  md.push(`Other survivors (${open.length}):`);
  md.push("");
  if (open.length === 0) md.push("none.");
  for (const s of open)
    md.push(`- \`${s.module}\`:${s.line}, ${s.mutator}${s.status === "NoCoverage" ? " (no test reaches it)" : ""}: ${code(s.original)} → ${code(s.replacement)}`);
  return `${md.join("\n")}\n`;
}

export function readJson(rel, fallback) {
  const file = path.join(ROOT, rel);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : fallback;
}

/** docs/testing.md with the block replaced; throws when the markers are missing. */
export function withBlock(text, block) {
  const i = text.indexOf(BEGIN);
  const j = text.indexOf(END);
  if (i < 0 || j < i) throw new Error(`docs/testing.md has no ${BEGIN} … ${END} markers`);
  return `${text.slice(0, i + BEGIN.length)}\n${block}${text.slice(j)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = readJson(RESULTS, {});
  // mutate.mjs passes each run's wall time as MODULE=SECONDS; a report without one keeps the last.
  const incremental = process.argv.includes("--incremental");
  const seconds = new Map(
    process.argv
      .slice(2)
      .filter((a) => a.includes("="))
      .map((a) => a.split("="))
      .map(([m, s]) => [m, Number(s)]),
  );
  for (const { module } of MODULES) {
    const file = path.join(ROOT, reportFile(module));
    if (!seconds.has(module) || !fs.existsSync(file)) continue;
    const when = fs.statSync(file).mtime.toISOString().slice(0, 10);
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    const names = within(module, Object.keys(report.files));
    if (names.length === 0) throw new Error(`${module}: not in its Stryker report`);
    // A folder's run time is shared by its files: each is recorded with the whole run's.
    for (const name of names) results[name] = { ...summarise(name, report.files[name], seconds.get(module), when), incremental };
  }
  fs.writeFileSync(path.join(ROOT, RESULTS), `${JSON.stringify(results, null, 2)}\n`);
  const docs = path.join(ROOT, "docs", "testing.md");
  fs.writeFileSync(docs, withBlock(fs.readFileSync(docs, "utf8"), renderBlock(results, readJson(EQUIVALENTS, []))));
  console.log(`wrote ${RESULTS} and the mutation block of docs/testing.md`);
}
