// `kubectl ptah acknowledge MIGRATION`: the acknowledgment of an unresolved run, and the refusal
// when the migration records none.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, cond, T1 } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

describe("acknowledge", () => {
  const awaiting = aMigration({
    phase: "AwaitingApproval",
    conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "2 planned migrations need an approval naming this plan")],
  });

  it("acknowledges an unresolved run and refuses when there is none", async () => {
    const partial = aMigration({
      phase: "Blocked",
      conditions: [
        cond("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for is recorded against this database; establish what it did before another Apply"),
      ],
      status: {
        unresolvedRun: { outcome: "Partial", operationID: "sha256:6666666666666666666666666666666666666666666666666666666666666666", jobName: "billing-apply-1", recordedAt: T1 },
      },
    });
    const ok = await runCliWith(["acknowledge", "billing", "-n", "app"], new FakeReader([{ kind: "PtahMigration", raw: partial }]));
    expect(ok.status).toBe(0);
    await expectGolden(ok.stdout, "approve/acknowledgment.yaml");
    const none = await runCliWith(["acknowledge", "billing", "-n", "app"], new FakeReader([{ kind: "PtahMigration", raw: awaiting }]));
    expect(none).toMatchObject({ status: 3, stdout: "" });
    expect(none.stderr).toContain("records no unresolved run");
  });
});
