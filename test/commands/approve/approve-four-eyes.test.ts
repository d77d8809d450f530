// Four-eyes in `approve`: the last-spec-writer annotations of the object read last,
// compared with who you are (one SelfSubjectReview, asked only when a writer is recorded).
import { describe, expect, it } from "vitest";
import yaml from "js-yaml";
import { NotFoundError, ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, aMigrationPlan, awaitingSchema, cond, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";

type Raw = Record<string, unknown>;
const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: T1,
});

function written(raw: Raw, annotations: Record<string, string>): Raw {
  const copy = structuredClone(raw) as { metadata: Raw };
  copy.metadata.annotations = annotations;
  return copy as Raw;
}
const by = (username: string, uid?: string): Record<string, string> => ({
  "operator.ptah.run/last-spec-writer-username": username,
  ...(uid !== undefined ? { "operator.ptah.run/last-spec-writer-uid": uid } : {}),
});

function schemaCluster(annotations: Record<string, string> | undefined, me = { username: "alice", uid: "" }): FakeReader {
  const schema = awaitingSchema({ plan: currentPlanStatus(plan1) });
  const reader = new FakeReader([{ kind: "PtahSchema", raw: annotations ? written(schema, annotations) : schema }, ...fakeObjectsOf(plan1)]);
  reader.identity = { ...me, groups: ["system:authenticated"] };
  return reader;
}

const SELF_REFUSAL =
  "error: cannot approve app/storefront: you (alice) last changed its spec, and an operator installed with approvals.requireDistinctApprover=true refuses your approval; next: ask another approver to run kubectl ptah approve storefront -n app, or add --allow-self if the operator does not require a distinct approver\n";

describe("approve: four-eyes", () => {
  it("refuses the last spec writer with one line naming the switch and the writer (exit 1, stdout empty)", async () => {
    const reader = schemaCluster(by("alice"));
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(SELF_REFUSAL);
    await expectGolden(r.stderr, "approve/refusal-self.txt");
    // who you are is asked once, after the last read of the schema
    expect(reader.requests.filter((q) => q === "create SelfSubjectReview")).toHaveLength(1);
    expect(reader.requests.at(-1)).toBe("create SelfSubjectReview");
  });

  it("prints the approval with --allow-self, and the header says so", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app", "--allow-self"], schemaCluster(by("alice")));
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "approve/four-eyes-allow-self.yaml");
    expect((yaml.load(r.stdout) as { kind: string }).kind).toBe("PtahSchemaApproval");
  });

  it("prints the approval for a distinct approver and names the writer", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], schemaCluster(by("bob", "uid-bob"), { username: "alice", uid: "" }));
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "approve/four-eyes-distinct.yaml");
  });

  it.each([
    { name: "same username, another UID", writer: by("alice", "uid-1"), me: { username: "alice", uid: "uid-2" }, refused: false },
    { name: "same username and UID", writer: by("alice", "uid-1"), me: { username: "alice", uid: "uid-1" }, refused: true },
    { name: "no UID recorded, you have one", writer: by("alice"), me: { username: "alice", uid: "uid-1" }, refused: false },
    { name: "a username that differs in case", writer: by("Alice"), me: { username: "alice", uid: "" }, refused: false },
    { name: "a recorded username with spaces around it (admission trims it)", writer: by("  alice "), me: { username: "alice", uid: "" }, refused: true },
  ])("compares as admission does: $name", async ({ writer, me, refused }) => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], schemaCluster(writer, me));
    expect(r.status).toBe(refused ? 1 : 0);
    expect(r.stdout === "").toBe(refused);
  });

  it.each([
    { name: "no annotation", annotations: undefined },
    { name: "a blank username", annotations: by("   ") },
    { name: "only a UID", annotations: { "operator.ptah.run/last-spec-writer-uid": "u" } },
  ])("with $name: says no writer is recorded and does not ask who you are", async ({ annotations }) => {
    const reader = schemaCluster(annotations);
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("# Last spec writer:  none recorded (no operator.ptah.run/last-spec-writer-username annotation); where\n");
    expect(r.stdout).toContain("#   approvals.requireDistinctApprover is on, admission refuses this approval until the spec next changes.\n");
    expect(reader.requests).not.toContain("create SelfSubjectReview");
  });

  it.each([
    { name: "not served (404)", fault: new NotFoundError("the server could not find the requested resource"), status: 0 },
    { name: "forbidden (403)", fault: new ReadError("selfsubjectreviews is forbidden", 403), status: 0 },
    { name: "unreachable", fault: new ReadError("the connection to the server 127.0.0.1:1 was refused"), status: 1 },
  ])("when who you are cannot be asked ($name)", async ({ fault, status }) => {
    const reader = schemaCluster(by("alice"));
    reader.faults.set("create SelfSubjectReview", fault);
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(status);
    if (status === 0) expect(r.stdout).toContain(`# Last spec writer:  alice; who you are is unknown (SelfSubjectReview: ${fault.message}):\n`);
    else expect(r.stdout).toBe("");
  });

  it("--dry-run=server leaves the question to admission: no SelfSubjectReview, the dry run is sent", async () => {
    const reader = schemaCluster(by("alice"));
    reader.dryRun = (_kind, _ns, body) => ({ object: body });
    const r = await runCliWith(["approve", "storefront", "-n", "app", "--dry-run=server"], reader);
    expect(r.status).toBe(0);
    expect(reader.requests).toContain("create?dryRun=All PtahSchemaApproval app");
    expect(reader.requests).not.toContain("create SelfSubjectReview");
  });

  it("neutralises a hostile writer name", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], schemaCluster(by("mallory\u001b[2J\nx"), { username: "alice", uid: "" }));
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout.split("\n").filter((l) => l.includes("Last spec writer"))).toHaveLength(1);
  });

  describe("migration", () => {
    const mplan = aMigrationPlan();
    const awaiting = aMigration({
      phase: "AwaitingApproval",
      conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "1 planned migration needs an approval naming this plan")],
    });

    it("refuses the migration's last spec writer, and --allow-self prints it", async () => {
      const reader = new FakeReader([
        { kind: "PtahMigration", raw: written(awaiting, by("alice")) },
        { kind: "PtahMigrationPlan", raw: mplan },
      ]);
      reader.identity = { username: "alice", uid: "", groups: [] };
      const r = await runCliWith(["approve", "migration", "billing", "-n", "app"], reader);
      expect(r).toMatchObject({ status: 1, stdout: "" });
      expect(r.stderr).toMatch(
        /^error: cannot approve migration app\/billing: you \(alice\) last changed its spec, and an operator installed with approvals\.requireDistinctApprover=true refuses your approval; next: ask another approver to run kubectl ptah approve migration billing -n app, or add --allow-self/u,
      );
      const allowed = await runCliWith(["approve", "migration", "billing", "-n", "app", "--allow-self"], reader);
      expect(allowed.status).toBe(0);
      await expectGolden(allowed.stdout, "approve/four-eyes-migration-allow-self.yaml");
    });
  });
});
