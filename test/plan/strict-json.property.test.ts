// The plan document's strict JSON reader (src/plan/strict-json.ts) against V8's JSON.parse, the
// oracle: any JSON text (any spacing, any escapes) reads to the same value, keys in their stored
// order; a text JSON.parse refuses is refused; what JSON.parse lets through and a plan must not
// carry (a key twice) is refused too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStrictJson, StrictJsonError } from "../../src/plan/strict-json.ts";

// Strings rich in what needs escaping: quotes, backslashes, controls, newlines, astral characters.
const text = fc.stringMatching(/^[a-z"\\\n\t\u0001\u001f é€😀\u2028/]*$/u);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), text, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(text, tie("value"), { maxKeys: 5 }),
})).value;

/** JSON.stringify's text with its escapes written another legal way (\u00XX, \/) and spacing added. */
function respelled(value: unknown, seed: number): string {
  const base = JSON.stringify(value, null, seed % 3);
  return seed % 2 === 0 ? base : base.replace(/\\n/gu, "\\u000a").replace(/\//gu, "\\/");
}

describe("parseStrictJson", () => {
  it("reads any JSON text as JSON.parse does, keys in stored order", () => {
    fc.assert(
      fc.property(json, fc.nat(), (value, seed) => {
        const source = respelled(value, seed);
        const ours = parseStrictJson(source);
        expect(ours).toEqual(JSON.parse(source));
        expect(JSON.stringify(ours)).toBe(JSON.stringify(JSON.parse(source)));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads long strings with an escape every few characters whole (the plan's SQL)", () => {
    const sql = Array.from({ length: 20_000 }, (_, i) => `SELECT "c${i}" FROM t WHERE x = 'a\\b';`).join("\n");
    const doc = { statements: [{ sql }, { sql: `${sql}😀` }] };
    expect(parseStrictJson(JSON.stringify(doc))).toEqual(doc);
  });

  it("refuses what JSON.parse refuses", () => {
    const broken = fc.tuple(json, fc.nat(), fc.nat()).map(([value, at, drop]) => {
      const source = JSON.stringify(value);
      const i = at % (source.length + 1);
      return drop % 2 === 0 ? source.slice(0, i) + source.slice(i + 1) : `${source.slice(0, i)}\\${source.slice(i)}`;
    });
    fc.assert(
      fc.property(broken, (source) => {
        let oracle = true;
        try {
          JSON.parse(source);
        } catch {
          oracle = false;
        }
        if (oracle) return;
        expect(() => parseStrictJson(source)).toThrow(StrictJsonError);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['{"a":1,"a":2}', '{"x":{"k":"1","k":"2"}}', '[{"sql":"a","sql":"b"}]', '{"\\u0061":1,"a":2}'])("refuses a key written twice: %s", (source) => {
    expect(() => parseStrictJson(source)).toThrow(StrictJsonError);
  });
});
