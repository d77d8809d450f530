// Every scenario in test/scenarios/*.yaml, end to end: the real kubectl and the built plugin
// (PATH from the global setup's PTAH_BIN_DIR) against the lab and its operator simulator.
// One test per scenario; it passes when every claim held, and fails naming each claim that
// did not, with what was observed instead.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ptah } from "../support/plugin.ts";
import { formatChecks, formatFailures, listScenarioFiles, loadScenario, runScenario } from "../scenarios/runner.ts";

/** After the seed's story: the history tells it in order, and explain says why the approval is stale. */
function checkStaleApprovalStory(namespace: string): void {
  const history = ptah(["history", "storefront", "-n", namespace]);
  expect(history.status, history.stderr).toBe(0);
  const lines = history.stdout.split("\n");
  const consumed = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +condition +Consumed=True DispatchCommitted/u.test(l));
  const stale = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +condition +Stale=True PlanNoLongerCurrent/u.test(l));
  const event = lines.findIndex((l) => /ptahschemaapproval\/storefront-v1 +event +Warning ApprovalStale/u.test(l));
  expect(consumed, history.stdout).toBeGreaterThan(0);
  expect(stale, history.stdout).toBeGreaterThan(consumed);
  expect(event, history.stdout).toBeGreaterThan(0);
  const explain = ptah(["explain", "approval", "storefront-v1", "-n", namespace]);
  expect(explain.status, explain.stderr).toBe(0);
  expect(explain.stdout).toContain("is Stale (PlanNoLongerCurrent) after it was Consumed (DispatchCommitted)");
  expect(explain.stdout).toContain(`kubectl ptah approve storefront -n ${namespace} | kubectl create -f -`);
}

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
      if (scenario.id === "stale-approval") checkStaleApprovalStory(result.namespace);
    },
    180_000,
  );
});
