// `version` names the operator's release where it may read it: the chart's name and sequence on
// ptah-operator-admission and the CRDs' schema version and digest; without those reads, nothing.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";

describe("version: the operator's release", () => {
  it("prints the release and the CRDs' schema after the served kinds", async () => {
    const r = await runCliWith(["version"], new FakeReader([]), { inspector: new FakeInspector() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split("\n").slice(-2)).toEqual(["Operator Release: ptah, sequence 7", "CRD Schema: crd-schema-version 1, crd-schema-digest sha256:00 on all 8"]);
    const json = await runCliWith(["version", "-o", "json"], new FakeReader([]), { inspector: new FakeInspector() });
    expect(JSON.parse(json.stdout).operatorRelease).toMatchObject({ name: "ptah", sequence: "7", crdSchema: [{ version: "1", digest: "sha256:00" }] });
  });

  it("says nothing of it where the account may read neither", async () => {
    const i = new FakeInspector();
    i.admission = "forbidden";
    i.crds = "forbidden";
    const r = await runCliWith(["version"], new FakeReader([]), { inspector: i });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toMatch(/Operator Release|CRD Schema/u);
  });
});
