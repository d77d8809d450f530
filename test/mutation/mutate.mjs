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

for (const { module, tests } of runs) {
  const started = performance.now();
  const stryker = new Stryker({
    testRunner: "vitest",
    vitest: { configFile: "test/mutation/stryker.vitest.config.ts", related: false },
    mutate: module.endsWith("/") ? [`${module}**/*.ts`, `!${module}**/*.d.ts`] : [module],
    testFiles: tests,
    coverageAnalysis: "perTest",
    // Static mutants (code run once, when the module loads) are not run: with vitest 4.1 the runner
    // did not activate them (the module-level regex of verify-chunks.ts, broken by hand, fails
    // test/plan/verify-chunks.test.ts, yet Stryker reported its mutants surviving), and they took
    // three quarters of a run's time. The report counts them apart.
    ignoreStatic: true,
    concurrency: 1,
    reporters: ["progress", "json"],
    jsonReporter: { fileName: reportFile(module) },
    tempDirName: ".stryker-tmp",
    incremental,
    incrementalFile: `reports/stryker-incremental/${reportFile(module).split("/").pop()}`,
    ignorePatterns: ["/.lab", "/dist", "/.cache", "/coverage", "/bench-results", "/reports", "/site"],
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
