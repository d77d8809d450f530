// Four-eyes read exactly: where the account may get MutatingWebhookConfiguration/ptah-operator-admission,
// its two writer entries decide (on: the writer is refused whatever --allow-self says; off: the
// writer's approval is printed); refused (403), today's inference, and the header says it is one.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";

const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T1,
});
const ALWAYS = ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"];
const WRITERS = ["mschemawriter.operator.ptah.run", "mmigrationwriter.operator.ptah.run"];

function cluster(): FakeReader {
  const schema = awaitingSchema({ plan: currentPlanStatus(plan1) }) as { metadata: Record<string, unknown> };
  schema.metadata.annotations = { "operator.ptah.run/last-spec-writer-username": "alice" };
  const reader = new FakeReader([{ kind: "PtahSchema", raw: schema }, ...fakeObjectsOf(plan1)]);
  reader.identity = { username: "alice", uid: "", groups: ["system:authenticated"] };
  return reader;
}

function inspector(admission: FakeInspector["admission"]): FakeInspector {
  const i = new FakeInspector();
  i.admission = admission;
  return i;
}
const config = (entries: string[]) => ({ found: true, name: "ptah-operator-admission", webhookNames: entries, annotations: {} });

describe("approve: the four-eyes switch read from ptah-operator-admission", () => {
  it("on: refuses the last spec writer even with --allow-self, naming the configuration", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app", "--allow-self"], cluster(), { inspector: inspector(config([...ALWAYS, ...WRITERS])) });
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      "error: cannot approve app/storefront: you (alice) last changed its spec, and approvals.requireDistinctApprover is on (the operator's admission configuration has its writer entries), so admission refuses your approval; next: ask another approver to run kubectl ptah approve storefront -n app\n",
    );
  });

  it("off: prints the writer's own approval, the header saying the switch was read", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], cluster(), { inspector: inspector(config(ALWAYS)) });
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "approve/four-eyes-switch-off.yaml");
  });

  it("refused: today's inference, labelled as one", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app", "--allow-self"], cluster(), { inspector: inspector("forbidden") });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      '# Four-eyes:         inferred from the objects\' annotations, not read: may not get mutatingwebhookconfigurations (User "alice" cannot get resource',
    );
    const plain = await runCliWith(["approve", "storefront", "-n", "app"], cluster(), { inspector: inspector("forbidden") });
    expect(plain.status).toBe(1);
  });
});
