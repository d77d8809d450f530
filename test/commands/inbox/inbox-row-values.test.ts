// inbox's ROW VALUES column: with --locks, from the verified plan itself (its managed_rows); without
// it, at no extra request, from the schema's drift report (a data_rows_* category). The column
// appears only when some row says the plan carries row values or could not tell.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema, T1 } from "../../support/builders.ts";
import { dataPlanCluster } from "../../support/data-plan.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { currentPlanStatus, fakeObjectsOf } from "../../support/publish-plan.ts";
import { plan1 } from "../../support/storefront-plans.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const inbox = (args: readonly string[], reader: FakeReader) => runCliWith(["inbox", "-n", "app", ...args], reader, { now: NOW });
const items = (stdout: string) => (JSON.parse(stdout) as { items: { rowValues?: string }[] }).items;

/** A schema-only plan awaiting approval, whose drift report lists these categories. */
function driftCluster(categories: readonly string[]): FakeReader {
  const drift = {
    engine: "postgresql",
    lastObservedAt: T1,
    driftFindingCount: categories.length,
    driftFindings: categories.map((category) => ({ category, count: 1, severity: "safe" })),
  };
  return new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan1), drift }) }, ...fakeObjectsOf(plan1)]);
}

describe("inbox ROW VALUES", () => {
  it("with --locks: the verified plan's tables, in the table and in -o json", async () => {
    const r = await inbox(["--locks"], dataPlanCluster());
    expect(r.status, r.stderr).toBe(0);
    const [head, row] = r.stdout.split("\n");
    expect(head).toMatch(/LOCKS\s+ROW VALUES\s+YOU CAN/u);
    expect(row).toContain("yes: public.countries, settings");
    expect(items((await inbox(["--locks", "-o", "json"], dataPlanCluster())).stdout)[0]!.rowValues).toBe("yes: public.countries, settings");
  });

  it("with --locks, the plan wins over the drift report: a schema-only plan is no, and no column", async () => {
    const reader = driftCluster(["data_rows_inserted"]);
    const r = await inbox(["--locks"], reader);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("ROW VALUES");
    expect(items((await inbox(["--locks", "-o", "json"], reader)).stdout)[0]!.rowValues).toBe("no");
  });

  it.each([
    [["data_rows_inserted"], "yes (drift: rows to insert)"],
    [["data_rows_deleted", "tables_added", "data_rows_updated"], "yes (drift: rows to update, delete)"],
  ])("without --locks: drift %j says %s, and no plan is read", async (categories, cell) => {
    const reader = driftCluster(categories);
    const r = await inbox([], reader);
    expect(r.status, r.stderr).toBe(0);
    const [head, row] = r.stdout.split("\n");
    expect(head).toMatch(/PRIVILEGES\s+ROW VALUES\s+YOU CAN/u);
    expect(row).toContain(cell);
    expect(items((await inbox(["-o", "json"], reader)).stdout)[0]!.rowValues).toBe(cell);
    expect(reader.requests.filter((q) => q.startsWith("get "))).toEqual([]);
  });

  it("without --locks and no row drift: no column and no field, even for a data plan (nothing read says so)", async () => {
    const reader = driftCluster(["tables_added", "columns_added"]);
    expect((await inbox([], reader)).stdout).not.toContain("ROW VALUES");
    expect(items((await inbox(["-o", "json"], reader)).stdout)[0]).not.toHaveProperty("rowValues");
    expect((await inbox([], dataPlanCluster())).stdout).not.toContain("ROW VALUES");
  });
});
