import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { CONSUMED_AND_STALE, T0, T1, T2, anApproval, awaitingSchema, inSyncSchema } from "../../support/builders.ts";
import { expectGolden } from "../../support/golden.ts";

function event(name: string, kind: string, objName: string, uid: string, type: string, reason: string, message: string, at: string, count = 1): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name, namespace: "app", creationTimestamp: at },
    involvedObject: { kind, name: objName, namespace: "app", uid, apiVersion: "operator.ptah.run/v1alpha1" },
    type,
    reason,
    message,
    count,
    firstTimestamp: at,
    lastTimestamp: at,
  };
}

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "other", schema: "catalog", schemaUid: "schema-uid-2" }) },
    {
      kind: "Event",
      raw: event("e1", "PtahSchema", "storefront", "schema-uid-1", "Normal", "ApprovalAccepted", "An authenticated approval was accepted for the current immutable plan", T0),
    },
    {
      kind: "Event",
      raw: event(
        "e2",
        "PtahSchemaApproval",
        "storefront-v1",
        "approval-uid-storefront-v1",
        "Warning",
        "ApprovalStale",
        "The approved plan no longer matches the current database state",
        T2,
      ),
    },
    { kind: "Event", raw: event("e3", "PtahSchema", "catalog", "schema-uid-2", "Normal", "OperationStarted", "not ours", T1) },
  ]);
}

describe("history", () => {
  it("merges conditions and events oldest first, consumed before stale", async () => {
    const r = await runCliWith(["history", "storefront", "-n", "app"], cluster());
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "history/storefront.txt");
    const consumed = r.stdout.indexOf("Consumed=True DispatchCommitted");
    const stale = r.stdout.indexOf("Stale=True PlanNoLongerCurrent");
    expect(consumed).toBeGreaterThan(0);
    expect(stale).toBeGreaterThan(consumed);
    expect(r.stdout).toContain("Warning ApprovalStale");
    expect(r.stdout).not.toContain("not ours");
  });

  it("prints absolute times and JSON", async () => {
    const abs = await runCliWith(["history", "storefront", "-n", "app", "--absolute-time"], cluster());
    expect(abs.stdout).toContain("2026-11-30T11:55:00Z");
    const json = await runCliWith(["history", "storefront", "-n", "app", "-o", "json"], cluster());
    const entries = JSON.parse(json.stdout) as { source: string }[];
    expect(entries.filter((e) => e.source === "event")).toHaveLength(2);
  });

  it("exits 3 for an unknown schema", async () => {
    const r = await runCliWith(["history", "nope", "-n", "app"], cluster());
    expect(r).toMatchObject({ status: 3, stdout: "" });
  });
});

describe("history ordering", () => {
  it("puts an approval's Consumed before its Stale when both carry the same second", async () => {
    const sameSecond = CONSUMED_AND_STALE.map((c) => ({ ...c, lastTransitionTime: T2 }));
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: awaitingSchema() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: sameSecond }) },
    ]);
    const r = await runCliWith(["history", "storefront", "-n", "app"], reader);
    const consumed = r.stdout.indexOf("Consumed=True DispatchCommitted");
    const stale = r.stdout.indexOf("Stale=True PlanNoLongerCurrent");
    expect(consumed).toBeGreaterThan(0);
    expect(stale).toBeGreaterThan(consumed);
  });
});

describe("history says what Kubernetes keeps", () => {
  it("names the oldest Event held in the namespace and that earlier transitions are not kept", async () => {
    const r = await runCliWith(["history", "storefront", "-n", "app"], cluster());
    const [first, second] = r.stdout.split("\n");
    expect(first).toBe("The API server holds Events in namespace app back to 2026-11-30T11:00:00Z (60m ago); older ones have expired.");
    expect(second).toContain("earlier transitions are not kept");
  });

  it("tells the approval's story from durable fields once every Event has expired", async () => {
    const reader = new FakeReader([
      { kind: "PtahSchema", raw: inSyncSchema() },
      { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    ]);
    const r = await runCliWith(["history", "storefront", "-n", "app", "--absolute-time"], reader);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("The API server holds no Events in namespace app: they expire (after 1h by default).");
    const steps = r.stdout
      .split("\n")
      .filter((l) => / ledger /u.test(l))
      .map((l) => l.replace(/ +/gu, " ").split(" ").slice(0, 4).join(" "));
    expect(steps).toEqual([
      "2026-11-30T11:30:00Z ptahschemaapproval/storefront-v1 ledger approved",
      "2026-11-30T11:30:00Z ptahschemaapproval/storefront-v1 ledger consumed",
      "2026-11-30T11:55:00Z ptahschemaapproval/storefront-v1 ledger applied",
      "2026-11-30T11:55:00Z ptahschemaapproval/storefront-v1 ledger stale",
    ]);
    expect(r.stdout).toMatch(/ledger +approved +approved by alice@example\.com \(system:authenticated\): plan ptah-plan-/u);
  });

  it("leaves the note out of JSON", async () => {
    const r = await runCliWith(["history", "storefront", "-n", "app", "-o", "json"], cluster());
    const entries = JSON.parse(r.stdout) as { source: string; what?: string }[];
    expect(entries.filter((e) => e.source === "ledger").map((e) => e.what)).toEqual(["approved", "consumed", "stale"]);
  });
});

describe("history --watch", () => {
  /** Runs `history storefront --watch` until every kind's watch has listed; `stop` ends it. */
  async function watching(reader: FakeReader) {
    const controller = new AbortController();
    const run = runCliWith(["history", "storefront", "-n", "app", "--watch"], reader, { signal: controller.signal });
    await until(() => reader.watching === 4);
    reader.requests.length = 0;
    return {
      run,
      stop: async () => {
        controller.abort();
        return run;
      },
    };
  }

  async function until(done: () => boolean): Promise<void> {
    for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
    expect(done()).toBe(true);
  }

  it("re-reads only the kind an event touched, and prints only the new entries", async () => {
    const reader = cluster();
    const w = await watching(reader);
    reader.event("Event", "ADDED", event("e4", "PtahSchema", "storefront", "schema-uid-1", "Normal", "PlanPublished", "A new plan was published", T2));
    await until(() => reader.requests.length > 0);
    const r = await w.stop();
    expect(reader.requests).toEqual(["list Event app"]);
    expect(r.status).toBe(0);
    expect(r.emitted).toContain("A new plan was published");
    expect(r.emitted.split("A new plan was published").length).toBe(2);
  });

  it("reports a failed reload on stderr in kubectl's words and goes on watching", async () => {
    const reader = cluster();
    const w = await watching(reader);
    reader.faults.set(
      "list PtahSchemaApproval",
      new ReadError('ptahschemaapprovals.operator.ptah.run is forbidden: User "viewer" cannot list resource "ptahschemaapprovals"', 403),
    );
    reader.faults.set("get PtahSchema", new ReadError("unable to connect to the server: connection refused"));
    reader.event("PtahSchema", "MODIFIED", awaitingSchema());
    reader.event("PtahSchemaApproval", "MODIFIED", anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }));
    await until(() => reader.requests.length >= 2);
    reader.faults.clear();
    reader.event("Event", "ADDED", event("e5", "PtahSchema", "storefront", "schema-uid-1", "Normal", "PlanPublished", "after the failure", T2));
    await until(() => reader.requests.length >= 3);
    const r = await w.stop();
    expect(r.logged).toEqual(["error: could not reload the object of app/storefront: unable to connect to the server: connection refused; still watching"]);
    expect(r.emitted).toContain("after the failure");
    expect(r.status).toBe(0);
  });
});
