import { describe, expect, it } from "vitest";
import { holds, parseWaitFor } from "../../../src/commands/wait/wait-command.ts";
import { parseObject } from "../../../src/model/parse.ts";
import type { PtahSchema, PtahSchemaApproval } from "../../../src/model/kinds.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { CONSUMED_AND_STALE, anApproval, awaitingSchema, cond, inSyncSchema } from "../../support/builders.ts";

const schema = (raw: Record<string, unknown>): PtahSchema => parseObject("PtahSchema", raw).object;
const approval = (raw: Record<string, unknown>): PtahSchemaApproval => parseObject("PtahSchemaApproval", raw).object;

describe("wait --for", () => {
  it.each([
    { name: "a True condition holds", for: "condition=ApprovalRequired", target: awaitingSchema(), expected: true },
    { name: "a condition defaults to True", for: "condition=InSync", target: awaitingSchema(), expected: false },
    { name: "an explicit status is compared", for: "condition=InSync=False", target: awaitingSchema(), expected: true },
    { name: "a required reason holds when it is the condition's", for: "condition=Ready=False,reason=AwaitingApproval", target: awaitingSchema(), expected: true },
    { name: "a required reason is compared exactly", for: "condition=Ready=False,reason=awaitingapproval", target: awaitingSchema(), expected: false },
    { name: "another reason does not hold", for: "condition=Ready=False,reason=ApprovedPlan", target: awaitingSchema(), expected: false },
    { name: "a reason with the status defaulted to True", for: "condition=ApprovalRequired,reason=Waiting", target: awaitingSchema(), expected: true },
    {
      name: "a reason may hold a comma",
      for: "condition=Ready=False,reason=A,B",
      target: awaitingSchema({ conditions: [cond("Ready", "False", "A,B", "x")] }),
      expected: true,
    },
    { name: "a condition from an older generation does not count", for: "condition=ApprovalRequired", target: awaitingSchema({ generation: 2 }), expected: false },
    { name: "a phase holds", for: "phase=InSync", target: inSyncSchema(), expected: true },
    { name: "another phase does not", for: "phase=InSync", target: awaitingSchema(), expected: false },
    { name: "consumed needs the recorded approval's Consumed=True", for: "approval=consumed", target: inSyncSchema(), expected: true },
    { name: "nothing recorded is not reserved", for: "approval=reserved", target: awaitingSchema(), expected: false },
  ])("$name", ({ for: f, target, expected }) => {
    const approvals = [approval(anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }))];
    expect(holds(schema(target), parseWaitFor(f), approvals)).toBe(expected);
  });

  it.each([
    "",
    "phase",
    "condition=",
    "condition=Ready=Maybe",
    "approval=eaten",
    "nonsense=1",
    "condition=Ready=False,reason=",
    "condition=Ready=False,reasn=X",
    "condition=Ready=False,reason=9X",
    "condition=Ready=False,reason=X,",
    "condition=Ready=False=X",
    "condition=,reason=X",
  ])("refuses --for=%s with exit 2", async (f) => {
    const r = await runCliWith(["wait", "storefront", `--for=${f}`], new FakeReader([]));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
  });

  it("names the required reason in its line when the condition holds with it", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=condition=Ready=False,reason=AwaitingApproval", "--timeout=5s"], reader);
    expect(r).toMatchObject({ status: 0, stdout: "ptahschema.operator.ptah.run/storefront condition Ready=False,reason=AwaitingApproval met\n" });
  });

  it("exits 0 at once when the condition already holds", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=condition=ApprovalRequired", "--timeout=5s"], reader);
    expect(r).toMatchObject({ status: 0, stdout: "ptahschema.operator.ptah.run/storefront condition ApprovalRequired=True met\n" });
  });

  it("exits 1 on timeout with the last state seen", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ conditions: [cond("Ready", "False", "AwaitingApproval", "x")] }) }]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=200ms"], reader);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "error: timed out waiting for phase InSync on ptahschema.operator.ptah.run/storefront; last seen: phase AwaitingApproval, Ready=False (AwaitingApproval)\n",
    );
  });

  it("--timeout=0 checks once: a condition that does not hold yet is a timeout at once", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=0"], reader);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toMatch(/^error: timed out waiting for phase InSync on ptahschema\.operator\.ptah\.run\/storefront; last seen: /u);
  });

  it("a negative --timeout waits on (kubectl wait's reading: a week), past any short deadline, until the condition holds", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const run = runCliWith(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=-1s"], reader);
    for (let i = 0; i < 1000 && reader.watching < 1; i++) await new Promise((r) => setTimeout(r, 2));
    expect(reader.watching).toBe(1);
    await new Promise((r) => setTimeout(r, 300)); // a deadline of 0 or of the absolute value would have fired by now
    reader.event("PtahSchema", "MODIFIED", inSyncSchema());
    expect(await run).toMatchObject({ status: 0, stderr: "", stdout: "ptahschema.operator.ptah.run/storefront phase InSync met\n" });
  });
});
