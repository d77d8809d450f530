import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { REVIEW_CONCURRENCY } from "../../../src/commands/inbox/inbox-command.ts";
import type { KindName } from "../../../src/model/parse.ts";
import type { AccessAnswer, AccessCheck } from "../../../src/kube/types.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { T0, T2, aMigration, awaitingSchema, blockedSchema, cond, planStatus } from "../../support/builders.ts";

const OPERATION = "sha256:6666666666666666666666666666666666666666666666666666666666666666";

function objects(): FakeObject[] {
  const privileged = awaitingSchema({ name: "ledger", uid: "schema-uid-3", plan: planStatus(undefined, undefined, { privilegeChanges: ["Grant", "Role"], statementCount: 7 }) });
  (privileged.status as { conditions: Record<string, unknown>[] }).conditions = [
    cond("ApprovalRequired", "True", "PrivilegeChanges", "The plan changes privileges: Grant, Role", T0),
  ];
  return [
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: privileged },
    { kind: "PtahSchema", raw: blockedSchema() },
    {
      kind: "PtahMigration",
      raw: aMigration({
        name: "billing",
        namespace: "ops",
        phase: "AwaitingApproval",
        conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval naming this plan", T2)],
      }),
    },
    {
      kind: "PtahMigration",
      raw: aMigration({
        name: "backfill",
        phase: "Blocked",
        conditions: [
          cond(
            "Blocked",
            "True",
            "ApplyOutcomeUnknown",
            "A Partial run nobody accounted for is recorded against this database; establish what it did before another Apply",
            "2026-11-30T11:40:00Z",
          ),
        ],
        status: { unresolvedRun: { outcome: "Partial", operationID: OPERATION, jobName: "backfill-apply-1", recordedAt: "2026-11-30T11:39:00Z" } },
      }),
    },
  ];
}

/** Who may create what: an approver in every namespace, or a viewer nowhere. */
function cluster(allow: (kind: KindName, namespace: string) => boolean): FakeReader {
  const reader = new FakeReader(objects());
  reader.access = (kind, namespace, verb) => verb === "create" && allow(kind, namespace);
  return reader;
}

describe("inbox", () => {
  it("lists what waits, oldest first, with what an approver can do and the exact command", async () => {
    const reader = cluster(() => true);
    const r = await runCliWith(["inbox", "-A"], reader);
    // The unresolved run is also stuck: the footer counts it on stderr, stdout stays the table.
    expect(r).toMatchObject({ status: 0, stderr: "1 object has stopped converging: kubectl ptah status -A --stuck\n" });
    await expectGolden(r.stdout, "inbox/approver.txt");
    const objectsInOrder = r.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(/\s+/u)[1]);
    expect(objectsInOrder).toEqual(["ptahschema/ledger", "ptahschema/catalog", "ptahschema/storefront", "ptahmigration/backfill", "ptahmigration/billing"]);
    expect(r.stdout).toMatch(/ptahschema\/storefront +30m +3 +no +- +approve +kubectl ptah approve storefront -n app \| kubectl create -f -/u);
    expect(r.stdout).toMatch(/ptahschema\/ledger +60m +7 +no +Grant,Role +approve /u);
    expect(r.stdout).toMatch(/ptahschema\/catalog +30m +1 +yes +- +nothing +kubectl ptah explain catalog -n app/u);
    expect(r.stdout).toMatch(/ptahmigration\/backfill +20m +- +- +- +acknowledge +kubectl ptah acknowledge backfill -n app \| kubectl create -f -/u);
    expect(r.stdout).toMatch(/ptahmigration\/billing +5m +3 migrations +- +- +approve +kubectl ptah approve migration billing -n ops \| kubectl create -f -/u);
    // Allowed cluster-wide: one review per kind answers for every namespace.
    expect(reader.requests.filter((q) => q.startsWith("create ")).sort()).toEqual([
      "create SelfSubjectAccessReview create PtahMigrationApproval ",
      "create SelfSubjectAccessReview create PtahMigrationRunAcknowledgment ",
      "create SelfSubjectAccessReview create PtahSchemaApproval ",
    ]);
    expect(reader.requests.filter((q) => q.startsWith("list ")).sort()).toEqual(["list PtahMigration *", "list PtahSchema *"]);
  });

  it("says read only to someone who may not create approvals, and points at the plan", async () => {
    const r = await runCliWith(
      ["inbox", "-n", "app"],
      cluster(() => false),
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ptahschema\/storefront .* read only +kubectl ptah plan storefront -n app\n/u);
    expect(r.stdout).toMatch(/ptahmigration\/backfill .* read only +kubectl ptah explain migration backfill -n app\n/u);
    expect(r.stdout).not.toContain("billing");
  });

  it("asks per namespace and kind when not allowed cluster-wide: allowed in one, not in the other", async () => {
    const reader = cluster((_kind, ns) => ns === "ops");
    const r = await runCliWith(["inbox", "-A", "-o", "json"], reader);
    // One review per (namespace, kind) that something waits on: two schemas in app share one.
    expect(reader.requests.filter((q) => q.startsWith("create ") && !q.endsWith(" ")).sort()).toEqual([
      "create SelfSubjectAccessReview create PtahMigrationApproval ops",
      "create SelfSubjectAccessReview create PtahMigrationRunAcknowledgment app",
      "create SelfSubjectAccessReview create PtahSchemaApproval app",
    ]);
    const doc = JSON.parse(r.stdout) as { items: { name: string; youCan: string; since: string }[] };
    expect(Object.fromEntries(doc.items.map((i) => [i.name, i.youCan]))).toEqual({
      storefront: "read only",
      ledger: "read only",
      catalog: "nothing",
      backfill: "read only",
      billing: "approve",
    });
  });

  it("prints the empty line on stderr and exits 0", async () => {
    expect(
      await runCliWith(
        ["inbox", "-n", "quiet"],
        cluster(() => true),
      ),
    ).toMatchObject({ status: 0, stdout: "", stderr: "Nothing is waiting for approval in quiet namespace.\n" });
  });

  it("fails with one error line when the caller may not list schemas", async () => {
    const reader = cluster(() => true);
    const message = 'ptahschemas.operator.ptah.run is forbidden: User "lab-nobody" cannot list resource "ptahschemas" in API group "operator.ptah.run" in the namespace "app"';
    reader.faults.set("list PtahSchema", new ReadError(message, 403));
    const r = await runCliWith(["inbox", "-n", "app"], reader);
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: `error: ${message}\n` });
  });

  it("-A without a cluster-wide list: what waits in the context's namespace, one warning line saying what it could not list; exit 0", async () => {
    const reader = cluster(() => true);
    const message = 'ptahschemas.operator.ptah.run is forbidden: User "lab-app-viewer" cannot list resource "ptahschemas" in API group "operator.ptah.run" at the cluster scope';
    reader.faults.set("list PtahSchema *", new ReadError(message, 403));
    const r = await runCliWith(["inbox", "-A"], reader, { namespace: "app" });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      `Warning: could not list across all namespaces, showing namespace app only: ${message}\n1 object has stopped converging: kubectl ptah status -n app --stuck\n`,
    );
    expect(r.stdout).toContain("ptahschema/storefront");
    expect(r.stdout).toContain("ptahmigration/backfill");
    expect(r.stdout).not.toContain("billing"); // in ops
    expect(reader.requests.filter((q) => q.startsWith("list ")).sort()).toEqual(["list PtahMigration *", "list PtahMigration app", "list PtahSchema *", "list PtahSchema app"]);
  });

  it("-A --namespaces a,b falls back to those namespaces; one of them forbidden is one more warning line", async () => {
    const reader = cluster(() => true);
    reader.faults.set("list PtahSchema *", new ReadError("cluster-wide list forbidden", 403));
    reader.faults.set("list PtahSchema secret", new ReadError("secret forbidden", 403));
    const r = await runCliWith(["inbox", "-A", "--namespaces", "ops,secret"], reader, { namespace: "app" });
    expect(r).toMatchObject({
      status: 0,
      stderr:
        "Warning: could not list across all namespaces, showing namespaces ops, secret only: cluster-wide list forbidden\nWarning: namespace secret not shown: secret forbidden\n",
    });
    expect(r.stdout).toContain("ptahmigration/billing");
    expect(r.stdout).not.toContain("storefront");
  });

  it("--namespaces alone reads those namespaces; with -n it is a usage error", async () => {
    const r = await runCliWith(
      ["inbox", "--namespaces", "app,ops", "-o", "json"],
      cluster(() => true),
    );
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { items: { name: string }[] }).items.map((i) => i.name).sort()).toEqual(["backfill", "billing", "catalog", "ledger", "storefront"]);
    expect(
      await runCliWith(
        ["inbox", "-n", "app", "--namespaces", "ops"],
        cluster(() => true),
      ),
    ).toMatchObject({ status: 2, stdout: "" });
    expect(
      await runCliWith(
        ["inbox", "--namespaces", "app,Bad_Name"],
        cluster(() => true),
      ),
    ).toMatchObject({ status: 2, stdout: "" });
  });

  it("refuses names and unknown formats", async () => {
    expect(
      await runCliWith(
        ["inbox", "storefront"],
        cluster(() => true),
      ),
    ).toMatchObject({ status: 2, stdout: "" });
    expect(
      await runCliWith(
        ["inbox", "-o", "csv"],
        cluster(() => true),
      ),
    ).toMatchObject({ status: 2, stdout: "" });
  });
});

describe("inbox over many namespaces", () => {
  it("sends one review per namespace and kind, never more than REVIEW_CONCURRENCY at once", async () => {
    const many: FakeObject[] = [];
    for (let i = 0; i < 1000; i++) {
      many.push({ kind: "PtahSchema", raw: awaitingSchema({ name: "a", namespace: `ns-${i}`, uid: `a-${i}` }) });
      many.push({ kind: "PtahSchema", raw: awaitingSchema({ name: "b", namespace: `ns-${i}`, uid: `b-${i}` }) });
    }
    let inFlight = 0;
    let peak = 0;
    class SlowReviews extends FakeReader {
      override async reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 0));
        inFlight--;
        return super.reviewAccess(checks);
      }
    }
    // Allowed in each namespace (a RoleBinding each), not cluster-wide: one review per namespace.
    const reader = new SlowReviews(many);
    reader.access = (_kind, namespace) => namespace !== "";
    const r = await runCliWith(["inbox", "-A", "-o", "json"], reader);
    expect(r.status).toBe(0);
    const items = (JSON.parse(r.stdout) as { items: { youCan: string }[] }).items;
    expect(items).toHaveLength(2000);
    expect(items.every((i) => i.youCan === "approve")).toBe(true);
    expect(reader.requests.filter((q) => q.startsWith("create SelfSubjectAccessReview"))).toHaveLength(1 + 1000);
    expect(peak).toBe(REVIEW_CONCURRENCY);
    // Allowed cluster-wide (a ClusterRoleBinding): the one cluster-wide review answers for all.
    const everywhere = new FakeReader(many);
    await runCliWith(["inbox", "-A"], everywhere);
    expect(everywhere.requests.filter((q) => q.startsWith("create SelfSubjectAccessReview"))).toEqual(["create SelfSubjectAccessReview create PtahSchemaApproval "]);
  });
});
