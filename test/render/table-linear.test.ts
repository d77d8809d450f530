// renderTable draws printable-ASCII tables itself, in linear time (cli-table3's layout is
// quadratic in the number of rows: the benchmark (test/bench/) measured 27 s for `approvals -A` at 15,000
// approvals). The lines must be exactly cli-table3's, with or without colour, headers and indent;
// anything else (wide characters, line breaks, ragged rows) still goes through cli-table3.
import Table from "cli-table3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { paint } from "../../src/render/color.ts";
import { renderTable, type TableOptions } from "../../src/render/table.ts";

/** The renderer as it was: cli-table3 with every border blanked, trailing blanks trimmed. */
function viaCliTable3(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const all = options.noHeaders ? rows : [headers, ...rows];
  if (all.length === 0) return "";
  const chars = Object.fromEntries(
    ["top", "top-mid", "top-left", "top-right", "bottom", "bottom-mid", "bottom-left", "bottom-right", "left", "left-mid", "mid", "mid-mid", "right", "right-mid"].map((k) => [
      k,
      "",
    ]),
  );
  const table = new Table({
    chars: { ...chars, middle: "   " },
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
    wordWrap: false,
  });
  for (const row of all) table.push([...row]);
  return (
    table
      .toString()
      .split("\n")
      .map((line) => (options.indent ?? "") + line.replace(/\s+$/u, ""))
      .join("\n") + "\n"
  );
}

const asciiCell = fc.string({ unit: fc.constantFrom(..." abcXYZ019-_/.:,()<>*".split("")), maxLength: 12 });
const cell = fc.oneof(
  { weight: 4, arbitrary: asciiCell },
  { weight: 1, arbitrary: asciiCell.chain((s) => fc.constantFrom("red", "green", "yellow").map((c) => paint(c as "red", s, true))) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "  x  ", "ünïcode", "宽字符", "e\u0301", "tab\there", "two\nlines", "🙂") },
);

describe("renderTable matches cli-table3", () => {
  it("for any table, coloured or not, with or without headers and indent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) =>
          fc.record({
            headers: fc.array(cell, { minLength: n, maxLength: n }),
            rows: fc.array(fc.array(cell, { minLength: n, maxLength: n }), { maxLength: 8 }),
            noHeaders: fc.boolean(),
            indent: fc.constantFrom("", "  "),
          }),
        ),
        ({ headers, rows, noHeaders, indent }) => {
          const options = { noHeaders, indent };
          expect(renderTable(headers, rows, options)).toBe(viaCliTable3(headers, rows, options));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("for ragged rows (falls back to cli-table3)", () => {
    const rows = [["a", "b", "c"], ["d"], ["e", "f"]];
    expect(renderTable(["X", "Y", "Z"], rows)).toBe(viaCliTable3(["X", "Y", "Z"], rows));
  });

  it("draws 20,000 rows, column widths from every row", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`ns-${i % 10}`, `schema-${i}`, "AwaitingApproval", `${i % 60}m`]);
    const out = renderTable(["NAMESPACE", "NAME", "PHASE", "AGE"], rows);
    expect(out.split("\n")).toHaveLength(20_002);
    expect(out.split("\n")[1]).toBe("ns-0        schema-0       AwaitingApproval   0m");
  });
});
