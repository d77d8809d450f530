// docs/decisions.md, "Dependencies": why not yargs. Each pflag form read by the plugin's parser
// (src/cli/pflag.ts, bundled here with esbuild) and by yargs-parser configured as close to pflag as
// it goes, and what each costs to load. yargs-parser is not a dependency: install it outside the
// repository and name it, e.g.
//   npm install --prefix /tmp/yp yargs-parser@21.1.1
//   YARGS_PARSER=/tmp/yp/node_modules/yargs-parser node test/bench/yargs-parser-compare.mjs
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-yargs-"));
const pflagFile = path.join(dir, "pflag.mjs");
await build({ entryPoints: [path.join(ROOT, "src/cli/pflag.ts")], bundle: true, format: "esm", platform: "node", outfile: pflagFile, logLevel: "warning" });
const yargsDir = process.env.YARGS_PARSER;
if (!yargsDir) throw new Error("set YARGS_PARSER to an installed yargs-parser (see the comment at the top)");
const yargsEntry = pathToFileURL(path.join(path.resolve(yargsDir), "build", "lib", "index.js")).href;
const { default: yargsParser } = await import(yargsEntry);
const { parseFlags } = await import(pathToFileURL(pflagFile).href);
const SPECS = [
  { name: "namespace", alias: "n", type: "string" },
  { name: "output", alias: "o", type: "string" },
  { name: "selector", alias: "l", type: "string" },
  { name: "all-namespaces", alias: "A", type: "boolean" },
  { name: "watch", alias: "w", type: "boolean" },
  { name: "no-headers", type: "boolean" },
  { name: "as-group", type: "string", repeatable: true },
  { name: "v", alias: "v", type: "string" },
];
const options = {
  string: SPECS.filter((f) => f.type === "string" && !f.repeatable).map((f) => f.name),
  boolean: SPECS.filter((f) => f.type === "boolean").map((f) => f.name),
  array: SPECS.filter((f) => f.repeatable).map((f) => ({ key: f.name, string: true })),
  alias: Object.fromEntries(SPECS.filter((f) => f.alias && f.alias !== f.name).map((f) => [f.name, f.alias])),
  configuration: {
    "short-option-groups": true,
    "camel-case-expansion": false,
    "dot-notation": false,
    "parse-numbers": false,
    "parse-positional-numbers": false,
    "boolean-negation": false,
    "duplicate-arguments-array": false,
    "flatten-duplicate-arrays": true,
    "greedy-arrays": false,
    "nargs-eats-options": true,
    "strip-aliased": true,
    "strip-dashed": false,
    "unknown-options-as-args": false,
    "halt-at-non-option": false,
    "populate--": false,
  },
};
const FORMS = [
  ["-ojson"],
  ["-o=json"],
  ["-o", "json"],
  ["--output=json"],
  ["-ojsonpath={.a=b}"],
  ["-nshop"],
  ["-Ao", "wide"],
  ["-Aowide"],
  ["-wA"],
  ["-lapp=x"],
  ["-l", "app=x,tier in (a,b)"],
  ["-l=app=x"],
  ["-A=false"],
  ["--all-namespaces=false"],
  ["--all-namespaces=T"],
  ["--all-namespaces=0"],
  ["--all-namespaces", "false"],
  ["-n", "a", "-n", "b"],
  ["--as-group=a", "--as-group", "b"],
  ["-n", "-A"],
  ["-v=6"],
  ["-v6"],
  ["-v=-1"],
  ["-v", "-1"],
  ["x", "-nshop", "y"],
  ["x", "--", "-n", "--foo"],
  ["-"],
  ["--output="],
  ["--no-headers=yes"],
  ["--colour"],
  ["-x"],
  ["-Ax"],
  ["-n"],
  ["--namespace"],
  ["---x"],
  ["--=x"],
  ["--no-headers"],
  ["-o", "1e3"],
  ["--namespace", "0x10"],
];
const norm = (v) => JSON.stringify(v);
function ours(argv) {
  try {
    const r = parseFlags(argv, SPECS);
    return { positionals: r.positionals, values: r.values };
  } catch (err) {
    return { error: err.message };
  }
}
function theirs(argv) {
  const r = yargsParser.detailed(argv, options);
  if (r.error) return { error: r.error.message };
  const { _, ...rest } = r.argv;
  const values = {};
  const known = new Set(SPECS.map((f) => f.name));
  for (const [k, v] of Object.entries(rest)) {
    if (!known.has(k)) {
      values[`(unknown) ${k}`] = v;
      continue;
    }
    const spec = SPECS.find((f) => f.name === k);
    // yargs sets every boolean it knows (false when absent); pflag reports only those given.
    if (spec.type === "boolean" && v === false && !argv.some((a) => a === `--${k}` || a.startsWith(`--${k}=`) || (spec.alias && new RegExp(`^-[^-]*${spec.alias}`).test(a))))
      continue;
    values[k] = v;
  }
  return { positionals: _.map(String), values };
}
const rows = [];
let same = 0;
for (const argv of FORMS) {
  const a = ours(argv);
  const b = theirs(argv);
  if (norm(a) === norm(b)) {
    same++;
    continue;
  }
  rows.push(
    `| \`${argv
      .map((x) => (x === "" ? '""' : x))
      .join(" ")
      .replace(/\|/g, "\\|")}\` | ${norm(a).replace(/\|/g, "\\|")} | ${norm(b).replace(/\|/g, "\\|")} |`,
  );
}
const version = JSON.parse(fs.readFileSync(path.join(yargsDir, "package.json"), "utf8")).version;
console.log(`${FORMS.length} forms; ${same} read alike; ${rows.length} differ`);
console.log(`| argv | pflag (the plugin) | yargs-parser ${version} |\n| --- | --- | --- |\n${rows.join("\n")}`);

const N = 21;
const cases = {
  "yargs-parser": `const t=performance.now(); const {default:p}=await import('${yargsEntry}'); p(['-A','-o','json'],{boolean:['A'],string:['o']}); console.log(performance.now()-t)`,
  "pflag.ts (bundled)": `const t=performance.now(); const {parseFlags}=await import('${pathToFileURL(pflagFile).href}'); parseFlags(['-A','-o','json'],[{name:'all-namespaces',alias:'A',type:'boolean'},{name:'output',alias:'o',type:'string'}]); console.log(performance.now()-t)`,
};
// Load and first use, in a fresh node process each time, the two interleaved.
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < N; i++)
  for (const [k, code] of Object.entries(cases)) times[k].push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })));
for (const [k, t] of Object.entries(times)) {
  t.sort((a, b) => a - b);
  console.log(`${k}: median ${t[N >> 1].toFixed(2)} ms (min ${t[0].toFixed(2)}, max ${t[N - 1].toFixed(2)}) over ${N} processes`);
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; lines: src/cli/pflag.ts ${fs.readFileSync(path.join(ROOT, "src/cli/pflag.ts"), "utf8").split("\n").length - 1}, yargs-parser build/lib ${fs
    .readdirSync(path.join(yargsDir, "build", "lib"))
    .filter((f) => f.endsWith(".js"))
    .reduce((n, f) => n + fs.readFileSync(path.join(yargsDir, "build", "lib", f), "utf8").split("\n").length - 1, 0)}`,
);
fs.rmSync(dir, { recursive: true, force: true });
