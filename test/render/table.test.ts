// kubectl's borderless table and colour that only repeats the words.
import { describe, expect, it } from "vitest";
import { colorForStatus, paint } from "../../src/render/color.ts";
import { renderTable, visibleWidth } from "../../src/render/table.ts";

describe("renderTable", () => {
  it.each([
    {
      name: "separates columns by three spaces and never pads the last one",
      headers: ["NAME", "PHASE", "AGE"],
      rows: [
        ["storefront", "AwaitingApproval", "60m"],
        ["orders", "InSync", "2d"],
      ],
      options: {},
      out: "NAME         PHASE              AGE\nstorefront   AwaitingApproval   60m\norders       InSync             2d\n",
    },
    {
      name: "drops the header line with --no-headers",
      headers: ["NAME", "PHASE"],
      rows: [["a", "b"]],
      options: { noHeaders: true },
      out: "a   b\n",
    },
    {
      name: "indents every line inside a detail view",
      headers: ["TYPE", "STATUS"],
      rows: [["Ready", "False"]],
      options: { indent: "  " },
      out: "  TYPE    STATUS\n  Ready   False\n",
    },
    { name: "prints nothing for no rows and no headers", headers: ["A"], rows: [], options: { noHeaders: true }, out: "" },
    { name: "prints only the headers for no rows", headers: ["NAME", "AGE"], rows: [], options: {}, out: "NAME   AGE\n" },
    {
      name: "trims a blank last cell instead of leaving trailing spaces",
      headers: ["NAME", "MESSAGE"],
      rows: [
        ["a", ""],
        ["bb", "x"],
      ],
      options: {},
      out: "NAME   MESSAGE\na\nbb     x\n",
    },
  ])("$name", ({ headers, rows, options, out }) => {
    expect(renderTable(headers, rows, options)).toBe(out);
  });

  it("aligns coloured cells by their visible width", () => {
    const out = renderTable(
      ["STATUS", "REASON"],
      [
        [paint("red", "False", true), "X"],
        ["True", "Y"],
      ],
    );
    expect(out.replace(/\u001b\[\d+m/gu, "")).toBe("STATUS   REASON\nFalse    X\nTrue     Y\n");
    expect(visibleWidth(paint("green", "True", true))).toBe(4);
  });
});

describe("colour", () => {
  it.each([
    { name: "True is green", word: "True", color: "green" },
    { name: "False is red", word: "False", color: "red" },
    { name: "AwaitingApproval is yellow", word: "AwaitingApproval", color: "yellow" },
    { name: "an unknown word has no colour", word: "Whatever", color: undefined },
  ])("$name", ({ word, color }) => {
    expect(colorForStatus(word)).toBe(color);
  });

  it("adds escapes only when enabled, and never around empty text", () => {
    expect(paint("red", "False", false)).toBe("False");
    expect(paint("red", "False", true)).toBe("\u001b[31mFalse\u001b[39m");
    expect(paint("red", "", true)).toBe("");
  });
});
