// Terminal safety: cluster strings can never move the cursor, recolour, retitle or reorder text.
import { describe, expect, it } from "vitest";
import { isTerminalSafe, sanitize, sanitizeMultiline } from "../../src/render/sanitize.ts";

describe("sanitize", () => {
  it.each([
    { name: "plain ASCII is unchanged", input: "storefront-v1 (app)", out: "storefront-v1 (app)" },
    { name: "non-Latin text and emoji are unchanged", input: "схема 数据库 ✓ 🚀", out: "схема 数据库 ✓ 🚀" },
    { name: "a colour escape is neutralised", input: "\u001b[31mred\u001b[0m", out: "^[[31mred^[[0m" },
    { name: "an OSC title sequence is neutralised", input: "\u001b]0;owned\u0007", out: "^[]0;owned\\x07" },
    { name: "newlines and tabs become visible escapes", input: "a\nb\r\tc", out: "a\\nb\\r\\tc" },
    { name: "NUL and other C0 controls become \\x escapes", input: "a\u0000b\u0008c", out: "a\\x00b\\x08c" },
    { name: "DEL is escaped", input: "a\u007fb", out: "a\\x7fb" },
    { name: "a C1 CSI is escaped", input: "a\u009b31mb", out: "a\\x9b31mb" },
    { name: "a right-to-left override is escaped", input: "txt.\u202egpj", out: "txt.\\u202egpj" },
    { name: "bidi isolates are escaped", input: "\u2066a\u2069", out: "\\u2066a\\u2069" },
    { name: "line and paragraph separators are escaped", input: "a\u2028b\u2029c", out: "a\\u2028b\\u2029c" },
  ])("$name", ({ input, out }) => {
    expect(sanitize(input)).toBe(out);
    expect(isTerminalSafe(out)).toBe(true);
  });

  it.each([
    { name: "keeps line breaks and drops a CR before them", input: "SELECT 1;\r\nSELECT 2;", out: "SELECT 1;\nSELECT 2;" },
    { name: "still escapes controls within lines", input: "-- \u001b[2J\nDROP", out: "-- ^[[2J\nDROP" },
  ])("sanitizeMultiline $name", ({ input, out }) => {
    expect(sanitizeMultiline(input)).toBe(out);
  });

  it("isTerminalSafe answers consistently on repeated calls (no regex lastIndex state)", () => {
    for (let i = 0; i < 3; i++) {
      expect(isTerminalSafe("a\u001bb")).toBe(false);
      expect(isTerminalSafe("ab")).toBe(true);
    }
  });
});
