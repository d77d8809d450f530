// `npm run mutate [MODULE…]`: StrykerJS over the modules that carry a promise
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

const wanted = process.argv.slice(2);
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
    concurrency: 1,
    reporters: ["progress", "json"],
    jsonReporter: { fileName: reportFile(module) },
    tempDirName: ".stryker-tmp",
    incremental: true,
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

const report = spawnSync(process.execPath, ["test/mutation/stryker-report.mjs", ...timed], { stdio: "inherit" });
process.exit(report.status ?? 1);
