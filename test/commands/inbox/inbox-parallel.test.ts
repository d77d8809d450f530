// `inbox` asks who you are and reads the four-eyes switch at once, and only when a row you may
// approve records its last spec writer: the fake cluster holds each answer until both requests
// have arrived (a bounded wait fails the run when they come one after another). Rows, warnings and
// the switch's line are those of the reads made one by one.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { HeldInspector, HeldReader, Rendezvous } from "../../support/held-reads.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema } from "../../support/builders.ts";

const SWITCH = "get mutatingwebhookconfigurations/ptah-operator-admission";
const WHO = "create SelfSubjectReview";
const ON = ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mschemawriter.operator.ptah.run", "mmigrationwriter.operator.ptah.run"];
const ME = { username: "alice", uid: "", groups: ["system:authenticated"] };

function objects(writer: string | undefined): FakeObject[] {
  const mine = awaitingSchema() as { metadata: Record<string, unknown> };
  if (writer) mine.metadata.annotations = { "operator.ptah.run/last-spec-writer-username": writer };
  return [
    { kind: "PtahSchema", raw: mine as Record<string, unknown> },
    { kind: "PtahSchema", raw: awaitingSchema({ name: "orders", uid: "schema-uid-2" }) },
  ];
}

function withSwitchOn<T extends FakeInspector>(i: T): T {
  i.admission = { found: true, name: "ptah-operator-admission", webhookNames: ON, annotations: {} };
  return i;
}

describe("inbox: who you are and the switch at once", () => {
  it("has the SelfSubjectReview and the switch's read in flight together; the same rows and lines", async () => {
    const rendezvous = new Rendezvous([SWITCH, WHO]);
    const reader = new HeldReader(objects("alice"), rendezvous);
    reader.identity = ME;
    const r = await runCliWith(["inbox", "-n", "app"], reader, { inspector: withSwitchOn(new HeldInspector(rendezvous)) });
    expect(rendezvous.met).toBe(true);
    const plain = new FakeReader(objects("alice"));
    plain.identity = ME;
    const reference = await runCliWith(["inbox", "-n", "app"], plain, { inspector: withSwitchOn(new FakeInspector()) });
    expect(r).toMatchObject({ status: 0, stdout: reference.stdout, stderr: reference.stderr });
    expect(r.stderr).toMatch(/^Four-eyes: on/u);
    expect(r.stdout).toContain("approve (not you: you last changed its spec)");
  });

  it("reads neither when no row you may approve records a writer", async () => {
    const reader = new FakeReader(objects(undefined));
    const inspector = withSwitchOn(new FakeInspector());
    const r = await runCliWith(["inbox", "-n", "app"], reader, { inspector });
    expect(r.status).toBe(0);
    expect(reader.requests).not.toContain(WHO);
    expect(inspector.requests).not.toContain(SWITCH);
  });

  it("a failed switch read is the error, though who you are was asked beside it", async () => {
    const reader = new FakeReader(objects("alice"));
    reader.identity = ME;
    const inspector = new FakeInspector();
    inspector.admissionConfiguration = () => Promise.reject(new ReadError("the admission configuration could not be read", 500));
    const r = await runCliWith(["inbox", "-n", "app"], reader, { inspector });
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: "error: the admission configuration could not be read\n" });
    expect(reader.requests).toContain(WHO);
  });
});
