// The checks' mutation table: proofs that can fail. Each row breaks one check of plan, approve,
// diff, the export or tolerance with one textual change to one module of src/, runs the test files
// that guard it against that mutant, and expects the named test to go red. First, every mutant must
// parse (a module that cannot load would turn tests red for no check's sake) and the same files
// run green under the same configuration without a mutant, so red can only come from the change.
//
// How a mutant runs: one child vitest per row (`vitest run --config test/mutation/mutant.config.ts
// --project unit FILES`), whose plugin serves the module with the row's change in place of the file
// on disk; src/ is never written, nothing is mocked, and the tests run the real shell (runCliWith)
// through the real commands into the mutant. A row whose text no longer occurs exactly once in its
// module fails here, before any run: the table must follow the code it breaks.
//
// Run it: `npm run test:mutation` (its own vitest project; `npm test`, and so CI, runs it too).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mutate, type Mutant } from "./mutant.config.ts";
import { ROWS } from "./rows.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const VITEST = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-mutation-"));

interface Assertion {
  readonly fullName: string;
  readonly status: string;
}

interface Run {
  readonly assertions: readonly Assertion[];
  readonly seconds: number;
  /** The child's output, for a failure message. */
  readonly output: string;
}

let runs = 0;

/** One child vitest over `files`, with `mutant` served in place of its module (none: as it is). */
function runTests(files: readonly string[], mutant: Mutant | undefined): Run {
  const report = path.join(DIR, `report-${++runs}.json`);
  const env: NodeJS.ProcessEnv = {};
  // The child is a vitest of its own: none of this worker's VITEST_* variables.
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("VITEST")) env[k] = v;
  if (mutant) env.PTAH_MUTANT = JSON.stringify(mutant);
  else delete env.PTAH_MUTANT;
  const args = [VITEST, "run", "--config", "test/mutation/mutant.config.ts", "--project", "unit", "--reporter=json", `--outputFile=${report}`, ...files];
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  const output = `${child.stdout ?? ""}${child.stderr ?? ""}`.slice(-4000);
  if (!fs.existsSync(report)) return { assertions: [], seconds, output: `no report (exit ${child.status}):\n${output}` };
  const json = JSON.parse(fs.readFileSync(report, "utf8")) as { testResults: { assertionResults: Assertion[] }[] };
  return { assertions: json.testResults.flatMap((t) => t.assertionResults), seconds, output };
}

const lines: string[] = [];
afterAll(() => {
  fs.rmSync(DIR, { recursive: true, force: true });
  if (lines.length > 0) console.log(`mutation table: ${lines.length} rows\n${lines.join("\n")}`);
});

describe("the checks' mutation table", () => {
  beforeAll(() => {
    // Every row's change applies to its module as it is now, exactly once, and leaves it valid
    // TypeScript syntax: a mutant that cannot load would turn tests red for no check's sake.
    for (const row of ROWS) {
      const text = mutate(fs.readFileSync(path.join(ROOT, row.mutant.file), "utf8"), row.mutant);
      const { diagnostics } = ts.transpileModule(text, { fileName: row.mutant.file, reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
      expect(
        diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
        `${row.name}: the mutant does not parse`,
      ).toEqual([]);
    }
    const files = [...new Set(ROWS.flatMap((r) => r.tests))].sort();
    const green = runTests(files, undefined);
    const failed = green.assertions.filter((a) => a.status !== "passed" && a.status !== "skipped");
    expect(green.assertions.length, green.output).toBeGreaterThan(0);
    expect(
      failed.map((a) => a.fullName),
      green.output,
    ).toEqual([]);
    for (const row of ROWS)
      expect(
        green.assertions.some((a) => a.fullName.includes(row.red) && a.status === "passed"),
        `green: ${row.red}`,
      ).toBe(true);
    lines.push(`  (as it is: ${green.assertions.length} tests of ${files.length} files green in ${green.seconds.toFixed(1)} s)`);
  }, 300_000);

  for (const row of ROWS) {
    it(`${row.name} (${row.mutant.file}): red`, () => {
      const run = runTests(row.tests, row.mutant);
      const failed = run.assertions.filter((a) => a.status === "failed").map((a) => a.fullName);
      lines.push(`  ${row.name}: ${failed.length} red in ${row.tests.join(", ")} (${run.seconds.toFixed(1)} s)`);
      expect(
        failed.some((f) => f.includes(row.red)),
        `the mutant of ${row.mutant.file} left "${row.red}" green; failed: ${JSON.stringify(failed)}\n${run.output}`,
      ).toBe(true);
    });
  }
});
