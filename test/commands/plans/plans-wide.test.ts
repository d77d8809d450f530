// `plans -o wide`: a ROW VALUES column, each listed schema plan read and verified as `plan`
// verifies it; a plan that does not verify is `<not verified>` with one warning line, the rest
// shown; without -o wide no plan or chunk is read.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { dataPlan, dataPlanCluster } from "../../support/data-plan.ts";
import { expectGolden } from "../../support/golden.ts";
import { fakeObjectsOf } from "../../support/publish-plan.ts";
import { plan1, plan2 } from "../../support/storefront-plans.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

/** The data plan (current), a schema-only plan, and one whose first chunk is gone. */
function cluster() {
  const reader = dataPlanCluster([...fakeObjectsOf(plan1), ...fakeObjectsOf(plan2)]);
  const chunk = plan2.chunks[0]!.metadata as { name: string };
  reader.remove(plan2.chunkKind, "app", chunk.name);
  return reader;
}

describe("plans -o wide", () => {
  it("adds ROW VALUES: the tables of a data plan, no for a schema-only plan, <not verified> with one warning", async () => {
    const r = await runCliWith(["plans", "-n", "app", "-o", "wide"], cluster(), { now: NOW });
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "plans/wide.txt");
    const row = (name: string) => r.stdout.split("\n").find((l) => l.startsWith(name)) ?? "";
    expect(row(dataPlan.name)).toMatch(/\byes: public\.countries, settings$/u);
    expect(row(plan1.name)).toMatch(/\bno$/u);
    expect(row(plan2.name)).toMatch(/<not verified>$/u);
    expect(r.stderr).toMatch(new RegExp(`^Warning: ptahschemaplan app/${plan2.name}: row values not shown: [^\\n]*chunk 0[^\\n]*\\n$`, "u"));
  });

  it("reads no plan or chunk without -o wide, and has no ROW VALUES column", async () => {
    const reader = cluster();
    const r = await runCliWith(["plans", "-n", "app"], reader, { now: NOW });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("ROW VALUES");
    expect(reader.requests.filter((q) => q.startsWith("get "))).toEqual([]);
  });

  it("reads each schema plan with -o wide, and only gets", async () => {
    const reader = cluster();
    await runCliWith(["plans", "-n", "app", "-o", "wide"], reader, { now: NOW });
    const gets = reader.requests.filter((q) => q.startsWith("get "));
    for (const p of [dataPlan, plan1, plan2]) expect(gets.some((q) => q.includes(p.name))).toBe(true);
  });
});
