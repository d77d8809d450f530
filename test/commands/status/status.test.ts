import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { AWAITING_CONDITIONS, CONSUMED_AND_STALE, FP1, anApproval, aMigration, awaitingSchema, blockedSchema, cond, inSyncSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: blockedSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3", namespace: "shop" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-old", conditions: CONSUMED_AND_STALE }) },
    {
      kind: "PtahSchemaApproval",
      raw: anApproval({ name: "storefront-v1", namespace: "shop", schema: "orders", schemaUid: "schema-uid-3", conditions: CONSUMED_AND_STALE.slice(2) }),
    },
    {
      kind: "PtahMigration",
      raw: aMigration({
        phase: "AwaitingApproval",
        conditions: [
          cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval naming this plan"),
          cond("Ready", "False", "AwaitingApproval", "The plan is waiting for the approval its policy requires"),
        ],
      }),
    },
  ]);
}

describe("status (list)", () => {
  it("prints schemas and migrations of the namespace as two kubectl-style tables", async () => {
    const r = await runCliWith(["status", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    await expectGolden(r.stdout, "status/list-app.txt");
  });

  it("adds NAMESPACE with -A and the wide columns with -o wide", async () => {
    const r = await runCliWith(["status", "-A", "-o", "wide"], cluster());
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "status/list-all-wide.txt");
  });

  it("reads one LIST per kind and nothing else", async () => {
    const reader = cluster();
    await runCliWith(["status", "-A"], reader);
    expect(reader.requests.sort()).toEqual(["list PtahMigration *", "list PtahSchema *", "list PtahSchemaApproval *"]);
  });

  it("says No resources found on stderr and exits 0 for an empty namespace", async () => {
    const r = await runCliWith(["status", "-n", "empty"], cluster());
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "No resources found in empty namespace.\n" });
  });

  it("prints a kubectl List for -o json and names for -o name", async () => {
    const json = await runCliWith(["status", "-n", "app", "-o", "json"], cluster());
    const list = JSON.parse(json.stdout) as { kind: string; items: { kind: string }[] };
    expect(list.kind).toBe("List");
    expect(list.items.map((i) => i.kind).sort()).toEqual(["PtahMigration", "PtahSchema", "PtahSchema"]);
    const names = await runCliWith(["status", "-n", "app", "-o", "name"], cluster());
    expect(names.stdout).toBe("ptahschema.operator.ptah.run/storefront\nptahschema.operator.ptah.run/catalog\nptahmigration.operator.ptah.run/billing\n");
  });

  it("hides headers with --no-headers", async () => {
    const r = await runCliWith(["status", "-n", "shop", "--no-headers"], cluster());
    expect(r.stdout.startsWith("orders")).toBe(true);
  });
});

describe("status <schema>", () => {
  it("shows a schema awaiting approval with the next command", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "status/detail-awaiting.txt");
    expect(r.stdout).toContain("Next: read the plan with: kubectl ptah plan storefront -n app, then approve it with: kubectl ptah approve storefront -n app | kubectl create -f -");
  });

  it("points at diff when a stale or consumed approval exists for an earlier plan", async () => {
    const reader = cluster();
    reader.put(
      "PtahSchemaApproval",
      anApproval({ name: "storefront-v0", plan: "ptah-plan-000000000000000000000000", conditions: CONSUMED_AND_STALE, created: "2026-11-30T11:50:00Z" }),
    );
    const r = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(r.stdout).toContain(
      "Next: see what changed since approval storefront-v0 with: kubectl ptah diff storefront -n app, then approve it with: kubectl ptah approve storefront -n app | kubectl create -f -",
    );
  });

  it("reads only the approvals that name the schema: one of another schema is not parsed (no warning), one of this schema that does not fit is", async () => {
    const reader = cluster();
    const misfit = (name: string, schema: string) => {
      const raw = anApproval({ name, schema });
      return { ...raw, spec: { ...(raw.spec as object), planRef: "not an object" } };
    };
    reader.put("PtahSchemaApproval", misfit("other-odd", "elsewhere"));
    const quiet = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe("");
    reader.put("PtahSchemaApproval", misfit("storefront-odd", "storefront"));
    const warned = await runCliWith(["status", "storefront", "-n", "app"], reader);
    expect(warned.stderr).toBe(
      "Warning: not shown: ptahschemaapproval app/storefront-odd does not fit the PtahSchemaApproval model: spec.planRef: invalid input: expected object, received string\n",
    );
  });

  it("shows an in-sync schema with its consumed approval and last apply", async () => {
    const r = await runCliWith(["status", "orders", "-n", "shop"], cluster());
    await expectGolden(r.stdout, "status/detail-in-sync.txt");
  });

  it("flags conditions observed at an older generation", async () => {
    const lagging = awaitingSchema({ generation: 2, conditions: [...AWAITING_CONDITIONS.slice(0, -1), cond("Ready", "False", "AwaitingApproval", "x", undefined, 1)] });
    const r = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: lagging }]));
    expect(r.stdout).toContain("Ready*");
    expect(r.stdout).toContain("observed at an older generation than 2");
  });

  it("prints what kubectl prints for the seed's jsonpath line", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app", "-o", 'jsonpath={.status.phase}{"\\n"}{.status.plan.fingerprint}{"\\n"}'], cluster());
    expect(r).toMatchObject({ status: 0, stdout: `AwaitingApproval\n${FP1}\n`, stderr: "" });
  });

  it("exits 3 with an empty stdout when the schema does not exist", async () => {
    const r = await runCliWith(["status", "nope", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
  });

  it("neutralises escape sequences in cluster strings", async () => {
    const evil = awaitingSchema({ conditions: [cond("Ready", "False", "AwaitingApproval", "\u001b]0;pwned\u0007 \u001b[31mred\u001b[0m\nnext line")] });
    const r = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: evil }]));
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
    expect(r.stdout).toContain("^[]0;pwned\\x07 ^[[31mred^[[0m\\nnext line");
  });
});
