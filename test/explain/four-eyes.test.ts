// `explain four-eyes`, and admission's two four-eyes refusals found by their words.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";

describe("explain four-eyes", () => {
  it("explains the control", async () => {
    const r = await runCliWith(["explain", "four-eyes"], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/four-eyes.txt");
  });

  it.each([
    [["last", "changed", "its", "spec"], "self-approval"],
    [["requires a distinct approver and last changed its spec"], "self-approval"],
    [["no", "spec", "writer", "is", "recorded"], "no-spec-writer"],
    [["approvals.requireDistinctApprover"], "four-eyes"],
  ])("explain %j finds %s", async (words, topic) => {
    const r = await runCliWith(["explain", ...words], undefined);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toContain(topic);
  });
});

describe("explain the traps and the apply-policy guard", () => {
  it.each([
    [
      [
        "spec.policy.apply: Always applies plans without an approval, and this cluster reserves that choice for the groups that own apply policy. Use OnApproval, or ask an apply-policy administrator to make the change.",
      ],
      "apply-policy-guard",
    ],
    [["reserves", "that", "choice", "for", "the", "groups", "that", "own", "apply", "policy"], "apply-policy-guard"],
    [["suspend", "during", "apply"], "suspend-during-apply"],
    [["target", "secret", "changed"], "target-secret-changed"],
    [["status", "write", "refused"], "manager-only-status"],
  ])("explain %j finds %s", async (words, topic) => {
    const r = await runCliWith(["explain", ...words], undefined);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toContain(topic);
  });

  it("the guard's topic quotes the refusal exactly", async () => {
    const r = await runCliWith(["explain", "apply-policy-guard"], undefined);
    await expectGolden(r.stdout, "explain/apply-policy-guard.txt");
  });
});
