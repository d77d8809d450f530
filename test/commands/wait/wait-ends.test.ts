// `wait --for=approval=consumed` knows when to stop waiting: a superseded plan or a stale
// approval ends it at once (exit 1, one line), and --for may be repeated (every one must hold).
// The deadline of each run is generous: a wait that does not end at once fails on its timeout line.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { FP1, PLAN1, PLAN2, FP2, T1, T2, anApproval, awaitingSchema, cond, inSyncSchema, planStatus, CONSUMED_AND_STALE } from "../../support/builders.ts";

const RESOURCE = "ptahschema.operator.ptah.run/storefront";
const RECORDED = { name: "storefront-v1", uid: "approval-uid-storefront-v1", approver: { username: "alice@example.com" }, approvedAt: T1 };
const reserved = (): Record<string, unknown> => awaitingSchema({ plan: planStatus(PLAN1, FP1, { approval: RECORDED }) });
const CONSUMED = [
  cond("Accepted", "True", "CurrentPlan", "The approval exactly matches the current immutable plan", T2),
  cond("Stale", "False", "CurrentPlan", "The approved plan is current", T2),
  cond("Consumed", "True", "DispatchCommitted", "The exact plan was committed to one Apply Job dispatch", T2),
];
const STALE = (reason: string, message: string) => [cond("Accepted", "False", reason, message, T2), cond("Stale", "True", reason, message, T2)];

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(done()).toBe(true);
}

/** Starts the wait, lets every watch list, then plays the events; returns what the run printed. */
async function waitThrough(args: readonly string[], reader: FakeReader, watches: number, events: ((r: FakeReader) => void)[]) {
  const run = runCliWith(["wait", "storefront", "-n", "app", ...args, "--timeout=20s"], reader);
  await until(() => reader.watching === watches);
  for (const e of events) {
    e(reader);
    await new Promise((r) => setTimeout(r, 5));
  }
  return run;
}

describe("wait --for=approval=consumed ends when it can no longer hold", () => {
  it("a new plan supersedes the one it waited for: exit 1 at once, naming both plans", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: reserved() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1" }) },
    ]);
    const r = await waitThrough(["--for=approval=consumed"], reader, 2, [(x) => x.event("PtahSchema", "MODIFIED", awaitingSchema({ plan: planStatus(PLAN2, FP2) }))]);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(`error: stopped waiting for approval consumed on ${RESOURCE}: the plan it waited for, ${PLAN1} (${FP1}), was superseded by ${PLAN2}\n`);
  });

  it("also when no approval was recorded yet", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await waitThrough(["--for=approval=consumed"], reader, 2, [(x) => x.event("PtahSchema", "MODIFIED", awaitingSchema({ plan: planStatus(PLAN2, FP2) }))]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: stopped waiting .*was superseded by ${PLAN2}\\n$`, "u"));
  });

  it.each([
    ["PlanNoLongerCurrent", "The approved plan no longer matches the current database state"],
    ["SupersededApproval", "Another approval already reserves this exact immutable plan"],
  ])("the recorded approval goes Stale (%s): exit 1 at once with its reason", async (reason, message) => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: reserved() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1" }) },
    ]);
    const r = await waitThrough(["--for=approval=consumed"], reader, 2, [
      (x) => x.event("PtahSchemaApproval", "MODIFIED", anApproval({ name: "storefront-v1", conditions: STALE(reason, message) })),
    ]);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(`error: stopped waiting for approval consumed on ${RESOURCE}: approval storefront-v1 went Stale before it was consumed (${reason}: ${message})\n`);
  });

  it("already stale when the wait starts: ends on the first read (even with --timeout=0)", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: reserved() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: STALE("PlanNoLongerCurrent", "x") }) },
    ]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=approval=consumed", "--timeout=0"], reader);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: stopped waiting for approval consumed .*went Stale before it was consumed \(PlanNoLongerCurrent: x\)\n$/u);
  });

  it("consumed and later stale is consumed: exit 0", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: inSyncSchema() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    ]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=approval=consumed", "--timeout=0"], reader);
    expect(r).toMatchObject({ status: 0, stdout: `${RESOURCE} approval consumed met\n` });
  });

  it("remembers the recorded approval after status.plan is cleared (InSync clears it)", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: reserved() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1" }) },
    ]);
    const cleared = inSyncSchema();
    delete (cleared.status as { plan?: unknown }).plan;
    const r = await waitThrough(["--for=approval=consumed"], reader, 2, [
      (x) => x.event("PtahSchema", "MODIFIED", cleared),
      (x) => x.event("PtahSchemaApproval", "MODIFIED", anApproval({ name: "storefront-v1", conditions: CONSUMED })),
    ]);
    expect(r).toMatchObject({ status: 0, stdout: `${RESOURCE} approval consumed met\n`, stderr: "" });
  });
});

describe("wait with --for repeated", () => {
  it("holds only when every one holds, and says each", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: reserved() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1" }) },
    ]);
    let heard = 0;
    const r = await waitThrough(["--for=approval=consumed", "--for=phase=InSync"], reader, 2, [
      (x) => x.event("PtahSchemaApproval", "MODIFIED", anApproval({ name: "storefront-v1", conditions: CONSUMED })),
      (x) => {
        heard = x.watching; // still waiting: the phase does not hold yet
        x.event("PtahSchema", "MODIFIED", inSyncSchema());
      },
    ]);
    expect(heard).toBe(2);
    expect(r).toMatchObject({ status: 0, stdout: `${RESOURCE} approval consumed met\n${RESOURCE} phase InSync met\n` });
  });

  it("on timeout names only what did not hold", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await runCliWith(["wait", "storefront", "-n", "app", "--for=condition=ApprovalRequired", "--for=phase=InSync", "--timeout=0"], reader);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`error: timed out waiting for phase InSync on ${RESOURCE}; last seen: phase AwaitingApproval, Ready=False (AwaitingApproval)\n`);
  });

  it("refuses an approval wait among several on a migration (exit 2)", async () => {
    const r = await runCliWith(["wait", "migration", "billing", "--for=phase=InSync", "--for=approval=consumed"], new FakeReader([]));
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toMatch(/^error: --for=approval applies to schemas/u);
  });

  it("refuses an invalid one among valid ones (exit 2)", async () => {
    const r = await runCliWith(["wait", "storefront", "--for=phase=InSync", "--for=approval=eaten"], new FakeReader([]));
    expect(r).toMatchObject({ status: 2, stdout: "" });
  });
});
