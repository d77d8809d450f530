// doctor's "operator release" row through the real CLI shell: the chart's release name and sequence
// from ptah-operator-admission, each CRD's schema version and digest, and the manager image of
// the newest dispatch record among the schemas and migrations read.
import { describe, expect, it } from "vitest";
import { T1, T2, aMigration, cond, inSyncSchema } from "../../support/builders.ts";
import { runCliWith } from "../../support/cli.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector, NEWEST_GENERATION } from "../../support/fake-inspector.ts";

type Row = { name: string; status: string; summary: string; details: string[] };

const by = (revision: string, c: string) => ({
  controllerImage: `registry.example/ptah-operator@sha256:${c.repeat(64)}`,
  controllerRevision: revision,
  runnerImage: `registry.example/ptah-runner@sha256:${c.repeat(64)}`,
});

async function release(i: FakeInspector, reader = new FakeReader([])): Promise<Row> {
  const r = await runCliWith(["doctor", "-n", "app", "-o", "json"], reader, { inspector: i });
  return (JSON.parse(r.stdout) as { checks: Row[] }).checks.find((c) => c.name === "operator release")!;
}

describe("doctor: which operator release is running", () => {
  it("names the release, the CRDs' schema version and digest, and the manager of the newest dispatch", async () => {
    const schema = inSyncSchema();
    const status = schema.status as { applied: Record<string, unknown> };
    status.applied = { ...status.applied, completedAt: T2, dispatchedBy: by("v0.2.10", "a") };
    const migration = aMigration({
      phase: "InSync",
      conditions: [cond("Ready", "True", "HistoryMatched", "nothing is pending")],
      status: { lastRun: { outcome: "Applied", jobName: "billing-apply", startedAt: T1, finishedAt: T1, dispatchedBy: by("v0.2.9", "b") } },
    });
    const row = await release(
      new FakeInspector(),
      new FakeReader([
        { kind: "PtahSchema", raw: schema },
        { kind: "PtahMigration", raw: migration },
      ]),
    );
    expect(row).toMatchObject({ status: "ok", summary: "release ptah, sequence 7" });
    expect(row.details).toEqual([
      "CRDs: crd-schema-version 1, crd-schema-digest sha256:00 on all 8",
      `manager: v0.2.10 registry.example/ptah-operator@sha256:${"a".repeat(64)}, runner registry.example/ptah-runner@sha256:${"a".repeat(64)} (the newest dispatch read: ptahschema app/storefront at ${T2})`,
    ]);
  });

  it("CRDs of different schema versions are named apart", async () => {
    const i = new FakeInspector();
    i.crds = { "ptahschemas.operator.ptah.run": { ...NEWEST_GENERATION, "operator.ptah.run/crd-schema-version": "2", "operator.ptah.run/crd-schema-digest": "sha256:01" } };
    const row = await release(i);
    expect(row.details[0]).toBe("CRDs: crd-schema-version 2, crd-schema-digest sha256:01 on ptahschemas.operator.ptah.run");
    expect(row.details[1]).toMatch(/^CRDs: crd-schema-version 1, crd-schema-digest sha256:00 on (\w+\.operator\.ptah\.run, ){6}\w+\.operator\.ptah\.run$/u);
  });

  it("an older chart names no release: said so, with what else is known", async () => {
    const i = new FakeInspector();
    i.admission = { found: true, name: "ptah-operator-admission", webhookNames: [], annotations: {} };
    const row = await release(i);
    expect(row).toMatchObject({ status: "ok", summary: "release not named on ptah-operator-admission (an older chart, or not read)" });
  });
});
