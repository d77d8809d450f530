// The streamed LIST page decoder (src/kube/list-page.ts) against JSON.parse, its oracle: for list
// envelopes and for arbitrary JSON, written compactly or indented, then possibly broken (a byte
// dropped, doubled or replaced, the text cut short), and cut into chunks at arbitrary byte
// offsets (inside multi-byte characters and escapes too), the decoder gives exactly the items and
// members JSON.parse gives the whole text, and refuses exactly the texts JSON.parse refuses. The
// one difference is written down: a page naming `items` twice is refused, never half read.
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidPageJson, ListPageDecoder } from "../../src/kube/list-page.ts";

const NUM = 4000;

type Outcome = { kind: "page"; items: unknown[] | undefined; envelope: unknown } | { kind: "refused"; message: string };

function decode(bytes: Buffer, cuts: readonly number[]): Outcome {
  const items: unknown[] = [];
  const decoder = new ListPageDecoder((item) => items.push(item));
  try {
    let at = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      decoder.write(bytes.subarray(at, cut));
      at = cut;
    }
    decoder.write(bytes.subarray(at));
    const envelope = decoder.end();
    return { kind: "page", items, envelope };
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidPageJson);
    return { kind: "refused", message: (err as Error).message };
  }
}

/** What JSON.parse makes of the text, in the decoder's terms. */
function oracle(bytes: Buffer): Outcome | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { kind: "page", items: [], envelope: value && typeof value === "object" ? value : {} };
  const { items, ...rest } = value as Record<string, unknown>;
  if (Array.isArray(items)) return { kind: "page", items, envelope: rest };
  return { kind: "page", items: [], envelope: value };
}

function agree(bytes: Buffer, cuts: readonly number[]): void {
  const got = decode(bytes, cuts);
  const want = oracle(bytes);
  const text = bytes.toString("utf8");
  if (want === undefined) {
    expect(got.kind, text).toBe("refused");
    return;
  }
  if (got.kind === "refused" && got.message === "the page names its items twice") {
    expect(text.split('"items"').length, text).toBeGreaterThan(2);
    return;
  }
  expect(got, text).toEqual(want);
}

const json = fc.jsonValue({ maxDepth: 4 });
const item = fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), json, { maxKeys: 6 }) }, { weight: 1, arbitrary: json });
const envelope = fc.record(
  {
    apiVersion: fc.constant("operator.ptah.run/v1alpha1"),
    kind: fc.constantFrom("PtahSchemaList", "List"),
    items: fc.array(item, { maxLength: 8 }),
    metadata: fc.record({ continue: fc.string({ unit: "binary" }), resourceVersion: fc.string() }, { requiredKeys: [] }),
    extra: json,
  },
  { requiredKeys: ["items"] },
);
// Members in any order (the decoder must not expect `items` first or last).
const page = fc.oneof(
  { weight: 6, arbitrary: envelope.chain((e) => fc.shuffledSubarray(Object.entries(e), { minLength: Object.keys(e).length }).map((entries) => Object.fromEntries(entries))) },
  { weight: 1, arbitrary: json },
);
const text = fc.tuple(page, fc.constantFrom(undefined, 1, 2, "\t", " \r\n ")).map(([p, indent]) => Buffer.from(JSON.stringify(p, null, indent) ?? "null"));
const broken = fc.tuple(text, fc.nat(), fc.constantFrom("drop", "double", "replace", "cut", "none"), fc.integer({ min: 0, max: 255 })).map(([bytes, at, how, byte]) => {
  if (bytes.length === 0 || how === "none") return bytes;
  const i = at % bytes.length;
  if (how === "drop") return Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
  if (how === "double") return Buffer.concat([bytes.subarray(0, i + 1), bytes.subarray(i)]);
  if (how === "cut") return bytes.subarray(0, i);
  const copy = Buffer.from(bytes);
  copy[i] = byte;
  return copy;
});
const chunked = (bytes: fc.Arbitrary<Buffer>) => bytes.chain((b) => fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 0, max: b.length }), { maxLength: 12 })));

describe("ListPageDecoder agrees with JSON.parse", () => {
  it("on list pages and any JSON, in any chunks", () => {
    fc.assert(
      fc.property(chunked(text), ([bytes, cuts]) => agree(bytes, cuts)),
      { numRuns: NUM },
    );
  });

  it("on broken texts: refuses what JSON.parse refuses, reads the rest as it does", () => {
    fc.assert(
      fc.property(chunked(broken), ([bytes, cuts]) => agree(bytes, cuts)),
      { numRuns: NUM },
    );
  });

  it.each([
    ["an empty body", ""],
    ["an empty object", "{}"],
    ["a trailing comma in the items", '{"items":[{},]}'],
    ["a trailing comma in the object", '{"items":[],}'],
    ["a missing comma between items", '{"items":[{}{}]}'],
    ["a literal cut short", '{"items":[tru]}'],
    ["a number at the end", '{"metadata":{},"n":12'],
    ["two values", '{"items":[]} {}'],
    ["an escaped quote at a chunk's end", '{"items":[{"a":"x\\"y"}],"metadata":{"continue":"\\\\"}}'],
    ["a multi-byte character", '{"items":[{"name":"wörter ✓ 𝄞"}]}'],
    ["__proto__ as a member", '{"__proto__":{"x":1},"items":[{"__proto__":1}]}'],
    ["items that are not an array", '{"items":{"a":1},"metadata":{}}'],
    ["null", "null"],
    ["an array at the top", "[{},{}]"],
  ])("%s", (_name, body) => {
    const bytes = Buffer.from(body);
    for (let cut = 0; cut <= bytes.length; cut++) agree(bytes, [cut]);
    agree(bytes, [...Array(bytes.length).keys()]);
  });

  it("refuses a page that names its items twice, which JSON.parse would read as the last", () => {
    expect(decode(Buffer.from('{"items":[1],"items":[2]}'), [])).toEqual({ kind: "refused", message: "the page names its items twice" });
  });

  it("hands each item over as soon as its last byte is in", () => {
    const seen: unknown[] = [];
    const decoder = new ListPageDecoder((i) => seen.push(i));
    decoder.write(Buffer.from('{"items":[{"a":1},{"b"'));
    expect(seen).toEqual([{ a: 1 }]);
    decoder.write(Buffer.from(':2}],"metadata":{"continue":"c"}}'));
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    expect(decoder.end()).toEqual({ metadata: { continue: "c" } });
  });
});
