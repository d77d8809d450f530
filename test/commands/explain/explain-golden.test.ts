// Golden files of `kubectl ptah explain` output: a sample of topics of every kind, the
// candidates of shared names, and the topic list. Rewritten only by `npm run test:update`.
import { describe, expect, it } from "vitest";
import { expectGolden } from "../../support/golden.ts";
import { runCliWith } from "../../support/cli.ts";

const CASES: readonly { golden: string; words: readonly string[]; output?: string }[] = [
  { golden: "explain/stale.txt", words: ["stale"] },
  { golden: "explain/consumed.txt", words: ["consumed"] },
  { golden: "explain/plan-no-longer-current.txt", words: ["PlanNoLongerCurrent"] },
  { golden: "explain/awaiting-approval.txt", words: ["awaiting-approval"] },
  { golden: "explain/destructive.txt", words: ["destructive"] },
  { golden: "explain/fingerprint.txt", words: ["fingerprint"] },
  { golden: "explain/destructive-changes-disabled.txt", words: ["DestructiveChangesDisabled"] },
  { golden: "explain/condition-schema-ready.txt", words: ["condition/schema/ready"] },
  { golden: "explain/run-not-unresolved.txt", words: ["RunNotUnresolved"] },
  { golden: "explain/outcome-partial.txt", words: ["Partial"] },
  { golden: "explain/event-approval-stale.txt", words: ["ApprovalStale"] },
  { golden: "explain/migration-phase-blocked.txt", words: ["migration", "phase", "Blocked"] },
  { golden: "explain/candidates-ready.txt", words: ["Ready"] },
  { golden: "explain/candidates-history.txt", words: ["history"] },
  { golden: "explain/topics.txt", words: [] },
  { golden: "explain/stale.json", words: ["stale"], output: "json" },
];

describe("explain golden output", () => {
  it.each(CASES)("$golden", async ({ golden, words, output }) => {
    const run = await runCliWith(["explain", ...words, ...(output === undefined ? [] : ["-o", output])], undefined, { width: 80 });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.connects).toBe(0); // offline
    await expectGolden(run.stdout, golden);
  });
});
