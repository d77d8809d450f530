// Four-eyes in `inbox`: where you may approve but you last changed the spec, YOU CAN
// says so and NEXT reads the plan; who you are is asked once, and only when it matters.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
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
