// Four-eyes in `inbox`: where you may approve but you last changed the spec, YOU CAN
// says so and NEXT reads the plan; who you are is asked once, and only when it matters.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { T2, aMigration, awaitingSchema, cond } from "../../support/builders.ts";

type Raw = Record<string, unknown>;
function writtenBy(raw: Raw, username: string): Raw {
  const copy = structuredClone(raw) as { metadata: Raw };
  copy.metadata.annotations = { "operator.ptah.run/last-spec-writer-username": username };
  return copy as Raw;
}

function cluster(): FakeReader {
  const reader = new FakeReader([
    { kind: "PtahSchema", raw: writtenBy(awaitingSchema(), "alice") },
    { kind: "PtahSchema", raw: writtenBy(awaitingSchema({ name: "orders", uid: "schema-uid-2" }), "bob") },
    { kind: "PtahSchema", raw: awaitingSchema({ name: "legacy", uid: "schema-uid-4" }) },
    {
      kind: "PtahMigration",
      raw: writtenBy(
        aMigration({ name: "billing", phase: "AwaitingApproval", conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval", T2)] }),
        "alice",
      ),
    },
  ]);
  reader.identity = { username: "alice", uid: "", groups: ["system:authenticated"] };
  return reader;
}

describe("inbox: four-eyes", () => {
  it("says approve (not you: you last changed its spec) where you are the last spec writer", async () => {
    const reader = cluster();
    const r = await runCliWith(["inbox", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "inbox/four-eyes.txt");
    expect(r.stdout).toMatch(/ptahschema\/storefront .* approve \(not you: you last changed its spec\) +kubectl ptah plan storefront -n app\n/u);
    expect(r.stdout).toMatch(/ptahmigration\/billing .* approve \(not you: you last changed its spec\) +kubectl ptah migration billing -n app\n/u);
    expect(r.stdout).toMatch(/ptahschema\/orders .* approve +kubectl ptah approve orders -n app \| kubectl create -f -\n/u);
    expect(r.stdout).toMatch(/ptahschema\/legacy .* approve +kubectl ptah approve legacy -n app \| kubectl create -f -\n/u);
    expect(reader.requests.filter((q) => q === "create SelfSubjectReview")).toHaveLength(1);
  });

  it("does not ask who you are when you may not approve anything, and a read-only caller stays read only", async () => {
    const reader = cluster();
    reader.access = () => false;
    const r = await runCliWith(["inbox", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("not you");
    expect(r.stdout).toMatch(/ptahschema\/storefront .* read only +kubectl ptah plan storefront -n app\n/u);
    expect(reader.requests).not.toContain("create SelfSubjectReview");
  });

  it("keeps approve when who you are cannot be told (admission decides)", async () => {
    const reader = cluster();
    reader.faults.set("create SelfSubjectReview", new ReadError("selfsubjectreviews is forbidden", 403));
    const r = await runCliWith(["inbox", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("not you");
  });
});

describe("inbox: the four-eyes switch read from ptah-operator-admission", () => {
  const ALWAYS = ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"];
  const withAdmission = (admission: FakeInspector["admission"]): FakeInspector => {
    const i = new FakeInspector();
    i.admission = admission;
    return i;
  };

  it("off: says so on stderr, and nobody's own approval is marked refused", async () => {
    const r = await runCliWith(["inbox", "-n", "app"], cluster(), {
      inspector: withAdmission({ found: true, name: "ptah-operator-admission", webhookNames: ALWAYS, annotations: {} }),
    });
    expect(r.stderr).toBe(
      "Four-eyes: off (approvals.requireDistinctApprover: ptah-operator-admission lacks mschemawriter.operator.ptah.run and mmigrationwriter.operator.ptah.run)\n",
    );
    expect(r.stdout).not.toContain("not you");
  });

  it("on: the writer's rows keep their refusal; refused to read: the inference, labelled", async () => {
    const on = await runCliWith(["inbox", "-n", "app"], cluster(), {
      inspector: withAdmission({
        found: true,
        name: "ptah-operator-admission",
        webhookNames: [...ALWAYS, "mschemawriter.operator.ptah.run", "mmigrationwriter.operator.ptah.run"],
        annotations: {},
      }),
    });
    expect(on.stderr).toMatch(/^Four-eyes: on \(/u);
    expect(on.stdout).toContain("approve (not you: you last changed its spec)");
    const refused = await runCliWith(["inbox", "-n", "app"], cluster(), { inspector: withAdmission("forbidden") });
    expect(refused.stderr).toMatch(/^Four-eyes: inferred from the objects' annotations, not read: may not get mutatingwebhookconfigurations \(/u);
    expect(refused.stdout).toContain("approve (not you: you last changed its spec)");
  });
});
