// Golden files of `kubectl ptah explain` output: a sample of topics of every kind, the
// candidates of shared names, and the topic list. Rewritten only by `npm run test:update`.
import { describe, expect, it } from "vitest";
import { runExplain } from "./support.ts";

const CASES: readonly { name: string; words: readonly string[]; output?: string }[] = [
  { name: "stale", words: ["stale"] },
  { name: "consumed", words: ["consumed"] },
  { name: "plan-no-longer-current", words: ["PlanNoLongerCurrent"] },
  { name: "awaiting-approval", words: ["awaiting-approval"] },
  { name: "destructive", words: ["destructive"] },
  { name: "fingerprint", words: ["fingerprint"] },
  { name: "destructive-changes-disabled", words: ["DestructiveChangesDisabled"] },
  { name: "condition-schema-ready", words: ["condition/schema/ready"] },
  { name: "run-not-unresolved", words: ["RunNotUnresolved"] },
  { name: "outcome-partial", words: ["Partial"] },
  { name: "event-approval-stale", words: ["ApprovalStale"] },
  { name: "migration-phase-blocked", words: ["migration", "phase", "Blocked"] },
  { name: "candidates-ready", words: ["Ready"] },
  { name: "candidates-history", words: ["history"] },
  { name: "topics", words: [] },
  { name: "stale.json", words: ["stale"], output: "json" },
];

describe("explain golden output", () => {
  it.each(CASES)("$name", async ({ name, words, output }) => {
    const run = await runExplain(words, output === undefined ? {} : { output });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const file = name.endsWith(".json") ? name : `${name}.txt`;
    await expect(run.stdout).toMatchFileSnapshot(`../golden/explain/${file}`);
  });
});
