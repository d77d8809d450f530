// Every scenario in test/scenarios/*.yaml, end to end: the real kubectl and the built plugin
// (PATH from the global setup's PTAH_BIN_DIR) against the lab and its operator simulator.
// One test per scenario; it passes when every claim held, and fails naming each claim that
// did not, with what was observed instead.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatChecks, formatFailures, listScenarioFiles, loadScenario, runScenario } from "../scenarios/runner.ts";

const skip = process.env.PTAH_E2E_SKIP;
const files = listScenarioFiles();

describe.skipIf(Boolean(skip))("scenarios against the lab", () => {
  it.each(files.map((f) => [path.basename(f, ".yaml"), f]))(
    "%s: every claim holds",
    async (_id, file) => {
      const scenario = loadScenario(file);
      const result = await runScenario(scenario, { binDir: process.env.PTAH_BIN_DIR });
      const failed = result.checks.filter((c) => !c.held);
      expect(failed, `scenario ${scenario.id} in namespace ${result.namespace}:\n${formatFailures(result.checks)}\n\n${formatChecks(result.checks)}`).toEqual([]);
      expect(result.checks.length).toBeGreaterThan(scenario.steps.length - 1);
    },
    180_000,
  );
});
