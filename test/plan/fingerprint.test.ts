import { describe, expect, it } from "vitest";
import {
  computeSchemaPlanFingerprint,
  digestSchemaPlanBinding,
  normalizePrivilegeChanges,
  validateSchemaPlanBinding,
  bindingOfPlanSpec,
  type SchemaPlanBinding,
} from "../../src/plan/fingerprint.ts";
import { parseObject } from "../../src/model/parse.ts";
import { publishCurrent } from "./fixtures.ts";
import { statementText } from "../../src/plan/sql-text.ts";
import { trimSpace } from "../../src/plan/trim-space.ts";

/** The operator's fingerprint vectors, from upstream's fingerprint_test.go. */
const VECTOR: SchemaPlanBinding = {
  contractVersion: 1,
  schemaUID: "schema-uid",
  planContentDigest: "sha256:plan",
  artifactDigest: "sha256:artifact",
  coordinationDigest: "sha256:coordination",
  targetIdentityDigest: "sha256:target",
  actualStateFingerprint: "sha256:actual",
  desiredStateFingerprint: "sha256:desired",
  policyFingerprint: "sha256:policy",
  verificationPolicyUID: "verification-policy-uid",
  verificationPolicyDigest: "sha256:verification",
  executionBindingID: "v1-33333333333333333333333333333333",
  controllerStateVersion: 1,
  ptahVersion: "v0.3.0",
  executorImage: "example.invalid/ptah@sha256:executor",
  runnerProtocolVersion: 1,
  destructive: false,
  privilegeChanges: ["Grant"],
  statementCount: 3,
};

describe("computeSchemaPlanFingerprint", () => {
  it("reproduces the contract's test vector", () => {
    expect(computeSchemaPlanFingerprint(VECTOR)).toBe("sha256:1a17fdf1e6ce784125fbddb5913fa46164af6bbb35a484cddb1a703e28760cb1");
  });

  it("hashes privilege kinds trimmed, de-duplicated and sorted", () => {
    const messy = { ...VECTOR, privilegeChanges: [" Grant", "Grant", ""] };
    expect(computeSchemaPlanFingerprint(messy)).toBe(computeSchemaPlanFingerprint(VECTOR));
    expect(normalizePrivilegeChanges(["Role", " Grant ", "", "Role"])).toEqual(["Grant", "Role"]);
    expect(normalizePrivilegeChanges(undefined)).toEqual([]);
  });

  it.each<{ name: string; change: Partial<SchemaPlanBinding> }>([
    { name: "the schema UID", change: { schemaUID: "other" } },
    { name: "the content digest", change: { planContentDigest: "sha256:other" } },
    { name: "the destructive flag", change: { destructive: true } },
    { name: "the statement count", change: { statementCount: 4 } },
    { name: "the privilege kinds", change: { privilegeChanges: [] } },
    { name: "the runner protocol", change: { runnerProtocolVersion: 2 } },
  ])("changes with $name", ({ change }) => {
    expect(computeSchemaPlanFingerprint({ ...VECTOR, ...change })).not.toBe(computeSchemaPlanFingerprint(VECTOR));
  });

  it.each<{ name: string; change: Partial<SchemaPlanBinding>; problem: string }>([
    { name: "an unknown contract version", change: { contractVersion: 2 }, problem: "contract version 2 is not supported" },
    { name: "a blank string field", change: { artifactDigest: "  " }, problem: "artifact_digest is empty" },
    { name: "a malformed execution binding", change: { executionBindingID: "v2-33" }, problem: "execution_binding_id is not v1-" },
    { name: "controller state version 0", change: { controllerStateVersion: 0 }, problem: "controller_state_version is below 1" },
    { name: "runner protocol 0", change: { runnerProtocolVersion: 0 }, problem: "runner_protocol_version is below 1" },
    { name: "no statements", change: { statementCount: 0 }, problem: "statement_count is below 1" },
  ])("refuses $name before hashing", ({ change, problem }) => {
    expect(validateSchemaPlanBinding({ ...VECTOR, ...change }).join("; ")).toContain(problem);
    expect(() => computeSchemaPlanFingerprint({ ...VECTOR, ...change })).toThrow(problem);
  });

  it("recomputes what the publishing helper stored in spec.fingerprint", () => {
    const published = publishCurrent();
    const plan = parseObject("PtahSchemaPlan", published.plan).object;
    expect(computeSchemaPlanFingerprint(bindingOfPlanSpec(plan.spec))).toBe(published.fingerprint);
    expect(published.name).toBe(`ptah-plan-${published.fingerprint.slice(7, 31)}`);
  });
});

describe("one TrimSpace, Go's", () => {
  // unicode.IsSpace: U+0085 and U+00A0 are space, U+FEFF and U+200B are not.
  it.each([
    ["\ufeff", "\ufeff"],
    ["\u0085x\u0085", "x"],
    ["\u00a0\u3000x\u2028\u2029", "x"],
    ["\u200bx", "\u200bx"],
    [" \t\n\v\f\rx ", "x"],
  ])("trimSpace(%j) is %j", (input, want) => {
    expect(trimSpace(input)).toBe(want);
    expect(statementText(`${input};`).replace(/;$/u, "")).toBe(trimSpace(`${input};`).replace(/;$/u, ""));
  });

  it("validation trims as the fingerprint does: a field of only U+FEFF is not blank, one of only U+0085 is", () => {
    expect(validateSchemaPlanBinding({ ...VECTOR, ptahVersion: "\ufeff" })).toEqual([]);
    expect(validateSchemaPlanBinding({ ...VECTOR, ptahVersion: "\u0085" })).toEqual(["ptah_version is empty"]);
    expect(normalizePrivilegeChanges(["\u0085", "\ufeff"])).toEqual(["\ufeff"]);
  });
});

describe("integers hash as Go's int64", () => {
  it("-0 in an integer field hashes as 0, as Go decodes it (found by the Go oracle)", () => {
    expect(digestSchemaPlanBinding({ ...VECTOR, controllerStateVersion: -0 })).toBe(digestSchemaPlanBinding({ ...VECTOR, controllerStateVersion: 0 }));
  });
});
