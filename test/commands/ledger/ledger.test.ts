import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell } from "../../../src/render/csv.ts";
import { sanitize } from "../../../src/render/sanitize.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { csvObjects, parseCsv } from "../../support/csv.ts";
import { CONSUMED_AND_STALE, FP1, FP2, MANAGER_COPIES, PLAN1, PLAN2, T0, T1, T2, aMigration, anApproval, cond, inSyncSchema } from "../../support/builders.ts";

const CONSUMED_AT = "2026-11-30T11:31:00Z";
const STALE_AT = "2026-11-30T11:58:00Z";
const OPERATION = "sha256:6666666666666666666666666666666666666666666666666666666666666666";

/** A later manager release than the publisher (MANAGER_COPIES), sharing its execution binding. */
const DISPATCHER = {
  controllerImage: `registry.example/ptah-operator@sha256:${"d1".repeat(32)}`,
  controllerRevision: "v1.4.2",
  runnerImage: `registry.example/ptah-runner@sha256:${"e2".repeat(32)}`,
};

function schemaCluster(): FakeReader {
  const story = CONSUMED_AND_STALE.map((c) => ({ ...c, lastTransitionTime: c.type === "Consumed" ? CONSUMED_AT : STALE_AT }));
  return new FakeReader([
    {
      kind: "PtahSchema",
      raw: inSyncSchema({ applied: { planRef: { name: PLAN1, uid: `uid-${PLAN1}` }, planFingerprint: FP1, ...MANAGER_COPIES, dispatchedBy: DISPATCHER, completedAt: T2 } }),
    },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: story }) },
    {
      kind: "PtahSchemaApproval",
      raw: anApproval({
        name: "storefront-dup",
        created: "2026-11-30T11:30:30Z",
        approver: "bob",
        conditions: [cond("Stale", "True", "SupersededApproval", "Another approval already reserves this exact immutable plan", T2)],
      }),
    },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: '=HYPERLINK("x")', created: T0, approver: '@mallory, "the" one', plan: PLAN2, fingerprint: FP2 }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "other", schema: "catalog", schemaUid: "schema-uid-2" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "elsewhere", namespace: "ops", created: "2026-11-30T11:10:00Z" }) },
  ]);
}

function migrationCluster(): FakeReader {
  return new FakeReader([
    {
      kind: "PtahMigration",
      raw: aMigration({
        phase: "Pending",
        conditions: [],
        status: {
          resolvedRun: {
            operationID: OPERATION,
            outcome: "Partial",
            resolution: "Acknowledged",
            acknowledgmentRef: { name: "billing-ack", uid: "ack-uid-1" },
            acknowledgedBy: { username: "carol" },
            resolvedAt: T2,
          },
        },
      }),
    },
    {
      kind: "PtahMigrationApproval",
      raw: {
        apiVersion: "operator.ptah.run/v1alpha1",
        kind: "PtahMigrationApproval",
        metadata: { name: "billing-v3", namespace: "app", uid: "mapproval-uid-1", creationTimestamp: T0 },
        spec: {
          migrationRef: { name: "billing", uid: "migration-uid-1" },
          planRef: { name: "ptah-mplan-555555555555555555555555", uid: "mplan-uid-1" },
          planFingerprint: FP2,
          approver: { username: "alice", groups: ["db-owners"] },
          approvedAt: T0,
        },
        status: { conditions: [cond("Consumed", "True", "DispatchCommitted", "The approved plan was dispatched", "2026-11-30T11:05:00Z")] },
      },
    },
    {
      kind: "PtahMigrationRunAcknowledgment",
      raw: {
        apiVersion: "operator.ptah.run/v1alpha1",
        kind: "PtahMigrationRunAcknowledgment",
        metadata: { name: "billing-ack", namespace: "app", uid: "ack-uid-1", creationTimestamp: T1 },
        spec: { migrationRef: { name: "billing", uid: "migration-uid-1" }, operationID: OPERATION, acknowledgedBy: { username: "carol", groups: ["oncall"] }, acknowledgedAt: T1 },
        status: { conditions: [cond("Consumed", "True", "RunAcknowledged", "The acknowledgment settled the unresolved run it names", "2026-11-30T11:31:00Z")] },
      },
    },
  ]);
}

describe("ledger SCHEMA", () => {
  it("prints every approval of the schema, oldest approval first, with RFC 3339 times, reading the schema and its approvals only", async () => {
    const reader = schemaCluster();
    const r = await runCliWith(["ledger", "storefront", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "ledger/storefront.txt");
    expect(reader.requests.sort()).toEqual(["get PtahSchema app/storefront", "list PtahSchemaApproval app"]);
    const lines = r.stdout.split("\n");
    expect(lines.map((l) => l.split(/\s+/u)[0])).toEqual(["APPROVAL", '=HYPERLINK("x")', "storefront-v1", "storefront-dup", ""]);
    const v1 = lines.find((l) => l.startsWith("storefront-v1"))!;
    // approved, reserved, consumed, applied (status.applied names its fingerprint), stale
    expect(v1).toMatch(
      /alice@example\.com +system:authenticated +2026-11-30T11:30:00Z +yes +2026-11-30T11:31:00Z +2026-11-30T11:55:00Z +v1\.4\.2 registry\.example\/ptah-operator@sha256:d1d1d1d1d1d1, runner registry\.example\/ptah-runner@sha256:e2e2e2e2e2e2 +PlanNoLongerCurrent 2026-11-30T11:58:00Z +Consumed, stale/u,
    );
    // The duplicate for the same plan never ran: it is not "applied".
    expect(lines.find((l) => l.startsWith("storefront-dup"))).toMatch(/bob .* - +- +- +SupersededApproval 2026-11-30T11:55:00Z +Superseded/u);
  });

  it("prints ages with --relative", async () => {
    const r = await runCliWith(["ledger", "storefront", "-n", "app", "--relative"], schemaCluster());
    expect(r.stdout.split("\n").find((l) => l.startsWith("storefront-v1"))).toMatch(/ 30m +yes +29m +5m +v1\.4\.2 \S+, runner \S+ +PlanNoLongerCurrent 2m +Consumed, stale/u);
  });

  it("exits 3 for a schema that does not exist, and refuses a name with -A", async () => {
    expect(await runCliWith(["ledger", "nope", "-n", "app"], schemaCluster())).toMatchObject({ status: 3, stdout: "", stderr: "error: no such schema: app/nope\n" });
    const both = await runCliWith(["ledger", "storefront", "-A"], schemaCluster());
    expect(both).toMatchObject({ status: 2, stdout: "" });
    const wide = await runCliWith(["ledger", "-o", "wide"], schemaCluster());
    expect(wide).toMatchObject({ status: 2, stdout: "" });
    expect(wide.stderr).toContain('unknown output format "wide"');
  });
});

describe("ledger -A and machine output", () => {
  it("adds the namespace column across every namespace", async () => {
    const r = await runCliWith(["ledger", "-A"], schemaCluster());
    expect(r.status).toBe(0);
    const firstColumn = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/u)[0]);
    expect(firstColumn).toEqual(["NAMESPACE", "app", "ops", "app", "app", "app"]);
  });

  it("says so on stderr when nothing was ever approved", async () => {
    expect(await runCliWith(["ledger", "-n", "empty"], schemaCluster())).toMatchObject({ status: 0, stdout: "", stderr: "No resources found in empty namespace.\n" });
  });

  it("writes CSV a parser reads back, with formula-leading cells neutralised", async () => {
    const r = await runCliWith(["ledger", "-n", "app", "-o", "csv"], schemaCluster());
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith("\r\n")).toBe(true);
    const rows = csvObjects(r.stdout);
    expect(rows.map((x) => x.name)).toEqual(['\'=HYPERLINK("x")', "other", "storefront-v1", "storefront-dup"]);
    expect(rows[0]!.approver).toBe('\'@mallory, "the" one');
    expect(rows[2]).toMatchObject({
      namespace: "app",
      kind: "PtahSchemaApproval",
      object: "storefront",
      fingerprint: "sha256:e0e49e6a7aa846f8a5d5957aca886d4df47e957b821668d1641e9c141643a12d",
      approver: "alice@example.com",
      groups: "system:authenticated",
      approvedAt: T1,
      reserved: "true",
      consumedAt: CONSUMED_AT,
      appliedAt: T2,
      dispatchedByControllerImage: DISPATCHER.controllerImage,
      dispatchedByControllerRevision: DISPATCHER.controllerRevision,
      dispatchedByRunnerImage: DISPATCHER.runnerImage,
      staleReason: "PlanNoLongerCurrent",
      staleAt: STALE_AT,
      state: "Consumed, stale",
    });
    expect(rows[3]!.dispatchedByControllerImage).toBe("");
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@]/u);
  });

  it("prints the entries as JSON", async () => {
    const r = await runCliWith(["ledger", "storefront", "-n", "app", "-o", "json"], schemaCluster());
    const doc = JSON.parse(r.stdout) as { kind: string; items: { name: string; consumedAt?: string; appliedAt?: string }[] };
    expect(doc.kind).toBe("List");
    expect(doc.items.find((i) => i.name === "storefront-v1")).toMatchObject({ consumedAt: CONSUMED_AT, appliedAt: T2, dispatchedBy: DISPATCHER });
    // The duplicate never ran: nothing dispatched it, whatever status.applied says.
    expect(doc.items.find((i) => i.name === "storefront-dup")).not.toHaveProperty("dispatchedBy");
  });
});

describe("ledger migration NAME", () => {
  it("lists approvals and run acknowledgments; an acknowledgment is 'applied' when it settled the run", async () => {
    const r = await runCliWith(["ledger", "migration", "billing", "-n", "app"], migrationCluster());
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "ledger/migration.txt");
    expect(r.stdout).toMatch(
      /ptahmigrationrunacknowledgment\/billing-ack +migration\/billing +- +sha256:666666666666 +carol +oncall +2026-11-30T11:30:00Z +- +2026-11-30T11:31:00Z +2026-11-30T11:55:00Z/u,
    );
  });
});

// Any string, often starting with a formula character or holding the characters CSV quotes.
const cellArbitrary = fc
  .tuple(fc.constantFrom("", "=", "+", "-", "@", '"', ",", "\r\n"), fc.string({ unit: "binary" }), fc.constantFrom("", '"', ",", "\n"))
  .map(([a, b, c]) => a + b + c);

describe("csvCell", () => {
  it("round-trips any string through an RFC 4180 reader, sanitised and neutralised", () => {
    fc.assert(
      fc.property(fc.array(cellArbitrary, { minLength: 1, maxLength: 4 }), (cells) => {
        const line = cells.map(csvCell).join(",") + "\r\n";
        const [parsed] = parseCsv(line);
        const expected = cells.map((c) => {
          const s = sanitize(c);
          return /^[=+\-@]/u.test(s) ? `'${s}` : s;
        });
        expect(parsed).toEqual(expected);
      }),
    );
  });
});
