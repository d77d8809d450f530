// Four-eyes outside approve: `status SCHEMA` shows the last spec writer, and doctor
// says whether the operator's spec-writer webhook is stamping.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import type { LocalFacts } from "../../../src/commands/command-types.ts";
import type { WebhookEntry } from "../../../src/kube/types.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { awaitingSchema } from "../../support/builders.ts";

type Raw = Record<string, unknown>;
function writtenBy(raw: Raw, annotations: Record<string, string>): Raw {
  const copy = structuredClone(raw) as { metadata: Raw };
  copy.metadata.annotations = annotations;
  return copy as Raw;
}
const ALICE = { "operator.ptah.run/last-spec-writer-username": "alice", "operator.ptah.run/last-spec-writer-uid": "uid-a\u001b[31m" };
const MACHINE: LocalFacts = { kubectl: { gitVersion: "v1.32.4", minor: 32 }, plugins: [], selfPath: undefined, processGuard: true };

describe("status SCHEMA: Last spec writer", () => {
  it("names the recorded writer (sanitised), and says none recorded without the annotation", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: writtenBy(awaitingSchema(), ALICE) }]));
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "status/detail-spec-writer.txt");
    expect(r.stdout).toContain("\nLast spec writer: alice (uid uid-a");
    expect(r.stdout).not.toContain("\u001b");
    const none = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]));
    expect(none.stdout).toContain("\nLast spec writer: none recorded\n");
  });
});

const STAMPER: WebhookEntry = {
  configuration: "ptah-operator-mutating",
  name: "mspecwriter.operator.ptah.run",
  target: "service ptah-system/ptah-operator-webhook:443/mutate-spec-writer",
  rules: [{ groups: ["operator.ptah.run"], resources: ["ptahschemas", "ptahmigrations"], operations: ["CREATE", "UPDATE"] }],
};

function doctor(inspector: FakeInspector, reader: FakeReader) {
  return runCliWith(["doctor", "-n", "app", "-o", "json"], reader, { inspector, machine: MACHINE });
}
function specWriters(stdout: string): { status: string; summary: string } {
  const doc = JSON.parse(stdout) as { checks: { name: string; status: string; summary: string }[] };
  return doc.checks.find((c) => c.name === "spec writers")!;
}

describe("doctor: spec writers", () => {
  it("ok when a mutating webhook stamps both kinds; the namespace is then not listed", async () => {
    const inspector = new FakeInspector();
    inspector.webhooks = { ...inspector.webhooks, mutating: [...(inspector.webhooks.mutating as WebhookEntry[]), STAMPER] };
    const reader = new FakeReader([]);
    const check = specWriters((await doctor(inspector, reader)).stdout);
    expect(check).toMatchObject({ status: "ok", summary: "stamped on every create and spec change: mspecwriter.operator.ptah.run (ptah-operator-mutating)" });
    // The stuck row lists every namespace (" *"); the spec-writer check lists nothing in this one.
    expect(reader.requests.filter((q) => q.startsWith("list ") && !q.endsWith(" *"))).toEqual([]);
  });

  it("ok when an object in the namespace records a writer (the webhooks may not be listed)", async () => {
    const inspector = new FakeInspector();
    inspector.webhooks = { mutating: "forbidden", validating: "forbidden" };
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: writtenBy(awaitingSchema(), ALICE) },
      { kind: "PtahSchema", raw: awaitingSchema({ name: "orders", uid: "u2" }) },
    ]);
    expect(specWriters((await doctor(inspector, reader)).stdout)).toMatchObject({
      status: "ok",
      summary: "stamped: 1 of 2 schemas and migrations in app record a last spec writer",
    });
  });

  it("says nothing is stamped when neither holds, and skips when it cannot tell", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);
    const r = await doctor(new FakeInspector(), reader);
    expect(specWriters(r.stdout)).toMatchObject({ status: "ok" });
    expect(specWriters(r.stdout).summary).toBe(
      "not stamped: no mutating webhook stamps ptahschemas and ptahmigrations, and none of the 1 schemas and migrations in app records a last spec writer",
    );
    const blind = new FakeInspector();
    blind.webhooks = { mutating: "forbidden", validating: "forbidden" };
    expect(specWriters((await doctor(blind, reader)).stdout).status).toBe("skipped");
  });
});

describe("doctor: spec writers when the kinds cannot be listed", () => {
  it("is skipped, not a problem (the kinds check names a missing CRD)", async () => {
    const reader = new FakeReader([]);
    reader.faults.set("list PtahSchema", new ReadError('the server doesn\'t have a resource type "ptahschemas"', 404));
    expect(specWriters((await doctor(new FakeInspector(), reader)).stdout)).toMatchObject({ status: "skipped" });
  });
});
