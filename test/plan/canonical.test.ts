import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJSON, canonicalJSONBytes, digestBytes, digestCanonicalJSON, struct, type CanonicalValue } from "../../src/plan/canonical.ts";

describe("canonicalJSON", () => {
  it.each<{ name: string; value: CanonicalValue; want: string }>([
    { name: "writes null, booleans and integers compactly", value: [null, true, false, 0, -1, 42], want: "[null,true,false,0,-1,42]" },
    {
      name: "writes floats with Go's shortest digits",
      value: [1.5, 0.1, 1e-6, 1e-7, 1e21, 123456789012345680000, -0],
      want: "[1.5,0.1,0.000001,1e-7,1e+21,123456789012345680000,-0]",
    },
    { name: "writes a bigint as an integer", value: 9007199254740993n, want: "9007199254740993" },
    {
      name: "keeps a struct's fields in the given order",
      value: struct([
        ["z", 1],
        ["a", 2],
        ["10", 3],
      ]),
      want: '{"z":1,"a":2,"10":3}',
    },
    { name: "sorts a map's keys", value: { z: 1, a: 2, m: { y: 1, b: 2 } }, want: '{"a":2,"m":{"b":2,"y":1},"z":1}' },
    { name: "sorts map keys by UTF-8 bytes, not UTF-16 units", value: { "\uff61": 1, "\u{1f600}": 2 }, want: '{"\uff61":1,"\u{1f600}":2}' },
    { name: "escapes < > & as Go's HTML-safe encoder does", value: "<a href='x'>&amp;</a>", want: "\"\\u003ca href='x'\\u003e\\u0026amp;\\u003c/a\\u003e\"" },
    { name: "escapes U+2028 and U+2029", value: "a\u2028b\u2029c", want: '"a\\u2028b\\u2029c"' },
    { name: "uses short escapes for quote, backslash, \\n \\r \\t \\b \\f", value: '"\\\n\r\t\b\f', want: '"\\"\\\\\\n\\r\\t\\b\\f"' },
    { name: "escapes other control characters as lowercase \\u00XX", value: "\u0000\u001b\u001f", want: '"\\u0000\\u001b\\u001f"' },
    { name: "leaves DEL and non-ASCII as UTF-8", value: "\u007fé€😀", want: '"\u007fé€😀"' },
    { name: "replaces a lone surrogate with an escaped U+FFFD", value: "a\ud800b", want: '"a\\ufffdb"' },
    { name: "does not escape a slash", value: "a/b", want: '"a/b"' },
    {
      name: "writes empty containers",
      value: struct([
        ["a", []],
        ["b", {}],
      ]),
      want: '{"a":[],"b":{}}',
    },
  ])("$name", ({ value, want }) => {
    expect(canonicalJSON(value)).toBe(want);
  });

  it("refuses a number with no JSON form", () => {
    expect(() => canonicalJSON(Number.NaN)).toThrow(/no form/);
    expect(() => canonicalJSON(Number.POSITIVE_INFINITY)).toThrow(/no form/);
  });

  it("emits UTF-8 bytes", () => {
    expect([...canonicalJSONBytes("é")]).toEqual([0x22, 0xc3, 0xa9, 0x22]);
  });

  it("digests as sha256: and lowercase hex", () => {
    expect(digestBytes(new Uint8Array())).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(digestCanonicalJSON({ b: 1, a: "<" })).toBe(digestBytes(Buffer.from('{"a":"\\u003c","b":1}')));
  });
});

/**
 * JSON values whose objects are plain (so they are Go maps: sorted keys), as JSON would carry
 * them (no -0) and with well-formed strings (a lone surrogate cannot be UTF-8; see the table).
 */
const jsonValue = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
  .filter((v) => !/\\ud[89a-f][0-9a-f]{2}/i.test(JSON.stringify(v)));

function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedStringify((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

describe("canonicalJSON properties", () => {
  it("parses back to the same value", () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = canonicalJSON(value as CanonicalValue);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("never contains raw <, >, &, U+2028, U+2029 or control characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const text = canonicalJSON(s);
        expect(text).not.toMatch(/[<>&\u2028\u2029\u0000-\u001f]/);
      }),
    );
  });

  it("equals JSON.stringify with sorted keys once the HTML-safe escapes are undone", () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = canonicalJSON(value as CanonicalValue)
          .replaceAll("\\u003c", "<")
          .replaceAll("\\u003e", ">")
          .replaceAll("\\u0026", "&")
          .replaceAll("\\u2028", "\u2028")
          .replaceAll("\\u2029", "\u2029");
        expect(text).toBe(sortedStringify(value).replaceAll("\\u2028", "\u2028").replaceAll("\\u2029", "\u2029"));
      }),
    );
  });
});
