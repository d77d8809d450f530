// doctor's "confirm it installed" rows through the real CLI shell: every Ptah CRD Established=True,
// and the manager Deployment that ptah-operator-admission's annotations name Available=True.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";

async function doctor(i: FakeInspector) {
  return runCliWith(["doctor", "-n", "app", "-o", "json"], new FakeReader([]), { inspector: i });
}

type Row = { name: string; status: string; summary: string; details: string[]; fix?: string };

async function row(i: FakeInspector, name: string): Promise<{ status: number; row: Row }> {
  const r = await doctor(i);
  const rows = (JSON.parse(r.stdout) as { checks: Row[] }).checks;
  return { status: r.status, row: rows.find((c) => c.name === name)! };
}

describe("doctor: confirm it installed", () => {
  it("a CRD whose names were not accepted is a problem naming it and its condition", async () => {
    const i = new FakeInspector();
    i.established["ptahschemas.operator.ptah.run"] = { status: "False", reason: "NameConflict", message: 'plural "ptahschemas" is already in use' };
    i.established["ptahmigrations.operator.ptah.run"] = undefined;
    const { status, row: r } = await row(i, "CRDs established");
    expect(status).toBe(1);
    expect(r).toMatchObject({ status: "problem", summary: "2 of 8 Ptah CRDs are not established" });
    expect(r.details).toEqual([
      'ptahschemas.operator.ptah.run: Established=False (NameConflict): plural "ptahschemas" is already in use',
      "ptahmigrations.operator.ptah.run: no Established condition",
    ]);
  });

  it("a manager Deployment that is not Available is a problem, with where to look", async () => {
    const i = new FakeInspector();
    i.deployments = {
      "ptah-system/ptah-operator": { available: { status: "False", reason: "MinimumReplicasUnavailable", message: "Deployment does not have minimum availability." } },
    };
    const r = await runCliWith(["doctor", "-n", "app"], new FakeReader([]), { inspector: i });
    expect(r.status).toBe(1);
    const lines = r.stdout.split("\n").filter((l) => /^ {2}problem {2}manager /u.test(l) || /fix: kubectl -n ptah-system describe/u.test(l));
    await expectGolden(lines.join("\n") + "\n", "doctor/manager-unavailable.txt");
    expect(i.requests).toContain("get deployments.apps ptah-system/ptah-operator");
  });

  it("a Deployment the configuration names but that is not there is a problem", async () => {
    const i = new FakeInspector();
    i.deployments = {};
    expect((await row(i, "manager")).row).toMatchObject({ status: "problem", summary: "deployment ptah-system/ptah-operator does not exist" });
  });

  it("without get on it, or without the annotations, the row is skipped and says why; nothing else is read", async () => {
    const forbidden = new FakeInspector();
    forbidden.deployments = "forbidden";
    expect((await row(forbidden, "manager")).row).toMatchObject({ status: "skipped" });
    expect((await row(forbidden, "manager")).row.summary).toMatch(/^may not get deployment ptah-system\/ptah-operator: deployments\.apps "ptah-operator" is forbidden/u);
    const older = new FakeInspector();
    older.admission = { found: true, name: "ptah-operator-admission", webhookNames: [], annotations: {} };
    const { row: r } = await row(older, "manager");
    expect(r).toMatchObject({ status: "skipped" });
    expect(r.summary).toContain("carries no operator.ptah.run/release-namespace and operator.ptah.run/controller-deployment-name annotations");
    expect(older.requests.filter((q) => q.includes("deployments"))).toEqual([]);
  });
});
