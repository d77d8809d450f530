// Property: the TypeScript canonical form of the schema plan binding (src/plan/canonical.ts,
// src/plan/fingerprint.ts) is byte for byte what Go's encoding/json writes, and its digest is
// the same: test/oracle/fingerprint (Go, written from operator-api §5.1–5.2, stdlib only) is the
// oracle, fed every generated plan spec in one batch through one process. Specs carry non-ASCII
// text, `< > &`, U+2028/U+2029, control characters, quotes and backslashes in every string;
// privilege lists empty, absent, unsorted, duplicated and padded with white space; destructive
// both ways; counts from negative to 2^53-1. 10,000 specs under CI=true, 2,000 otherwise,
// PTAH_PROPERTY_RUNS to choose.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalJSONBytes } from "../../src/plan/canonical.ts";
import { bindingOfPlanSpec, digestSchemaPlanBinding, schemaPlanBindingStruct } from "../../src/plan/fingerprint.ts";
import type { PtahSchemaPlan } from "../../src/model/kinds.ts";
import { askOracle, hasGo } from "../oracle/build.ts";
import { runs } from "./runs.ts";

const CI = process.env.CI === "true";
const NUM = runs(CI ? 10_000 : 2_000);
const noGo = !hasGo() && !CI ? "no Go toolchain on PATH to build test/oracle/fingerprint" : false;

const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
const PIECES = [
  "<",
  ">",
  "&",
  "\u2028",
  "\u2029",
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\ufeff",
  '"',
  "\\",
  "\t",
  "\n",
  "\r",
  "\b",
  "\f",
  "é",
  "数据",
  "🚀",
  "e\u0301",
  "\u202e",
  "sha256:",
  "</script>",
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 6 }), fc.string({ maxLength: 10 }), hex(64)), { maxLength: 8 })
  // The API server never serves a lone surrogate (its JSON decoder makes it U+FFFD), so neither do we.
  .map((parts) => parts.join("").replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));
const count = fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constantFrom(0, 1, 3, 2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER), fc.maxSafeNat());
const SPACE = [" ", "  ", "\t", "\n", "\r", "\u000b", "\f", "\u00a0", "\u3000", "\u2028", "\u2029", "\u0085", "\ufeff", "\u200b"];
const pad = fc.constantFrom("", ...SPACE);
const privilege = fc.oneof(
  fc.tuple(pad, fc.constantFrom("Grant", "Revoke", "CreateRole", "DropRole", "AlterDefaultPrivileges", "grant", "Grant "), pad).map(([a, w, b]) => a + w + b),
  pad,
  text,
);
const privileges = fc.oneof(
  fc.constant(undefined),
  fc.constant([]),
  fc.array(privilege, { maxLength: 10 }),
  fc.array(privilege, { minLength: 1, maxLength: 4 }).map((l) => [...l, ...l].reverse()),
);

const spec = fc.record(
  {
    contractVersion: fc.oneof(fc.constantFrom(1, 3), count),
    schemaRef: fc.record({ name: text, uid: fc.oneof(fc.uuid(), text) }, { requiredKeys: [] }),
    contentDigest: text,
    artifactDigest: text,
    coordinationDigest: text,
    targetIdentityDigest: text,
    actualStateFingerprint: text,
    desiredStateFingerprint: text,
    policyFingerprint: text,
    verificationPolicyUID: text,
    verificationPolicyDigest: text,
    executionBindingID: fc.oneof(
      hex(32).map((h) => `v1-${h}`),
      text,
    ),
    controllerStateVersion: count,
    ptahVersion: text,
    executorImage: text,
    runnerProtocolVersion: count,
    destructive: fc.boolean(),
    privilegeChanges: privileges,
    statementCount: count,
  },
  { requiredKeys: ["contractVersion", "destructive", "statementCount"] },
);

interface Answer {
  readonly canonical?: string;
  readonly digest?: string;
  readonly error?: string;
}

let compared = 0;
afterAll(() => console.log(`fingerprint oracle (Go encoding/json): ${compared} generated plan specs, TypeScript canonical bytes and digest equal Go's in every one`));

describe.skipIf(noGo)("the plan fingerprint against a Go oracle (property)", () => {
  it(`encodes ${NUM} generated plan specs exactly as Go's encoding/json does`, () => {
    const seed = Number.parseInt(process.env.PTAH_PROPERTY_SEED ?? "", 10) || Date.now() % 2 ** 31;
    const specs = fc.sample(spec, { numRuns: NUM, seed });
    const answers = askOracle<Answer>("fingerprint", specs);
    specs.forEach((s, i) => {
      const a = answers[i]!;
      const binding = bindingOfPlanSpec(s as PtahSchemaPlan["spec"]);
      const ours = Buffer.from(canonicalJSONBytes(schemaPlanBindingStruct(binding))).toString("base64");
      const why = `case ${i} of seed ${seed} (PTAH_PROPERTY_SEED=${seed} reproduces): ${JSON.stringify(s)}\n go: ${Buffer.from(a.canonical ?? "", "base64").toString("utf8")}\n ts: ${Buffer.from(ours, "base64").toString("utf8")}`;
      expect(a.error, why).toBeUndefined();
      expect(ours, why).toBe(a.canonical);
      expect(digestSchemaPlanBinding(binding), why).toBe(a.digest);
      compared++;
    });
  });
});
