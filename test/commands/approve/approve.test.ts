import { describe, expect, it } from "vitest";
import yaml from "js-yaml";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { AWAITING_CONDITIONS, aMigration, awaitingSchema, cond, T1 } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";
import { plan1, plan2 } from "../../support/storefront-plans.ts";

function cluster(extra: Partial<Parameters<typeof awaitingSchema>[0]> = {}): FakeReader {
  return new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan1), ...extra }) }, ...fakeObjectsOf(plan1), ...fakeObjectsOf(plan2)]);
}

describe("approve <schema>", () => {
  it("prints a manifest bound to schema, plan and the verified fingerprint", async () => {
    const reader = cluster();
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "approve/schema.yaml");
    const doc = yaml.load(r.stdout) as { kind: string; metadata: { name: string; namespace: string }; spec: Record<string, unknown> };
    expect(doc.kind).toBe("PtahSchemaApproval");
    expect(doc.metadata).toEqual({ name: `storefront-${plan1.fingerprint.slice(7, 19)}`, namespace: "app" });
    expect(doc.spec).toEqual({
      schemaRef: { name: "storefront", uid: "schema-uid-1" },
      planRef: { name: plan1.name, uid: (plan1.plan.metadata as { uid: string }).uid },
      planFingerprint: plan1.fingerprint,
    });
    // schema, then the plan and its chunks (verified), then the schema again, last.
    expect(reader.requests[0]).toBe("get PtahSchema app/storefront");
    expect(reader.requests.at(-1)).toBe("get PtahSchema app/storefront");
    expect(reader.requests.every((q) => q.startsWith("get "))).toBe(true);
  });

  it("prints JSON with -o json and honours --name", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app", "-o", "json", "--name", "storefront-v1"], cluster());
    const doc = JSON.parse(r.stdout) as { metadata: { name: string }; spec: Record<string, unknown> };
    expect(doc.metadata.name).toBe("storefront-v1");
    expect(Object.keys(doc.spec).sort()).toEqual(["planFingerprint", "planRef", "schemaRef"]);
  });

  it("refuses when the plan moves between the reads (race), with an empty stdout", async () => {
    const reader = cluster();
    let chunkReads = 0;
    reader.onRequest = (req, r) => {
      if (req.startsWith("get PtahSchemaPlanChunk") && ++chunkReads === 1) {
        r.put("PtahSchema", awaitingSchema({ plan: currentPlanStatus(plan2) }));
      }
    };
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: the current plan of app\/storefront moved while it was being verified/u);
  });

  it("binds the plan the last schema read names, and reads the schema twice: A → B → A is refused", async () => {
    // status.plan names plan 1 (A) on the first schema read, plan 2 (B) on the second and A
    // again on any third. A manifest must never name B while the last read says A, nor A
    // unless A is what was verified and is still current.
    const reader = cluster();
    const states = [plan1, plan2, plan1];
    let schemaReads = 0;
    reader.onRequest = (req, r) => {
      if (req !== "get PtahSchema app/storefront") return;
      r.put("PtahSchema", awaitingSchema({ plan: currentPlanStatus(states[Math.min(schemaReads++, states.length - 1)]!) }));
    };
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(reader.requests.filter((q) => q === "get PtahSchema app/storefront")).toHaveLength(2);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: the current plan of app/storefront moved while it was being verified (${plan1.name} → ${plan2.name}); read it again with kubectl ptah plan storefront -n app\n`,
    );
  });

  it("refuses when a chunk does not verify", async () => {
    const tampered = structuredClone(plan1.chunks[0]!) as { spec: { data: string } };
    const bytes = Buffer.from(tampered.spec.data, "base64");
    bytes[3] = bytes[3]! ^ 1;
    tampered.spec.data = bytes.toString("base64");
    const reader = cluster();
    reader.put("PtahSchemaPlanChunk", tampered as never);
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toContain("does not match the manifest");
  });

  it.each([
    {
      name: "no current plan",
      golden: "approve/refusal-no-current-plan.txt",
      schema: { phase: "InSync", plan: undefined, conditions: [cond("Ready", "True", "InSync", "ok")] },
      status: 3,
      message: "has no current plan",
    },
    {
      name: "an approval already recorded",
      golden: "approve/refusal-approval-recorded.txt",
      schema: { plan: { ...currentPlanStatus(plan1), approval: { name: "x", approver: { username: "bob" } } } },
      status: 1,
      message: "already has a recorded approval (x by bob)",
    },
    {
      name: "a blocked schema",
      golden: "approve/refusal-blocked.txt",
      schema: { phase: "Blocked", conditions: [cond("ApprovalRequired", "False", "DestructiveChangesDisabled", "m"), cond("Ready", "False", "DestructiveChangesDisabled", "m")] },
      status: 1,
      message: "is not awaiting approval (phase Blocked, Ready=False DestructiveChangesDisabled)",
    },
    {
      name: "no approval needed",
      golden: "approve/refusal-no-approval-needed.txt",
      schema: { phase: "ReadyToApply", conditions: [cond("ApprovalRequired", "False", "NotRequired", "m")] },
      status: 3,
      message: "does not currently require approval",
    },
  ])("refuses $name with exit $status", async ({ golden, schema, status, message }) => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan1), conditions: AWAITING_CONDITIONS, ...schema }) },
      ...fakeObjectsOf(plan1),
    ]);
    const r = await runCliWith(["approve", "storefront", "-n", "app"], reader);
    expect(r.status).toBe(status);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    await expectGolden(r.stderr, golden);
  });

  it("sends only a dryRun create with --dry-run=server and prints what admission stores", async () => {
    const reader = cluster();
    reader.dryRun = (_k, _ns, body) => ({ object: { ...body, spec: { ...(body.spec as object), approver: { username: "alice" }, approvedAt: T1, mutationRequestUID: "m" } } });
    const r = await runCliWith(["approve", "storefront", "-n", "app", "--dry-run=server"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("username: alice");
    expect(reader.requests.filter((q) => !q.startsWith("get "))).toEqual(["create?dryRun=All PtahSchemaApproval app"]);
  });
});

describe("approve migration", () => {
  const mplan = {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahMigrationPlan",
    metadata: { name: "ptah-mplan-555555555555555555555555", namespace: "app", uid: "mplan-uid-1", creationTimestamp: T1 },
    spec: {
      contractVersion: 1,
      migrationRef: { name: "billing", uid: "migration-uid-1" },
      fingerprint: "sha256:5555555555555555555555555555555555555555555555555555555555555555",
      historyFingerprint: "sha256:4444444444444444444444444444444444444444444444444444444444444444",
      currentVersion: 2,
      migrations: [
        { version: 3, description: "add invoices", checksum: "c3" },
        { version: 4, description: "index", checksum: "c4" },
      ],
    },
  };
  const awaiting = aMigration({
    phase: "AwaitingApproval",
    conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "2 planned migrations need an approval naming this plan")],
  });

  it("prints a migration approval bound to the plan", async () => {
    const r = await runCliWith(
      ["approve", "migration", "billing", "-n", "app"],
      new FakeReader([
        { kind: "PtahMigration", raw: awaiting },
        { kind: "PtahMigrationPlan", raw: mplan },
      ]),
    );
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "approve/migration.yaml");
  });
});
