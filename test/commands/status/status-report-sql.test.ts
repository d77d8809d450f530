// `status SCHEMA --report --with-sql`: the current plan read and verified as `plan` verifies it, its
// statements in a fenced sql block after the row-values line of a data plan; one line when there
// is no current plan; a plan that does not verify refuses the report; --with-sql alone is a usage error.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aSchema, awaitingSchema } from "../../support/builders.ts";
import { dataPlan, dataPlanCluster, ROW_SECRET } from "../../support/data-plan.ts";
import { expectGolden } from "../../support/golden.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { plan1, SCHEMA } from "../../support/storefront-plans.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const report = (reader: FakeReader, extra: readonly string[] = ["--with-sql"]) => runCliWith(["status", "storefront", "-n", "app", "--report", ...extra], reader, { now: NOW });
const clusterOf = (p: typeof plan1) => new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(p) }) }, ...fakeObjectsOf(p)]);

describe("status SCHEMA --report --with-sql", () => {
  it("appends a data plan's statements after the row-values line, and says SQL is included", async () => {
    const r = await report(dataPlanCluster());
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    await expectGolden(r.stdout, "status/report-with-sql.txt");
    expect(r.stdout).toContain("- **Row values:** **this plan carries row values** (`public.countries`, `settings`)");
    expect(r.stdout).toMatch(/```sql\nINSERT INTO "public"\."countries"[^\n]*\nUPDATE "settings"[^\n]*\n```\n/u);
    expect(r.stdout).toContain(ROW_SECRET);
    expect(r.stdout).not.toContain("No credential, kubeconfig or SQL");
  });

  it("without --with-sql, reads no plan and carries no SQL", async () => {
    const reader = dataPlanCluster();
    const r = await report(reader, []);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(ROW_SECRET);
    expect(r.stdout).not.toContain("```");
    expect(r.stdout).toContain("_No credential, kubeconfig or SQL is included;");
    expect(reader.requests).toEqual(["get PtahSchema app/storefront", "get /version"]);
  });

  it("a schema-only plan: its statements, no row-values line", async () => {
    const r = await report(clusterOf(plan1));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('```sql\nCREATE TABLE "customers" ("id" bigint PRIMARY KEY);\n```\n');
    expect(r.stdout).not.toMatch(/row values/iu);
  });

  it("without a current plan: one line, and the golden", async () => {
    const r = await report(new FakeReader([{ kind: "PtahSchema", raw: aSchema({ phase: "Observing", conditions: [] }) }]));
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "status/report-with-sql-no-plan.txt");
    expect(r.stdout).toContain("### SQL\n\nNo current plan: there are no statements to include.\n");
  });

  it("fences a statement holding a backtick run with a longer fence", async () => {
    const ticks = publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: "COMMENT ON TABLE \"t\" IS 'a ````` b'", severity: "safe", reason: "tables_modified" }] });
    const r = await report(clusterOf(ticks));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("``````sql\nCOMMENT ON TABLE \"t\" IS 'a ````` b';\n``````\n");
  });

  it("refuses when the plan does not verify: one error line, nothing printed", async () => {
    const gone = dataPlanCluster();
    gone.remove(dataPlan.chunkKind, "app", (dataPlan.chunks[0]!.metadata as { name: string }).name);
    const r = await report(gone);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: [^\n]*chunk 0[^\n]*\n$/u);
  });

  it("refuses --with-sql without --report with exit 2 and one line", async () => {
    const r = await runCliWith(["status", "storefront", "-n", "app", "--with-sql"], new FakeReader([]));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: --with-sql [^\n]+\n$/u);
  });
});
