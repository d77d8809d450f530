// `approve` sends its four-eyes reads (the admission configuration's switch, and who you are when
// the object records its last spec writer) beside the plan's reads, once the first read passed its
// preconditions: the fake cluster holds each answer until all three requests have arrived, and
// fails after a bounded wait when they come one after another. The manifest and its header are
// the same; a failed plan read is still the error, and --dry-run=server still sends neither.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { HeldInspector, HeldReader, Rendezvous } from "../../support/held-reads.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, aMigrationPlan, awaitingSchema, cond, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";

const plan1 = publishSchemaPlan({
  schema: { name: "storefront", namespace: "app", uid: "schema-uid-1" },
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T1,
});
const ALWAYS = ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"];
const SWITCH = "get mutatingwebhookconfigurations/ptah-operator-admission";
const WHO = "create SelfSubjectReview";
const BY_ALICE = { "operator.ptah.run/last-spec-writer-username": "alice" };

function schemaObjects(): FakeObject[] {
  const schema = awaitingSchema({ plan: currentPlanStatus(plan1) }) as { metadata: Record<string, unknown> };
  schema.metadata.annotations = BY_ALICE;
  return [{ kind: "PtahSchema", raw: schema as Record<string, unknown> }, ...fakeObjectsOf(plan1)];
}

function held(together: readonly string[], objects: FakeObject[]): { reader: HeldReader; inspector: HeldInspector; rendezvous: Rendezvous } {
  const rendezvous = new Rendezvous(together);
  const reader = new HeldReader(objects, rendezvous);
  reader.identity = { username: "alice", uid: "", groups: ["system:authenticated"] };
  const inspector = new HeldInspector(rendezvous);
  inspector.admission = { found: true, name: "ptah-operator-admission", webhookNames: ALWAYS, annotations: {} };
  return { reader, inspector, rendezvous };
}

describe("approve SCHEMA: the four-eyes reads beside the plan's", () => {
  it("has the plan's GET, the switch and who you are in flight together; the same manifest and header", async () => {
    const { reader, inspector, rendezvous } = held([`get PtahSchemaPlan app/${plan1.name}`, SWITCH, WHO], schemaObjects());
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader, { inspector });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(rendezvous.met).toBe(true);
    await expectGolden(r.stdout, "approve/four-eyes-switch-off.yaml");
    // The schema is still read first and last; who you are once.
    expect(reader.requests[0]).toBe("get PtahSchema app/storefront");
    expect(reader.requests.at(-1)).toBe("get PtahSchema app/storefront");
    expect(reader.requests.filter((q) => q === WHO)).toHaveLength(1);
  });

  it("a failed plan read is the error, not the four-eyes reads' failures that came first", async () => {
    const { reader, inspector } = held([], schemaObjects());
    reader.faults.set("create SelfSubjectReview", new ReadError("the connection to the server was reset"));
    reader.faults.set("get PtahSchemaPlanChunk", new ReadError("the server is on fire", 500));
    const slow = reader.get.bind(reader);
    reader.get = async (kind, namespace, name) => {
      if (kind === "PtahSchemaPlanChunk") await new Promise((resolve) => setTimeout(resolve, 20));
      return slow(kind, namespace, name);
    };
    inspector.admissionConfiguration = () => Promise.reject(new ReadError("the admission configuration could not be read", 500));
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader, { inspector });
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toMatch(/^error: read the stored plan ptah-plan-\w+: plan chunk 0: the server is on fire\n$/u);
  });

  it("when both four-eyes reads fail, the switch's error is printed, as when it was read first", async () => {
    const { reader, inspector } = held([], schemaObjects());
    reader.faults.set("create SelfSubjectReview", new ReadError("the connection to the server was reset"));
    inspector.admissionConfiguration = () => new Promise((_resolve, reject) => setTimeout(() => reject(new ReadError("the admission configuration could not be read", 500)), 20));
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader, { inspector });
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: "error: the admission configuration could not be read\n" });
  });

  it("a first read that refuses sends no four-eyes read", async () => {
    const refused = awaitingSchema({ plan: currentPlanStatus(plan1), conditions: [cond("Ready", "True", "InSync", "in sync")], phase: "InSync" });
    const { reader, inspector } = held([], [{ kind: "PtahSchema", raw: refused }, ...fakeObjectsOf(plan1)]);
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader, { inspector });
    expect(r.status).not.toBe(0);
    expect(reader.requests).toEqual(["get PtahSchema app/storefront"]);
    expect(inspector.requests).toEqual([]);
  });
});

describe("approve migration: the four-eyes reads beside the plan's", () => {
  it("has the migration plan's GET, the switch and who you are in flight together; the same output as read one by one", async () => {
    const awaiting = aMigration({
      phase: "AwaitingApproval",
      conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "1 planned migration needs an approval naming this plan")],
    }) as {
      metadata: Record<string, unknown>;
    };
    awaiting.metadata.annotations = BY_ALICE;
    const mplan = aMigrationPlan();
    const objects = (): FakeObject[] => [
      { kind: "PtahMigration", raw: awaiting as Record<string, unknown> },
      { kind: "PtahMigrationPlan", raw: mplan },
    ];
    const planName = (mplan.metadata as { name: string }).name;
    const { reader, inspector, rendezvous } = held([`get PtahMigrationPlan app/${planName}`, SWITCH, WHO], objects());
    const r = await runCliWith(["approve", "migration", "billing", "-n", "app", "--allow-self"], reader, { inspector });
    expect(r.stderr).toBe("");
    expect(rendezvous.met).toBe(true);
    const plain = new FakeReader(objects());
    plain.identity = reader.identity;
    const reference = await runCliWith(["approve", "migration", "billing", "-n", "app", "--allow-self"], plain, { inspector: held([], []).inspector });
    expect(r).toMatchObject({ status: 0, stdout: reference.stdout, stderr: reference.stderr });
  });
});
