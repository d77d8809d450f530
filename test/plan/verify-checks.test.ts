// Each check of src/plan/verify.ts, one conjunct at a time: a plan that breaks exactly one rule is
// refused with the exact message (user-visible, upstream's wording) and recorded under its check
// name; the plan beside it that keeps the rule passes with its report line. The controller
// revision rule is also checked against an oracle written from the rule itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NotFoundError, PtahError, VerificationError } from "../../src/errors.ts";
import { PtahSchema } from "../../src/model/ptah-schema.ts";
import { PtahSchemaPlan } from "../../src/model/schema-plan.ts";
import type { PlanRecord } from "../../src/plan/select.ts";
import { CheckLog, verifyFingerprint, verifyPlanBinding, verifyPlanContract, verifyRecordNamesPlan, verifyStorageCommitted } from "../../src/plan/verify.ts";
import { aSchema } from "../support/builders.ts";
import { runCliWith } from "../support/cli.ts";
import { clusterState, FIXTURES_NOW, NS, publishCurrent, SCHEMA, SCHEMA_UID } from "./fixtures.ts";

type Raw = Record<string, any>;
const PUBLISHED = publishCurrent();
const NAME = PUBLISHED.name;
const UID = (PUBLISHED.plan as Raw).metadata.uid as string;
const FP = PUBLISHED.fingerprint;
const STORE = `read the stored plan ${NAME}: `;

function planWith(change: (p: Raw) => void = () => {}): PtahSchemaPlan {
  const raw = structuredClone(PUBLISHED.plan) as Raw;
  change(raw);
  return PtahSchemaPlan.parse(raw);
}
function schemaWith(uid: string | undefined): PtahSchema {
  const raw = aSchema({ name: SCHEMA, namespace: NS, uid, phase: "AwaitingApproval", conditions: [] });
  if (uid === undefined) delete (raw.metadata as Raw).uid;
  return PtahSchema.parse(raw);
}
const recordOf = (over: Partial<PlanRecord> = {}): PlanRecord => ({
  selection: "current",
  namespace: NS,
  schemaName: SCHEMA,
  planName: NAME,
  planUID: UID,
  fingerprint: FP,
  completedAt: undefined,
  needsFingerprintLookup: false,
  ...over,
});

/** Runs one check on a fresh log: the refusal it threw (if any) and what the log recorded. */
function check(step: (log: CheckLog) => unknown): { error: unknown; results: CheckLog["results"] } {
  const log = new CheckLog();
  try {
    step(log);
  } catch (error) {
    return { error, results: log.results };
  }
  return { error: undefined, results: log.results };
}
function expectRefused(step: (log: CheckLog) => unknown, name: string, message: string, type: typeof PtahError = VerificationError): void {
  const { error, results } = check(step);
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
  expect(results).toEqual([{ check: name, ok: false, detail: message }]);
}
function expectPassed(step: (log: CheckLog) => unknown, name: string, detail: string): void {
  const { error, results } = check(step);
  expect(error).toBeUndefined();
  expect(results).toEqual([{ check: name, ok: true, detail }]);
}

describe("verifyRecordNamesPlan", () => {
  it("refuses a record naming no plan (not found) or a plan without a UID, else names the plan", () => {
    expectRefused((log) => verifyRecordNamesPlan(log, recordOf({ planName: undefined })), "selection", "no such plan: the record names no stored plan", NotFoundError);
    expectRefused(
      (log) => verifyRecordNamesPlan(log, recordOf({ planUID: "" })),
      "selection",
      `the record names the stored plan ${NAME} without a UID, so nothing says it is still the same object`,
    );
    expectPassed((log) => expect(verifyRecordNamesPlan(log, recordOf())).toBe(NAME), "selection", `the current record names ${NAME} (UID ${UID})`);
  });
});

const SCHEMA_OBJ = schemaWith(SCHEMA_UID);
const binding =
  (plan: PtahSchemaPlan, record = recordOf(), schema = SCHEMA_OBJ) =>
  (log: CheckLog) =>
    verifyPlanBinding(log, record, schema, plan);
const belongs = (ref: string) => `the stored plan ${NAME} belongs to ${NS}/${ref}, not to this schema`;

describe("verifyPlanBinding", () => {
  const refusals: [string, (log: CheckLog) => void, string][] = [
    [
      "another UID in the record",
      binding(planWith(), recordOf({ planUID: "other" })),
      `the stored plan ${NAME} has UID "${UID}" and the record names "other", so it is a different object under the same name`,
    ],
    [
      "a plan without a UID",
      binding(planWith((p) => delete p.metadata.uid)),
      `the stored plan ${NAME} has UID "" and the record names "${UID}", so it is a different object under the same name`,
    ],
    [
      "a record without a UID",
      binding(planWith(), recordOf({ planUID: undefined })),
      `the stored plan ${NAME} has UID "${UID}" and the record names "", so it is a different object under the same name`,
    ],
    [
      "another fingerprint",
      binding(planWith(), recordOf({ fingerprint: "sha256:" + "0".repeat(64) })),
      `the stored plan ${NAME} carries the fingerprint ${FP} and the record names sha256:${"0".repeat(64)}`,
    ],
    ["a plan without a fingerprint", binding(planWith((p) => delete p.spec.fingerprint)), `the stored plan ${NAME} carries the fingerprint (none) and the record names ${FP}`],
    ["another schema's name", binding(planWith((p) => (p.spec.schemaRef.name = "warehouse"))), belongs("warehouse")],
    ["another schema's UID", binding(planWith((p) => (p.spec.schemaRef.uid = "0b7e1d2c-0000-4000-8000-000000000001"))), belongs(SCHEMA)],
    ["no schemaRef", binding(planWith((p) => delete p.spec.schemaRef)), belongs("(no schema)")],
    // Both UIDs missing compare equal; a schemaRef without a UID still binds to nothing.
    [
      "no UID on either side",
      binding(
        planWith((p) => delete p.spec.schemaRef.uid),
        recordOf(),
        schemaWith(undefined),
      ),
      belongs(SCHEMA),
    ],
  ];
  it.each(refusals)("refuses %s", (_name, step, message) => expectRefused(step, "plan object", message));

  it("passes the plan the record names, and one with any fingerprint when the record binds none", () => {
    const detail = `${NAME} has the recorded UID and fingerprint and belongs to this schema`;
    expectPassed(binding(planWith()), "plan object", detail);
    expectPassed(binding(planWith(), recordOf({ fingerprint: undefined })), "plan object", detail);
  });
});

const contract = (change: (s: Raw) => void) => (log: CheckLog) =>
  verifyPlanContract(
    log,
    planWith((p) => change(p.spec)),
  );
const BAD_REVISION = `${STORE}plan controller revision is empty or malformed`;

describe("verifyPlanContract", () => {
  const refusals: [string, (s: Raw) => void, string][] = [
    ["contract version 2", (s) => (s.contractVersion = 2), "plan contract version 2 is not supported (this plugin reads 1 and 3)"],
    ["no contract version", (s) => delete s.contractVersion, "plan contract version (none) is not supported (this plugin reads 1 and 3)"],
    ["a v2- binding ID", (s) => (s.executionBindingID = "v2-" + "a".repeat(32)), `plan execution binding ID "v2-${"a".repeat(32)}" is not v1- and 32 lowercase hex digits`],
    ["an upper-case binding ID", (s) => (s.executionBindingID = "v1-" + "A".repeat(32)), `plan execution binding ID "v1-${"A".repeat(32)}" is not v1- and 32 lowercase hex digits`],
    ["no binding ID", (s) => delete s.executionBindingID, `plan execution binding ID "" is not v1- and 32 lowercase hex digits`],
    [
      "an image by tag",
      (s) => (s.controllerImage = "ghcr.io/stokaro/ptah-operator:v0.4.0"),
      `plan controller image "ghcr.io/stokaro/ptah-operator:v0.4.0" is not pinned by a sha256 digest`,
    ],
    ["no image", (s) => delete s.controllerImage, `plan controller image "" is not pinned by a sha256 digest`],
    ["state version 0", (s) => (s.controllerStateVersion = 0), "plan controller state version 0 is below 1"],
    ["state version -1", (s) => (s.controllerStateVersion = -1), "plan controller state version -1 is below 1"],
    ["no state version", (s) => delete s.controllerStateVersion, "plan controller state version (none) is below 1"],
  ];
  it.each(refusals)("refuses %s", (_name, change, message) => expectRefused(contract(change), "contract", STORE + message));

  const revisions: [string, string | undefined][] = [
    ["no revision", undefined],
    ["an empty revision", ""],
    ["129 characters", "v".repeat(129)],
    ["a leading space", " v0.4.0"],
    ["a trailing NEL (Go space, not a control character)", "v0.4.0\u0085"],
    ["a leading no-break space", "\u00a0v0.4.0"],
    ["a control character inside", "v0.4\u0001.0"],
    ["DEL inside", "v0.4\u007f.0"],
  ];
  it.each(revisions)("refuses %s as a controller revision", (_name, rev) => {
    expectRefused(
      contract((s) => (rev === undefined ? delete s.controllerRevision : (s.controllerRevision = rev))),
      "contract",
      BAD_REVISION,
    );
  });

  it("passes revisions of 1 and 128 characters, a BOM (no space to Go), contract version 3 and state version 1", () => {
    const detail = (v: number) => `version ${v}, execution binding ${(PUBLISHED.plan as Raw).spec.executionBindingID}, controller image pinned by digest`;
    for (const rev of ["v", "v".repeat(128), "\ufeffv0.4.0", "v 0.4.0"])
      expectPassed(
        contract((s) => (s.controllerRevision = rev)),
        "contract",
        detail(1),
      );
    expectPassed(
      contract((s) => (s.controllerStateVersion = 1)),
      "contract",
      detail(1),
    );
    expectPassed(
      contract((s) => (s.contractVersion = 3)),
      "contract",
      detail(3),
    );
  });

  // The oracle, from the rule (1..128 long, no Go white space at either end, no C0 or DEL). ASCII
  // revisions probe the length bounds; the non-ASCII ones stay short, so whether the operator
  // counts bytes or characters does not decide the case.
  const GO_SPACE = new Set([..."\t\n\v\f\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000"].concat(Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i))));
  const oracle = (rev: string): boolean =>
    rev.length >= 1 && rev.length <= 128 && !GO_SPACE.has(rev[0]!) && !GO_SPACE.has(rev.at(-1)!) && [...rev].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);
  const ascii = fc.string({
    unit: fc.oneof(
      fc.constantFrom("v", "0", ".", "-", " "),
      fc.integer({ min: 0, max: 0x7f }).map((n) => String.fromCharCode(n)),
    ),
    maxLength: 140,
  });
  const unicode = fc.string({
    unit: fc.constantFrom("v", "1", " ", "\t", "\u0085", "\u00a0", "\u2000", "\u200a", "\u200b", "\u3000", "\ufeff", "\u0000", "\u001f", "\u007f", "é"),
    maxLength: 30,
  });
  const lengths = fc.integer({ min: 120, max: 136 }).map((n) => "v".repeat(n));
  it("accepts a controller revision exactly when the rule's oracle does", () => {
    fc.assert(
      fc.property(fc.oneof(ascii, unicode, lengths), (rev) => {
        const { error } = check(contract((s) => (s.controllerRevision = rev)));
        if (oracle(rev)) expect(error).toBeUndefined();
        else expect((error as Error | undefined)?.message).toBe(BAD_REVISION);
      }),
      { numRuns: 400 },
    );
  });
});

describe("verifyFingerprint", () => {
  it("refuses a spec the operator would not hash, naming every problem", () => {
    const plan = planWith((p) => ((p.spec.artifactDigest = " "), delete p.spec.coordinationDigest));
    expectRefused(
      (log) => verifyFingerprint(log, recordOf(), plan),
      "fingerprint",
      `the stored plan ${NAME} cannot be fingerprinted: artifact_digest is empty; coordination_digest is empty`,
    );
  });
  it("refuses a plan without a fingerprint, naming what its spec recomputes to", () => {
    const plan = planWith((p) => delete p.spec.fingerprint);
    const message = `the stored plan ${NAME} carries the fingerprint (none), but its spec recomputes to ${FP}, so what it binds is not what was fingerprinted`;
    expectRefused((log) => verifyFingerprint(log, recordOf({ fingerprint: undefined }), plan), "fingerprint", message);
  });
  it("says whether the schema's record bound the fingerprint too", () => {
    const detail = `recomputed from the plan spec: ${FP}, equal to the plan's`;
    expectPassed((log) => expect(verifyFingerprint(log, recordOf(), planWith())).toBe(FP), "fingerprint", `${detail} and the schema's record`);
    expectPassed((log) => verifyFingerprint(log, recordOf({ fingerprint: undefined }), planWith()), "fingerprint", detail);
  });
});

const ready = (p: Raw): Raw => p.status.conditions.find((c: Raw) => c.type === "Ready");
const storage = (change: (p: Raw) => void) => (log: CheckLog) => verifyStorageCommitted(log, planWith(change));

describe("verifyStorageCommitted", () => {
  const refusals: [string, (p: Raw) => void][] = [
    ["no generation on either side", (p) => (delete p.metadata.generation, delete p.status.observedGeneration, delete ready(p).observedGeneration)],
    ["status observed an older generation", (p) => ((p.metadata.generation = 2), delete ready(p).observedGeneration)],
    ["no Ready condition", (p) => (p.status.conditions = [])],
    ["Ready=False", (p) => (ready(p).status = "False")],
    ["Ready=True for another reason", (p) => (ready(p).reason = "Publishing")],
    ["Ready observed an older generation", (p) => ((p.metadata.generation = 2), (p.status.observedGeneration = 2))],
    ["Ready counting another number of chunks", (p) => (ready(p).message = "Verified 2 immutable plan chunks")],
    [
      "a True Published condition that is not Ready",
      (p) =>
        (p.status.conditions = [
          { ...ready(p), type: "Published" },
          { ...ready(p), status: "False" },
        ]),
    ],
  ];
  it.each(refusals)("refuses %s", (_name, change) => expectRefused(storage(change), "storage", `${STORE}plan storage is not committed`));

  const passes: [string, (p: Raw) => void][] = [
    ["as published", () => {}],
    ["Ready without observedGeneration", (p) => delete ready(p).observedGeneration],
    ["a Ready message without a count", (p) => (ready(p).message = "Published")],
    ["no publishedChunks and no count", (p) => (delete p.status.publishedChunks, (ready(p).message = "Published"))],
    ["another condition before Ready", (p) => p.status.conditions.unshift({ type: "Progressing", status: "False", reason: "Done" })],
  ];
  it.each(passes)("passes %s", (_name, change) => expectPassed(storage(change), "storage", "committed: Ready=True (Published) at generation 1"));
});

describe("CheckLog.run", () => {
  const refusal = new VerificationError("read the stored plan x: broken");
  it("records a refusal thrown in its step once, under its own name or the one fail() gave", () => {
    expect(check((log) => log.run("a", () => 7))).toEqual({ error: undefined, results: [] });
    expect(
      check((log) =>
        log.run("a", () =>
          ((): never => {
            throw refusal;
          })(),
        ),
      ),
    ).toEqual({ error: refusal, results: [{ check: "a", ok: false, detail: refusal.message }] });
    expect(check((log) => log.run("a", () => log.fail("b", refusal)))).toEqual({ error: refusal, results: [{ check: "b", ok: false, detail: refusal.message }] });
  });
  it("records another refusal after an earlier one, and nothing for an error that is not a refusal", () => {
    const other = new NotFoundError("no such plan: gone");
    const twice = check((log) => {
      expect(() => log.fail("b", refusal)).toThrow(refusal);
      log.run("a", () =>
        ((): never => {
          throw other;
        })(),
      );
    });
    expect(twice).toEqual({
      error: other,
      results: [
        { check: "b", ok: false, detail: refusal.message },
        { check: "a", ok: false, detail: other.message },
      ],
    });
    const bug = new TypeError("x is undefined");
    expect(
      check((log) =>
        log.run("a", () =>
          ((): never => {
            throw bug;
          })(),
        ),
      ),
    ).toEqual({ error: bug, results: [] });
  });
});

describe("plan --verify names the failed check", () => {
  const cases: [string, (p: Raw) => void, string, string][] = [
    ["contract", (p) => (p.spec.contractVersion = 2), "contract", "plan contract version 2 is not supported (this plugin reads 1 and 3)"],
    ["revision", (p) => (p.spec.controllerRevision = " v0.4.0"), "contract", "plan controller revision is empty or malformed"],
    ["storage", (p) => (ready(p).reason = "Publishing"), "storage", "plan storage is not committed"],
  ];
  it.each(cases)("%s", async (_name, change, name, message) => {
    const current = publishCurrent();
    change(current.plan as Raw);
    const { reader } = clusterState({ current });
    const result = await runCliWith(["plan", SCHEMA, "--verify"], reader, { namespace: NS, now: FIXTURES_NOW });
    expect(result.status).toBe(1);
    const line = `read the stored plan ${current.name}: ${message}`;
    const failed = result.stdout.split("\n").filter((l) => / FAILED /u.test(l));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(new RegExp(`^${name} +FAILED +`, "u"));
    expect(failed[0]!.replace(/^.*? FAILED +/u, "")).toBe(line);
    expect(result.stderr).toBe(`error: ${line}\n`);
  });
});
