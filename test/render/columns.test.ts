// render/columns.ts: the custom-columns parser (property), Go's value printing and the label
// cells (tables), the sort order (missing first, numbers numerically).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goValue, labelCells, labelHeaders, parseCustomColumns, sortByField } from "../../src/render/columns.ts";

const header = fc.stringMatching(/^[A-Z][A-Z0-9 _-]{0,12}$/u);
const segment = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,8}$/u);
const fieldPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("."));

describe("parseCustomColumns", () => {
  it("reads back every HEADER:PATH pair, in the relaxed path forms kubectl accepts", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(header, fieldPath, fc.constantFrom("", ".", "{.")), { minLength: 1, maxLength: 6 }), (cols) => {
        const spec = cols.map(([h, p, form]) => `${h}:${form}${p}${form === "{." ? "}" : ""}`).join(",");
        const parsed = parseCustomColumns(spec);
        expect(parsed.map((c) => c.header)).toEqual(cols.map(([h]) => h));
        expect(parsed.map((c) => c.template)).toEqual(cols.map(([, p]) => `{.${p}}`));
      }),
      { numRuns: 300 },
    );
  });
});

describe("goValue", () => {
  it.each([
    ["text", "text"],
    [3, "3"],
    [true, "true"],
    [null, "<nil>"],
    [["a", 1], "[a 1]"],
    [{ b: 1, a: { c: "x" } }, "map[a:map[c:x] b:1]"],
  ])("%j → %s", (value, text) => {
    expect(goValue(value)).toBe(text);
  });
});

describe("label columns", () => {
  it("headers are the upper-cased last segment; cells empty when absent, LABELS sorted as k=v strings", () => {
    expect(labelHeaders(["app.kubernetes.io/name", "tier"], true)).toEqual(["NAME", "TIER", "LABELS"]);
    expect(labelCells({ app: "shop", "app.kubernetes.io/name": "x" }, ["tier", "app"], true)).toEqual(["", "shop", "app.kubernetes.io/name=x,app=shop"]);
    expect(labelCells(undefined, [], true)).toEqual(["<none>"]);
  });

  it("a label key that every JavaScript object inherits is an absent label, not the inherited value", () => {
    expect(labelCells({ app: "shop" }, ["constructor", "__proto__", "toString", "app"], false)).toEqual(["", "", "", "shop"]);
    expect(labelCells(undefined, ["constructor"], false)).toEqual([""]);
  });
});

describe("sortByField", () => {
  it("puts objects without the field first and compares numbers as numbers", () => {
    const items = [{ n: 10 }, {}, { n: 9 }].map((o, i) => ({ id: i, raw: o as Record<string, unknown> }));
    expect(sortByField(items, (i) => i.raw, "{.n}").map((i) => i.id)).toEqual([1, 2, 0]);
  });
});
