// The bench's command line (`npm run bench -- --help`).
import path from "node:path";

const HELP = [
  "usage: node test/bench/bench.mjs [options]   (npm run bench -- [options])",
  "  --quick            one size (100 schemas), 3 runs (offline too), 1 run of the 8 MiB plans: every row",
  "  --sizes A,B,C      schema counts to seed and measure, ascending (default 100,1000,5000)",
  "  --runs N           measured runs per command after one warm-up (default 5; offline cases 3×)",
  "  --heavy-runs N     runs of the 8 MiB plan and diff cases and of the lists at 5,000 (default 3, --quick 1)",
  "  --only a,b         only these groups or cases: offline,single,lists,plan-big,fleet or a case id",
  "  --keep-lab         leave the seeded lab running (for profiling); default stops it",
  "  --record           also copy the results to test/bench/latest.json and put the table in",
  "                     docs/performance.md between <!-- bench:start --> and <!-- bench:end -->",
  "  --lab-dir DIR      lab state folder (default bench-results/lab; never the shared .lab)",
  "  --with-sim         start the operator simulator too (default off: no background traffic)",
  "  --concurrency N    requests in flight while seeding (default 16)",
  "  --plugin-bin FILE  measure this plugin executable instead of the npm bin",
  "  --binary FILE      the single binary for its rows and columns (default dist/bin/kubectl-ptah if built)",
  "  --kubectl PATH     kubectl binary (default: kubectl; behind gcloud's dispatcher, the",
  "                     kubectl.<minor> binary the dispatcher would pick for the lab's server)",
  "",
].join("\n");

export function parseArgs(argv, outDir) {
  const o = { quick: false, keepLab: false, record: false, concurrency: 16, sim: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--quick") o.quick = true;
    else if (a.startsWith("--runs")) o.runs = Number(value());
    else if (a.startsWith("--heavy-runs")) o.heavyRuns = Number(value());
    else if (a.startsWith("--sizes")) o.sizes = value().split(",").map(Number);
    else if (a.startsWith("--concurrency")) o.concurrency = Number(value());
    else if (a.startsWith("--lab-dir")) o.labDir = path.resolve(value());
    else if (a.startsWith("--only")) o.only = value().split(",");
    else if (a.startsWith("--kubectl")) o.kubectl = value();
    else if (a.startsWith("--plugin-bin")) o.pluginBin = path.resolve(value());
    else if (a.startsWith("--binary")) o.binary = path.resolve(value());
    else if (a === "--keep-lab") o.keepLab = true;
    else if (a === "--record") o.record = true;
    else if (a === "--with-sim") o.sim = true;
    else if (a === "-h" || a === "--help") {
      process.stdout.write(HELP);
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  o.sizes ??= o.quick ? [100] : [100, 1000, 5000];
  o.runs ??= o.quick ? 3 : 5;
  o.heavyRuns ??= o.quick ? 1 : 3;
  o.labDir ??= path.join(outDir, "lab");
  if (o.sizes.some((s, i) => !Number.isInteger(s) || s < 1 || (i > 0 && s <= o.sizes[i - 1]))) throw new Error("--sizes must be ascending positive integers");
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error("--runs must be a positive integer");
  return o;
}
