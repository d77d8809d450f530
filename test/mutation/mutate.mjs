// `npm run mutate [-- [--incremental] MODULE…]`: StrykerJS over the modules that carry a promise
// (stryker-modules.mjs), one module at a time, each against the unit test files listed for it, one
// test runner (the machine's two cores are shared). Each module's JSON report goes to
// reports/mutation/<module>.json; then stryker-report.mjs writes the figures into docs/testing.md.
// Not part of `npm test`: a module takes minutes.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { Stryker } from "@stryker-mutator/core";
import { MODULES } from "./stryker-modules.mjs";
import { reportFile } from "./stryker-report.mjs";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
process.chdir(ROOT);

// --incremental reuses the last run's results where Stryker judges them unchanged: quicker while
// writing tests, but it also reuses "no coverage" and static mutants' verdicts, so the recorded
// figures say when they came from such a run.
const incremental = process.argv.includes("--incremental");
const wanted = process.argv.slice(2).filter((a) => a !== "--incremental");
const unknown = wanted.filter((m) => !MODULES.some((e) => e.module === m));
if (unknown.length > 0) {
  console.error(`error: not a module of test/mutation/stryker-modules.mjs: ${unknown.join(", ")}`);
  process.exit(2);
}
const timed = [];
const runs = wanted.length > 0 ? MODULES.filter((e) => wanted.includes(e.module)) : MODULES;

/**
 * How a module's mutants are run. The vitest runner reruns the listed files in one long-lived
 * worker, switching mutants in place, with per-test coverage. A module that installs itself once
 * per process (the run-time guards) cannot be judged that way: every mutant would meet the guard
 * installed before it was switched on. Those run under Stryker's command runner instead: one fresh
 * vitest per mutant, which names the mutant in its environment (__STRYKER_ACTIVE_MUTANT__), so the
 * guard is installed, and its module-level code run, with the mutant already active.
 */
function runner(entry) {
  if (entry.runner === "command") {
    const files = entry.tests.join(" ");
    return {
      testRunner: "command",
      // --bail: a killed mutant needs one failing test, not the rest of the files.
      commandRunner: { command: `node node_modules/vitest/vitest.mjs run --bail=1 --config test/mutation/stryker.vitest.config.ts ${files}` },
      coverageAnalysis: "off",
    };
  }
  return {
    testRunner: "vitest",
    vitest: { configFile: "test/mutation/stryker.vitest.config.ts", related: false },
    testFiles: entry.tests,
    coverageAnalysis: "perTest",
    // Static mutants (code run once, when the module loads) are not run: with vitest 4.1 the runner
    // did not activate them (the module-level regex of verify-chunks.ts, broken by hand, fails
    // test/plan/verify-chunks.test.ts, yet Stryker reported its mutants surviving), and they took
    // three quarters of a run's time. The report counts them apart.
    ignoreStatic: true,
  };
}

for (const entry of runs) {
  const { module } = entry;
  const started = performance.now();
  const stryker = new Stryker({
    ...runner(entry),
    mutate: module.endsWith("/") ? [`${module}**/*.ts`, `!${module}**/*.d.ts`] : [module],
    concurrency: 1,
    reporters: ["progress", "json"],
    jsonReporter: { fileName: reportFile(module) },
    // One working folder per module, so two modules can be mutated at once (one core each).
    tempDirName: `.stryker-tmp/${reportFile(module)
      .split("/")
      .pop()
      .replace(/\.json$/u, "")}`,
    incremental,
    incrementalFile: `reports/stryker-incremental/${reportFile(module).split("/").pop()}`,
    ignorePatterns: ["/.stryker-tmp", "/.lab", "/dist", "/.cache", "/coverage", "/bench-results", "/reports", "/site"],
    thresholds: { high: 100, low: 90, break: null },
  });
  const results = await stryker.runMutationTest();
  const seconds = Math.round((performance.now() - started) / 1000);
  const by = (s) => results.filter((r) => r.status === s).length;
  timed.push(`${module}=${seconds}`);
  console.log(`${module}: ${results.length} mutants, ${by("Killed") + by("Timeout")} killed, ${by("Survived")} survived, ${by("NoCoverage")} not covered, ${seconds} s`);
}

const report = spawnSync(process.execPath, ["test/mutation/stryker-report.mjs", ...(incremental ? ["--incremental"] : []), ...timed], { stdio: "inherit" });
process.exit(report.status ?? 1);
