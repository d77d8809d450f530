// The fixtures publish plan fingerprints computed by the Go oracle, not by the plugin
// (./oracle-fingerprint.ts): checked on the contract's upstream vector, on ordinary fixtures
// against the oracle asked in a batch, and on the source of test/support/publish-plan.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { digestSchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import { askOracle } from "../oracle/build.ts";
import { needTool } from "./machine-tools.ts";
import { publishedFingerprint } from "./oracle-fingerprint.ts";
import { publishSchemaPlan } from "./publish-plan.ts";

const SCHEMA = { name: "orders", namespace: "app", uid: "5f0c2a9e-1b7d-4c3e-8a2f-6d9b0e1c2a3f" };

describe("the fixtures' plan fingerprints", () => {
  it("come from the Go oracle: publish-plan.ts does not hash a binding with the plugin's code", () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, "publish-plan.ts"), "utf8");
    expect(text).not.toMatch(/digestSchemaPlanBinding|computeSchemaPlanFingerprint|digestCanonicalJSON/u);
    expect(text).toContain("publishedFingerprint(fingerprintInput)");
  });

  it("equal the oracle's answer for the published spec, and the plugin's, for ordinary and refused bindings", (ctx) => {
    needTool(ctx, "go");
    const plans = [
      publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: 'CREATE TABLE "t" ("id" bigint)', severity: "safe", reason: "tables_added" }] }),
      publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: 'DROP TABLE "t"', severity: "destructive" }], privilegeChanges: [" Grant", "Revoke", "Grant"] }),
      publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: "SELECT 1" }], binding: { contractVersion: 3, ptahVersion: "v0.13.0 <&> \u2028" } }),
      publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: "SELECT 1" }], binding: { executionBindingID: "not-an-epoch", controllerStateVersion: 0 } }),
    ];
    const answers = askOracle<{ digest: string }>(
      "fingerprint",
      plans.map((p) => p.plan.spec),
    );
    expect(plans.map((p) => p.fingerprint)).toEqual(answers.map((a) => a.digest));
    expect(new Set(plans.map((p) => p.fingerprint)).size).toBe(plans.length);
  });

  it("reproduce the contract's upstream vector through the same path", (ctx) => {
    needTool(ctx, "go");
    const vector = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "plan", "vectors", "upstream-churn-plan-2026-12-03.json"), "utf8")) as { spec: unknown };
    const s = vector.spec as Record<string, unknown> & { schemaRef: { uid: string } };
    const binding = {
      contractVersion: 1,
      schemaUID: s.schemaRef.uid,
      planContentDigest: s.contentDigest as string,
      artifactDigest: s.artifactDigest as string,
      coordinationDigest: s.coordinationDigest as string,
      targetIdentityDigest: s.targetIdentityDigest as string,
      actualStateFingerprint: s.actualStateFingerprint as string,
      desiredStateFingerprint: s.desiredStateFingerprint as string,
      policyFingerprint: s.policyFingerprint as string,
      verificationPolicyUID: s.verificationPolicyUID as string,
      verificationPolicyDigest: s.verificationPolicyDigest as string,
      executionBindingID: s.executionBindingID as string,
      controllerStateVersion: 1,
      ptahVersion: s.ptahVersion as string,
      executorImage: s.executorImage as string,
      runnerProtocolVersion: 1,
      destructive: false,
      privilegeChanges: [],
      statementCount: 1,
    };
    expect(publishedFingerprint(binding)).toBe("sha256:dc41ea2efa85b5e00814284e730ec271396bd8a1a6b8ef732d81a76f47214718");
    expect(digestSchemaPlanBinding(binding)).toBe(publishedFingerprint(binding));
  });
});
