// Four-eyes on the real lab through the real kubectl: test/scenarios/four-eyes.yaml,
// recorded as the demo records it, with the cluster's four-eyes switch on for the run. lab-approver
// changes the spec; the plugin reads the switch and refuses its approve, --allow-self or not (exit
// 1, one line), admission refuses it on a server-side dry run (the lab's distinct-approver label is
// on), and lab-admin, a second identity, approves the same plan, which is applied. Its
// replay page is written and read back here without a browser (scenarios.e2e.test.ts shows every
// page, this one included, in Chromium).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatChecks, formatFailures } from "../scenarios/runner.ts";
import { recordScenario, writePages } from "../scenarios/page/recorder.ts";

const skip = process.env.PTAH_E2E_SKIP;
const FILE = path.join(import.meta.dirname, "..", "scenarios", "four-eyes.yaml");
const PAGES = path.join(import.meta.dirname, "..", "..", ".cache", "e2e-pages-four-eyes");

describe.skipIf(Boolean(skip))("four-eyes on the lab", () => {
  it("refuses the approver who changed the spec (plugin and admission), and a second approver's approval is applied", async () => {
    const { result, record } = await recordScenario(FILE, { binDir: process.env.PTAH_BIN_DIR! });
    expect(
      result.checks.filter((c) => !c.held),
      `namespace ${result.namespace}:\n${formatFailures(result.checks)}\n\n${formatChecks(result.checks)}`,
    ).toEqual([]);
    expect(result.steps.filter((s) => s.viewer && !s.viewer.held).map((s) => `step ${s.index}: ${s.viewer!.detail}`)).toEqual([]);
    const byNote = (text: string) => result.steps.find((s) => s.step.note.includes(text))!;
    // The plugin's refusal: exactly one line, stdout empty.
    const refused = byNote("refuses the author");
    expect(refused).toMatchObject({ exit: 1, stdout: "" });
    expect(refused.stderr).toMatch(
      /^error: cannot approve \S+\/storefront: you \(lab-approver\) last changed its spec, and approvals\.requireDistinctApprover is on \(the operator's admission configuration has its writer entries\), so admission refuses your approval; next: ask another approver to run kubectl ptah approve storefront -n \S+\n$/u,
    );
    // --allow-self does not move the plugin once the switch is read as on.
    expect(byNote("--allow-self only says").stderr).toContain("approvals.requireDistinctApprover is on");
    // Admission's refusal, in upstream's words, reached through a server-side dry run.
    expect(byNote("Admission refuses it too").stderr).toContain("schema requires a distinct approver, and lab-approver last changed its spec");
    const [page] = writePages(PAGES, [record]);
    const html = fs.readFileSync(page!, "utf8");
    expect(html).toContain("Four eyes");
    expect(html).toContain("approve (not you: you last changed its spec)");
    expect(html).toContain("last changed its spec");
  }, 240_000);
});
