// An anchor outside the plugin: a plan fingerprint recorded by a live upstream run (restated,
// with its source, in ./vectors/upstream-churn-plan-2026-12-03.json).
// The plugin's path (the model reading the served spec, the binding, the canonical bytes) and the
// Go oracle (test/oracle/fingerprint: encoding/json, stdlib only) must both recompute the record.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseObject } from "../../src/model/parse.ts";
import { canonicalJSONBytes } from "../../src/plan/canonical.ts";
import { bindingOfPlanSpec, computeSchemaPlanFingerprint, schemaPlanBindingStruct, validateSchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import { askOracle } from "../oracle/build.ts";
import { needTool } from "../support/machine-tools.ts";

const RECORDED = "sha256:dc41ea2efa85b5e00814284e730ec271396bd8a1a6b8ef732d81a76f47214718";
const vector = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "vectors", "upstream-churn-plan-2026-12-03.json"), "utf8")) as {
  recordedFingerprint: string;
  spec: Record<string, unknown>;
};

function pluginBinding(spec: Record<string, unknown>) {
  const plan = parseObject("PtahSchemaPlan", { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaPlan", metadata: { name: "p", namespace: "n", uid: "u" }, spec });
  return bindingOfPlanSpec(plan.object.spec);
}

interface OracleAnswer {
  decoded: boolean;
  canonical?: string;
  digest?: string;
  problems?: string[];
  error?: string;
}

describe("upstream's captured plan (MySQL, Kubernetes 1.37.0)", () => {
  it("records the fingerprint the contract states", () => {
    expect(vector.recordedFingerprint).toBe(RECORDED);
    expect(vector.spec.fingerprint).toBe(RECORDED);
  });

  it("the plugin recomputes the recorded fingerprint, the binding valid", () => {
    const binding = pluginBinding(vector.spec);
    expect(validateSchemaPlanBinding(binding)).toEqual([]);
    expect(binding.privilegeChanges).toEqual([]);
    expect(computeSchemaPlanFingerprint(binding)).toBe(RECORDED);
    const canonical = Buffer.from(canonicalJSONBytes(schemaPlanBindingStruct(binding))).toString("utf8");
    expect(canonical).toMatch(/^\{"contract_version":1,"schema_uid":"d23a2269-.*,"destructive":false,"privilege_changes":\[\],"statement_count":1\}$/u);
  });

  it("the Go oracle recomputes it too, from the same served spec, to the same bytes", (ctx) => {
    needTool(ctx, "go");
    const [go] = askOracle<OracleAnswer>("fingerprint", [vector.spec]);
    expect(go).toMatchObject({ decoded: true, digest: RECORDED });
    expect(go!.problems ?? []).toEqual([]);
    const ours = Buffer.from(canonicalJSONBytes(schemaPlanBindingStruct(pluginBinding(vector.spec))));
    expect(Buffer.from(go!.canonical!, "base64").equals(ours)).toBe(true);
  });

  it("one changed input changes the fingerprint on both sides (the vector binds what it claims to)", (ctx) => {
    needTool(ctx, "go");
    const changed = { ...vector.spec, statementCount: 2 };
    const [go] = askOracle<OracleAnswer>("fingerprint", [changed]);
    const ours = computeSchemaPlanFingerprint(pluginBinding(changed));
    expect(ours).not.toBe(RECORDED);
    expect(go!.digest).toBe(ours);
  });
});
