// Property: the plugin reads, validates and hashes a plan spec as the operator does. The Go oracle
// (test/oracle/fingerprint, written from the contract's canonical JSON and fingerprint rules, stdlib only) decodes each spec's
// JSON text as client-go decodes a typed object, validates it as the contract says and hashes it with
// encoding/json; the plugin's side is its own path from the same text: JSON.parse, the model
// (src/model/parse.ts), bindingOfPlanSpec, validateSchemaPlanBinding and the canonical bytes. Both
// sides get the same lines, generated from one seed, in one batch through one process. Specs
// carry non-ASCII text, `< > &`, U+2028/U+2029, control characters, quotes and backslashes in
// every string; blank strings of every kind of space (U+0085 is space to Go, U+FEFF is not);
// privilege lists empty, absent, null, unsorted, duplicated, padded; integers from negative to
// beyond 2^63, written as -0, 1.0, 1e0, 1.5 or 1e300; nulls and wrong types in every field;
// unknown fields (names differing only in case among them) nested up to 40 deep. For every
// case: the two agree on whether the spec decodes, on its canonical bytes and digest, and on the
// validation's problems — or the case is one of the two named ways the plugin is stricter, or
// reads an integer written as 1.0/1e0 as the integer (see DIFFERENCES). 10,000 specs under CI=true,
// 2,000 otherwise, PTAH_PROPERTY_RUNS to choose, PTAH_PROPERTY_SEED to replay.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalJSONBytes } from "../../src/plan/canonical.ts";
import { bindingOfPlanSpec, digestSchemaPlanBinding, schemaPlanBindingStruct, SUPPORTED_PLAN_CONTRACT_VERSIONS, validateSchemaPlanBinding } from "../../src/plan/fingerprint.ts";
import { parseObject } from "../../src/model/parse.ts";
import { buildOracle, hasGo } from "../oracle/build.ts";
import { toolsRequired } from "../support/machine-tools.ts";
import { runs } from "./runs.ts";

const CI = process.env.CI === "true";
const NUM = runs(CI ? 10_000 : 2_000);
/** Why the oracle cannot run here; under CI (toolsRequired) a missing Go fails instead (buildOracle throws). */
const noGo = !hasGo() && !toolsRequired() ? "no Go toolchain on PATH to build test/oracle/fingerprint" : undefined;
if (noGo) console.log(`fingerprint oracle (Go encoding/json): skipped: ${noGo}`);

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

/** A number as it is written in the JSON text (1.0 and 1 are different texts). */
class Num {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
type Json = null | boolean | string | Num | Json[] | { [k: string]: Json };

/** The JSON text of a generated value, numbers written as generated. */
function toJson(v: Json): string {
  if (v instanceof Num) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJson).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

const NUMBER_FORMS = [
  "1.0",
  "1e0",
  "1E0",
  "3.0",
  "10e-1",
  "2e1",
  "0.5",
  "1.5",
  "-0",
  "-0.0",
  "-1",
  "1e300",
  "9007199254740992",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
];
const ABSENT = Symbol("absent");
type Hostile = Json | typeof ABSENT;

// A valid spec (every string holding more than space, counts from 1 to 2^53-1), then up to three
// of its fields replaced by something hostile, so that every outcome is reached often.
const solid = text.filter((t) => /[^\s\u0085]/u.test(t));
const positive = fc
  .oneof(fc.integer({ min: 1, max: 20 }), fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }))
  .map((n) => new Num(String(n)) as Json);
const INTS = ["contractVersion", "controllerStateVersion", "runnerProtocolVersion", "statementCount"] as const;
const STRINGS = [
  "contentDigest",
  "artifactDigest",
  "coordinationDigest",
  "targetIdentityDigest",
  "actualStateFingerprint",
  "desiredStateFingerprint",
  "policyFingerprint",
  "verificationPolicyUID",
  "verificationPolicyDigest",
  "executionBindingID",
  "ptahVersion",
  "executorImage",
] as const;
const validModel: Record<string, fc.Arbitrary<Json>> = {
  ...Object.fromEntries(STRINGS.map((f) => [f, solid.map((t) => t as Json)])),
  contractVersion: fc.constantFrom(1, 3).map((n) => new Num(String(n)) as Json),
  controllerStateVersion: positive,
  runnerProtocolVersion: positive,
  statementCount: positive,
  executionBindingID: hex(32).map((h) => `v1-${h}` as Json),
  schemaRef: fc.record({ name: text, uid: fc.uuid() }).map((r) => r as Json),
  destructive: fc.boolean().map((b) => b as Json),
  privilegeChanges: privileges.map((l) => l as Json),
};
const valid = fc.record(validModel, { requiredKeys: [...INTS, ...STRINGS, "schemaRef", "destructive"] });

const WRONG = fc.constantFrom<Json>(null, "1", true, [], {});
const BLANK = ["", " ", "\t\n", "\u0085", "\u00a0\u3000", "\u2028", "\ufeff", "\u200b", " \ufeff "];
const hostileInt = fc.oneof(
  fc.constantFrom(...NUMBER_FORMS).map((t) => new Num(t) as Hostile),
  count.map((n) => new Num(String(n)) as Hostile),
  WRONG,
  fc.constant(ABSENT),
);
const hostileString = fc.oneof(
  fc.constantFrom<Hostile>(...BLANK, null, new Num("7"), ["x"], ABSENT),
  text.map((t) => t as Hostile),
);
const hostileRef = fc.oneof(
  fc.constantFrom<Hostile>(null, "s", [], ABSENT),
  fc.constantFrom(...BLANK).map((uid) => ({ name: "s", uid }) as Hostile),
  fc.uuid().map((uid) => ({ name: new Num("1"), uid }) as Hostile),
  fc.constant<Hostile>({ name: "s", uid: null }),
);
const hostilePrivileges = fc.oneof(
  fc.constantFrom<Hostile>(null, "Grant", new Num("1"), [new Num("1")], ABSENT),
  fc
    .array(
      fc.oneof(
        privilege.map((p) => p as Json),
        fc.constant<Json>(null),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((l) => l as Hostile),
);
const hostileBool = fc.constantFrom<Hostile>(null, "true", new Num("0"), ABSENT);
const mutation: fc.Arbitrary<[string, Hostile]> = fc.oneof(
  fc.tuple(fc.constantFrom<string>(...INTS), hostileInt),
  fc.tuple(fc.constantFrom<string>(...STRINGS), hostileString),
  fc.tuple(fc.constant("schemaRef"), hostileRef),
  fc.tuple(fc.constant("privilegeChanges"), hostilePrivileges),
  fc.tuple(fc.constant("destructive"), hostileBool),
);

const leaf = fc.oneof(
  text.map((t) => t as Json),
  fc.constantFrom<Json>(null, true, false, new Num("1.5e3"), new Num("-0")),
);
/** An unknown value: a tree, or a chain up to 40 deep. */
const unknownValue: fc.Arbitrary<Json> = fc.oneof(
  fc.letrec<{ node: Json }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("node"), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie("node"), { maxKeys: 3 }),
    ),
  })).node,
  fc.tuple(fc.integer({ min: 1, max: 40 }), leaf).map(([depth, v]) => Array.from({ length: depth }).reduce<Json>((inner, _, i) => (i % 2 ? [inner] : { deeper: inner }), v)),
);
/** Names the model does not know, some differing from a known one only in case. */
const unknownName = fc.oneof(
  fc.constantFrom("ContractVersion", "statementcount", "SchemaRef", "Destructive", "privilege_changes", "extra", "annotations"),
  fc.string({ minLength: 1, maxLength: 8 }).map((k) => `x-${k}`),
);
const unknowns = fc.dictionary(unknownName, unknownValue, { maxKeys: 3 });
const refUnknowns = fc.dictionary(unknownName, unknownValue, { maxKeys: 2 });

const spec = fc.tuple(valid, fc.array(mutation, { maxLength: 3 }), unknowns, refUnknowns, fc.boolean()).map(([base, mutations, extra, refExtra, extraFirst]) => {
  const known: Record<string, Json> = { ...(base as Record<string, Json>) };
  known.schemaRef = { ...refExtra, ...(known.schemaRef as Record<string, Json>) };
  for (const [field, value] of mutations) {
    if (value === ABSENT) delete known[field];
    else known[field] = value;
  }
  return toJson((extraFirst ? { ...extra, ...known } : { ...known, ...extra }) as Json);
});

interface Side {
  readonly decoded: boolean;
  readonly canonical?: string;
  readonly digest?: string;
  readonly problems?: readonly string[];
  readonly error?: string;
}

/** The plugin's own path from the served text to a fingerprint. */
function plugin(line: string): Side {
  const raw = JSON.parse(line) as unknown;
  let binding;
  try {
    const plan = parseObject("PtahSchemaPlan", { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaPlan", metadata: { name: "p", namespace: "n", uid: "u" }, spec: raw });
    binding = bindingOfPlanSpec(plan.object.spec);
  } catch (err) {
    return { decoded: false, error: (err as Error).message };
  }
  const canonical = Buffer.from(canonicalJSONBytes(schemaPlanBindingStruct(binding))).toString("base64");
  return { decoded: true, canonical, digest: digestSchemaPlanBinding(binding), problems: validateSchemaPlanBinding(binding) };
}

const INT_FIELDS = ["contract_version", "controller_state_version", "runner_protocol_version", "statement_count"];

/**
 * The named ways the two sides may differ, each checked on the case, never assumed:
 * - beyond 2^53: Go holds an int64 the plugin's numbers cannot, so the plugin refuses the spec;
 * - a null in privilegeChanges: Go reads it as "" and drops it, the model refuses the list;
 * - 1.0 or 1e0 for an integer: JSON.parse cannot tell it from 1, Go's typed decode refuses it.
 *   An API server writes an integral number as an integer, so the plugin never reads such text
 *   from one; the case must agree with Go's answer for the same spec written with 1.
 */
function difference(line: string, go: Side, ts: Side, again: (line: string) => Side): string | undefined {
  if (go.decoded && !ts.decoded) {
    const b = JSON.parse(Buffer.from(go.canonical!, "base64").toString("utf8")) as Record<string, number>;
    if (INT_FIELDS.some((f) => Math.abs(b[f]!) > Number.MAX_SAFE_INTEGER)) return "beyond 2^53";
    const parsed = JSON.parse(line) as { privilegeChanges?: unknown };
    if (Array.isArray(parsed.privilegeChanges) && parsed.privilegeChanges.includes(null)) {
      // Without the nulls, the plugin must read what Go read.
      const t = plugin(JSON.stringify({ ...parsed, privilegeChanges: parsed.privilegeChanges.filter((p) => p !== null) }));
      if (t.decoded && t.canonical === go.canonical && sameProblems(t, go)) return "null in privilegeChanges";
    }
  }
  if (ts.decoded && !go.decoded) {
    const rewritten = JSON.stringify(JSON.parse(line));
    const g = again(rewritten);
    if (rewritten !== line && g.decoded && g.canonical === ts.canonical && sameProblems(g, ts)) return "1.0 or 1e0 read as an integer";
  }
  return undefined;
}

const sameProblems = (a: Side, b: Side): boolean => JSON.stringify(a.problems ?? []) === JSON.stringify(b.problems ?? []);

function runOracle(lines: readonly string[]): Side[] {
  const r = spawnSync(buildOracle("fingerprint"), [`-contract-versions=${SUPPORTED_PLAN_CONTRACT_VERSIONS.join(",")}`], {
    input: `${lines.join("\n")}\n`,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`the oracle failed: ${r.stderr}`);
  return r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Side);
}

const tally = new Map<string, number>();
const count1 = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
afterAll(() => {
  if (noGo) return;
  const parts = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${v} ${k}`);
  console.log(`fingerprint oracle (Go encoding/json): ${[...tally.values()].reduce((a, b) => a + b, 0)} generated plan specs: ${parts.join(", ")}`);
});

describe("the plan fingerprint against a Go oracle (property)", () => {
  it(`reads, validates and encodes ${NUM} generated plan specs as Go does`, (ctx) => {
    if (noGo) ctx.skip(noGo);
    const seed = Number.parseInt(process.env.PTAH_PROPERTY_SEED ?? "", 10) || Date.now() % 2 ** 31;
    const lines = fc.sample(spec, { numRuns: NUM, seed });
    const answers = runOracle(lines);
    expect(answers).toHaveLength(lines.length);
    const ours = lines.map(plugin);
    // The same specs written as JSON.stringify writes them (1.0 and 1e0 as 1), for DIFFERENCES.
    const rewritten = new Map<string, Side>();
    const asWritten = lines.filter((l, i) => ours[i]!.decoded && !answers[i]!.decoded).map((l) => JSON.stringify(JSON.parse(l)));
    if (asWritten.length > 0) runOracle(asWritten).forEach((a, i) => rewritten.set(asWritten[i]!, a));
    const again = (line: string) => rewritten.get(line) ?? { decoded: false };
    lines.forEach((line, i) => {
      const go = answers[i]!;
      const ts = ours[i]!;
      const why = `case ${i} of seed ${seed} (PTAH_PROPERTY_SEED=${seed} reproduces): ${line}\n go: ${JSON.stringify(go)}\n ts: ${JSON.stringify(ts)}`;
      if (go.decoded !== ts.decoded) {
        const named = difference(line, go, ts, again);
        expect(named, why).toBeDefined();
        count1(`plugin differs as named (${named})`);
        return;
      }
      if (!go.decoded) return void count1("refused by both when read");
      expect(Buffer.from(ts.canonical!, "base64").toString("utf8"), why).toBe(Buffer.from(go.canonical!, "base64").toString("utf8"));
      expect(ts.digest, why).toBe(go.digest);
      expect(ts.problems, why).toEqual(go.problems ?? []);
      count1(ts.problems!.length === 0 ? "valid to both, same digest" : "invalid to both, same problems and bytes");
    });
    // The generator reaches every outcome, so a proof that passes is one that compared.
    expect(tally.get("valid to both, same digest") ?? 0).toBeGreaterThan(NUM / 50);
    expect(tally.get("invalid to both, same problems and bytes") ?? 0).toBeGreaterThan(NUM / 50);
    expect(tally.get("refused by both when read") ?? 0).toBeGreaterThan(NUM / 50);
  }, 600_000);
});
