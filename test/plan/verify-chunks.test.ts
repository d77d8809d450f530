// The chunk checks of src/plan/verify-chunks.ts called directly, on a plan the fixtures publish and
// parse as the reader does: each bound at its edge (the last value that holds and the first that
// does not, generated), each field of the owner reference, each label, the chunk count, the order of
// the committed status, and what each check records in the CheckLog that `plan --verify` prints.
// The tampering table (tampering-cases.ts) proves the same refusals through the real shell; these
// reach the checks a consistent store never trips, such as the running total.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VerificationError } from "../../src/errors.ts";
import { PTAH_API_VERSION } from "../../src/model/api.ts";
import type { PtahSchemaPlan } from "../../src/model/kinds.ts";
import { parseObject } from "../../src/model/parse.ts";
import {
  decodeChunkData,
  verifyChunkBytes,
  verifyChunkManifest,
  verifyChunkObject,
  verifyContent,
  verifyDocument,
  type ChunkObjectMeta,
  type ChunkSlot,
} from "../../src/plan/verify-chunks.ts";
import { CHUNK_SIZE, CheckLog, MAX_CHUNKS, MAX_PLAN_BYTES, PLAN_LABEL, SCHEMA_LABEL } from "../../src/plan/verify.ts";
import { publishCurrent } from "./fixtures.ts";
import { threeChunkPlan, type Raw } from "./tampering-cases.ts";

const published = threeChunkPlan();
const NAME = published.name;

/** The published plan with `change` applied to a copy of its raw form, parsed as the reader parses it. */
function planWith(change: (raw: Raw) => void = () => {}): PtahSchemaPlan {
  const raw = structuredClone(published.plan) as Raw;
  change(raw);
  return parseObject("PtahSchemaPlan", raw).object;
}

/** Runs one check; the refusal's message (and that the log recorded it against `check`), or "held". */
function outcome(check: string, step: (log: CheckLog) => unknown): string {
  const log = new CheckLog();
  try {
    step(log);
  } catch (err) {
    expect(err).toBeInstanceOf(VerificationError);
    const last = log.results[log.results.length - 1]!;
    expect(last).toEqual({ check, ok: false, detail: (err as Error).message });
    return (err as Error).message;
  }
  expect(log.results.every((r) => r.ok)).toBe(true);
  return "held";
}

/**
 * Chunk `i`'s slot read straight from the published manifest and status, not through
 * verifyChunkManifest: nothing of the module under test runs while vitest collects the tests.
 */
function slotOf(i: number): ChunkSlot {
  const raw = published.plan as Raw;
  const entry = raw.spec.chunks.find((c: Raw) => c.index === i);
  const committed = raw.status.publishedChunks.find((c: Raw) => c.index === i);
  return { index: i, name: entry.name, uid: committed.uid, size: entry.size, digest: entry.digest, configMapKey: undefined };
}

const refused = (what: string) => `read the stored plan ${NAME}: ${what}`;
const manifestOf = (plan: PtahSchemaPlan) => outcome("chunk manifest", (log) => verifyChunkManifest(log, plan));

/** Manifest and committed status of `sizes.length` chunks of the given sizes (digests left as published). */
function sized(sizes: readonly number[]): (raw: Raw) => void {
  return (raw) => {
    raw.spec.chunks = sizes.map((size, i) => ({ ...raw.spec.chunks[0], index: i, name: `${NAME}-${i}`, size }));
    raw.status.publishedChunks = sizes.map((_, i) => ({ index: i, name: `${NAME}-${i}`, uid: `uid-${i}` }));
  };
}

describe("the chunk manifest", () => {
  it("records the slots in the committed order, whatever order the status lists them in", () => {
    const log = new CheckLog();
    const slots = verifyChunkManifest(
      log,
      planWith((raw) => raw.status.publishedChunks.reverse()),
    );
    expect(slots.map((s) => [s.index, s.name, s.size])).toEqual((published.plan as Raw).spec.chunks.map((c: Raw) => [c.index, c.name, c.size]));
    expect(slots.map((s) => s.uid)).toEqual((published.plan as Raw).status.publishedChunks.map((c: Raw) => c.uid));
    expect(log.results).toEqual([{ check: "chunk manifest", ok: true, detail: "3 chunks committed in order" }]);
    const one = new CheckLog();
    verifyChunkManifest(one, parseObject("PtahSchemaPlan", publishCurrent().plan).object);
    expect(one.results).toEqual([{ check: "chunk manifest", ok: true, detail: "1 chunk committed in order" }]);
  });

  it("refuses an empty manifest, and one whose count differs from the committed status", () => {
    const mismatch = refused("plan chunk manifest and committed status do not match");
    expect(manifestOf(planWith((raw) => ((raw.spec.chunks = []), (raw.status.publishedChunks = []))))).toBe(mismatch);
    expect(manifestOf(planWith((raw) => raw.status.publishedChunks.pop()))).toBe(mismatch);
  });

  it("reads a missing manifest or committed status as empty", () => {
    const mismatch = refused("plan chunk manifest and committed status do not match");
    const oneChunk = (raw: Raw) => ((raw.spec.chunks = raw.spec.chunks.slice(0, 1)), (raw.status.publishedChunks = raw.status.publishedChunks.slice(0, 1)));
    expect(manifestOf(planWith((raw) => (oneChunk(raw), delete raw.spec.chunks)))).toBe(mismatch);
    expect(manifestOf(planWith((raw) => (oneChunk(raw), delete raw.status.publishedChunks)))).toBe(mismatch);
  });

  it("refuses a status entry without an index, wherever it sorts, at the chunk it lands on", () => {
    expect(manifestOf(planWith((raw) => delete raw.status.publishedChunks[2].index))).toBe(refused("plan chunk 0 has an invalid ordering or commit binding"));
    expect(manifestOf(planWith((raw) => (raw.status.publishedChunks[1].index = 0)))).toBe(refused("plan chunk 1 has an invalid ordering or commit binding"));
    const first = (raw: Raw) => {
      const [c0, c1, c2] = [0, 1, 2].map((i) => raw.status.publishedChunks.find((c: Raw) => c.index === i));
      raw.status.publishedChunks = [{ ...c0, index: undefined }, { ...c1, index: 0, name: c0.name }, c2];
    };
    expect(manifestOf(planWith(first))).toBe(refused("plan chunk 0 has an invalid ordering or commit binding"));
  });

  it.each([
    ["a manifest entry's index", (raw: Raw) => (raw.spec.chunks[1].index = 2)],
    ["a committed entry's index", (raw: Raw) => (raw.status.publishedChunks[1].index = 7)],
    ["a manifest entry's name", (raw: Raw) => delete raw.spec.chunks[1].name],
    ["a committed entry's name", (raw: Raw) => (raw.status.publishedChunks[1].name = "other")],
    ["a committed entry's UID", (raw: Raw) => delete raw.status.publishedChunks[1].uid],
  ])("refuses %s out of place", (_, change) => {
    expect(manifestOf(planWith(change))).toBe(refused("plan chunk 1 has an invalid ordering or commit binding"));
  });

  it("holds a chunk of 1 to CHUNK_SIZE bytes with a digest, and refuses any other size (generated)", () => {
    const bad = refused("plan chunk 1 does not match the manifest");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: CHUNK_SIZE }), (size) => manifestOf(planWith(sized([CHUNK_SIZE, size]))) === "held"),
      { numRuns: 50, examples: [[1], [CHUNK_SIZE]] },
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -CHUNK_SIZE, max: 0 }), fc.integer({ min: CHUNK_SIZE + 1, max: 4 * CHUNK_SIZE })),
        (size) => manifestOf(planWith(sized([CHUNK_SIZE, size]))) === bad,
      ),
      { numRuns: 50, examples: [[0], [CHUNK_SIZE + 1]] },
    );
    expect(manifestOf(planWith((raw) => delete raw.spec.chunks[1].digest))).toBe(bad);
  });

  it(`refuses more than ${MAX_CHUNKS} chunks, and a declared total or stated size over ${MAX_PLAN_BYTES} bytes`, () => {
    expect(manifestOf(planWith(sized(Array<number>(MAX_CHUNKS).fill(1))))).toBe("held");
    expect(manifestOf(planWith(sized(Array<number>(MAX_CHUNKS + 1).fill(1))))).toBe(refused(`plan has ${MAX_CHUNKS + 1} chunks; at most ${MAX_CHUNKS} are stored`));
    const over = refused(`reconstructed plan exceeds ${MAX_PLAN_BYTES} bytes`);
    const full = Array<number>(MAX_PLAN_BYTES / CHUNK_SIZE).fill(CHUNK_SIZE);
    expect(manifestOf(planWith(sized(full)))).toBe("held");
    expect(manifestOf(planWith(sized([...full.slice(1), CHUNK_SIZE, 1])))).toBe(over);
    expect(manifestOf(planWith((raw) => (raw.spec.size = MAX_PLAN_BYTES)))).toBe("held");
    expect(manifestOf(planWith((raw) => (raw.spec.size = MAX_PLAN_BYTES + 1)))).toBe(over);
  });
});

describe("a chunk object", () => {
  const plan = planWith();
  const slot = slotOf(1);
  const owner = { apiVersion: PTAH_API_VERSION, kind: "PtahSchemaPlan", name: NAME, uid: plan.metadata.uid, controller: true, blockOwnerDeletion: true };
  const meta: ChunkObjectMeta = { name: slot.name, uid: slot.uid, labels: { [PLAN_LABEL]: NAME, [SCHEMA_LABEL]: plan.spec.schemaRef!.name! }, ownerReferences: [owner] };
  const objectOf = (m: ChunkObjectMeta, p = plan) => outcome("chunk 1", (log) => verifyChunkObject(log, p, slot, m));
  const notOurs = (what: string) => refused(`plan chunk 1 does not belong to this plan: ${what}`);

  it("holds the committed object, owned by and labelled for the plan, recording nothing itself", () => {
    const log = new CheckLog();
    verifyChunkObject(log, plan, slot, meta);
    expect(log.results).toEqual([]);
  });

  it("refuses another UID or another name", () => {
    expect(objectOf({ ...meta, uid: "another" })).toBe(refused("plan chunk 1 was replaced"));
    expect(objectOf({ ...meta, name: "another" })).toBe(refused(`plan chunk 1 is named another, not ${slot.name}`));
  });

  it("refuses a missing or wrong plan or schema label, and a plan that names no schema", () => {
    expect(objectOf({ ...meta, labels: undefined })).toBe(notOurs(`label ${PLAN_LABEL} is ""`));
    expect(objectOf({ ...meta, labels: { ...meta.labels, [PLAN_LABEL]: "other" } })).toBe(notOurs(`label ${PLAN_LABEL} is "other"`));
    expect(objectOf({ ...meta, labels: { [PLAN_LABEL]: NAME } })).toBe(notOurs(`label ${SCHEMA_LABEL} is ""`));
    const noSchema = { ...plan, spec: { ...plan.spec, schemaRef: undefined } };
    expect(objectOf(meta, noSchema)).toBe(notOurs(`label ${SCHEMA_LABEL} is ${JSON.stringify(meta.labels![SCHEMA_LABEL])}`));
    expect(objectOf({ ...meta, labels: { [PLAN_LABEL]: NAME, [SCHEMA_LABEL]: "" } }, noSchema)).toBe("held");
  });

  it("refuses no owner reference and two", () => {
    expect(objectOf({ ...meta, ownerReferences: [] })).toBe(notOurs("it has 0 owner references, not exactly one"));
    expect(objectOf({ ...meta, ownerReferences: [owner, owner] })).toBe(notOurs("it has 2 owner references, not exactly one"));
  });

  it.each(Object.keys(owner))("refuses an owner reference whose %s differs, or is missing", (field) => {
    const other = typeof owner[field as keyof typeof owner] === "boolean" ? false : `${String(owner[field as keyof typeof owner])}x`;
    const kind = field === "kind" ? `${owner.kind}x` : owner.kind;
    const name = field === "name" ? `${NAME}x` : NAME;
    const uid = field === "uid" ? `${owner.uid}x` : owner.uid;
    expect(objectOf({ ...meta, ownerReferences: [{ ...owner, [field]: other }] })).toBe(notOurs(`its owner reference names ${kind} ${name} (UID ${uid})`));
    const missing: Raw = { ...owner };
    delete missing[field];
    expect(objectOf({ ...meta, ownerReferences: [missing] })).toMatch(/^read the stored plan .*: plan chunk 1 does not belong to this plan: its owner reference names /u);
  });

  it("names what a bare owner reference lacks with ?", () => {
    expect(objectOf({ ...meta, ownerReferences: [{}] })).toBe(notOurs("its owner reference names ? ? (UID ?)"));
  });
});

describe("a chunk's bytes", () => {
  it("decodes base64 as Go's StdEncoding writes it, and nothing else (generated)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => Buffer.compare(Buffer.from(decodeChunkData(Buffer.from(bytes).toString("base64"))!), Buffer.from(bytes)) === 0),
    );
    const junk = fc.constantFrom("!", "-", "_", " ", "\n", "=", "A", "AA", "AAA", "é");
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 32 }), junk, fc.boolean(), (bytes, extra, before) => {
        const b64 = Buffer.from(bytes).toString("base64");
        return decodeChunkData(before ? `${extra}${b64}` : `${b64}${extra}`) === undefined;
      }),
    );
    expect(decodeChunkData(undefined)).toBeUndefined();
    expect(decodeChunkData("")?.length).toBe(0);
  });

  const plan = planWith();
  const slots = [0, 1, 2].map(slotOf);
  const bytesOf = (i: number) => published.documentBytes.subarray(i * CHUNK_SIZE, i * CHUNK_SIZE + slots[i]!.size);
  const bytesCheck = (i: number, bytes: Uint8Array | undefined, before = i * CHUNK_SIZE) => outcome(`chunk ${i}`, (log) => verifyChunkBytes(log, plan, slots[i]!, bytes, before));

  it("records the chunk it holds, and refuses missing, shorter, longer or other bytes", () => {
    const log = new CheckLog();
    verifyChunkBytes(log, plan, slots[2]!, bytesOf(2), 2 * CHUNK_SIZE);
    expect(log.results).toEqual([{ check: "chunk 2", ok: true, detail: `the committed object, owned by the plan, ${slots[2]!.size} bytes matching ${slots[2]!.digest}` }]);
    const bad = refused("plan chunk 2 does not match the manifest");
    expect(bytesCheck(2, undefined)).toBe(bad);
    expect(bytesCheck(2, bytesOf(2).subarray(1))).toBe(bad);
    expect(bytesCheck(2, Buffer.concat([bytesOf(2), Buffer.from("x")]))).toBe(bad);
    expect(bytesCheck(2, Buffer.from(bytesOf(2)).fill(0x20, 0, 1))).toBe(bad);
  });

  it(`refuses the chunk that takes the running total over ${MAX_PLAN_BYTES} bytes, and holds the one that reaches it (generated)`, () => {
    const size = slots[2]!.size;
    expect(bytesCheck(2, bytesOf(2), MAX_PLAN_BYTES - size)).toBe("held");
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_PLAN_BYTES - size + 1, max: 2 * MAX_PLAN_BYTES }),
        (before) => bytesCheck(2, bytesOf(2), before) === refused(`reconstructed plan exceeds ${MAX_PLAN_BYTES} bytes`),
      ),
      { numRuns: 30 },
    );
  });
});

describe("the reassembled document", () => {
  const plan = planWith();
  const bytes = published.documentBytes;

  it("holds the bytes the plan binds, and refuses a byte more, less or changed", () => {
    const log = new CheckLog();
    verifyContent(log, plan, bytes);
    expect(log.results).toEqual([{ check: "content", ok: true, detail: `${bytes.length} bytes matching ${plan.spec.contentDigest}` }]);
    const bad = refused("reconstructed plan does not match its content binding");
    expect(outcome("content", (l) => verifyContent(l, plan, bytes.subarray(1)))).toBe(bad);
    expect(outcome("content", (l) => verifyContent(l, plan, Buffer.concat([bytes, Buffer.from("\n")])))).toBe(bad);
    expect(outcome("content", (l) => verifyContent(l, plan, Buffer.from(bytes).fill(0x20, 5, 6)))).toBe(bad);
  });

  it("records a document that does not decode, or whose dialect is not the plan's, against the document check", () => {
    const documentOf = (p: PtahSchemaPlan, b: Uint8Array) => outcome("document", (l) => verifyDocument(l, p, b));
    expect(documentOf(plan, Buffer.from("{"))).toMatch(/^unsupported plan format: /u);
    expect(documentOf({ ...plan, spec: { ...plan.spec, dialect: undefined } }, bytes)).toMatch(/the document's dialect "postgres" is not the plan's ""$/u);
  });

  it("records the document's format, statement count and dialect, then the cross-checks", () => {
    for (const p of [published, publishCurrent({ statements: [{ sql: "SELECT 1;", severity: "safe", reason: "one" }] })]) {
      const parsed = parseObject("PtahSchemaPlan", p.plan).object;
      const log = new CheckLog();
      const doc = verifyDocument(log, parsed, p.documentBytes);
      const count = doc.statements.length;
      expect(log.results).toEqual([
        { check: "document", ok: true, detail: `format_version ${doc.formatVersion}, ${count} statement${count === 1 ? "" : "s"}, dialect postgres` },
        { check: "cross-checks", ok: true, detail: "state fingerprints, statement count and destructive flag match the plan" },
      ]);
    }
    const one = parseObject("PtahSchemaPlan", publishCurrent({ statements: [{ sql: "SELECT 1;", severity: "safe", reason: "one" }] }).plan).object;
    expect(outcome("cross-checks", (l) => verifyDocument(l, one, bytes))).toMatch(/^the plan document does not match the stored plan /u);
  });
});
