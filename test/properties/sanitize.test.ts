// Property: sanitize never lets a control character, DEL, C1 control, bidi override/isolate or
// line separator through, and keeps every printable character exactly as it was.
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { isTerminalSafe, sanitize, sanitizeMultiline } from "../../src/render/sanitize.ts";
import { Tally, runs } from "./runs.ts";

const tally = new Tally("sanitize");
afterAll(() => console.log(tally.summary()));

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

const HOSTILE = [
  "\u001b[31m",
  "\u001b]0;title\u0007",
  "\u001b]8;;http://x\u001b\\",
  "\u001bP",
  "\u009b2J",
  "\u009d0;t\u009c",
  "\u0000",
  "\u0007",
  "\b",
  "\r",
  "\n",
  "\t",
  "\u007f",
  "\u0085",
  "\u202e",
  "\u202d",
  "\u2066",
  "\u2069",
  "\u2028",
  "\u2029",
  "\u200f",
  "\ufeff",
  "\ud800",
  "\udfff",
  "🚀",
  "é",
  "e\u0301",
  "数据",
];

/** Strings mixing escape sequences, every control range, Unicode edge cases and plain text. */
const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 24 })
  .map((parts) => parts.join(""));

const safeString = fc.string({ unit: "binary", maxLength: 40 }).map((s) => s.replace(new RegExp(UNSAFE.source, "gu"), ""));

describe("sanitize (property)", () => {
  const n = runs(10_000);

  it("never outputs a C0/C1 control, DEL, bidi control or line separator", () =>
    tally.check(
      "no unsafe character survives",
      fc.property(hostileString, (s) => !UNSAFE.test(sanitize(s)) && isTerminalSafe(sanitize(s))),
      n,
    ));

  it("keeps text without control characters unchanged", () =>
    tally.check(
      "printable text unchanged",
      fc.property(safeString, (s) => sanitize(s) === s),
      n,
    ));

  it("works character by character: sanitising a concatenation is concatenating the sanitised parts", () =>
    tally.check(
      "per-character",
      fc.property(hostileString, hostileString, (a, b) => sanitize(a + b) === sanitize(a) + sanitize(b)),
      n,
    ));

  it("is idempotent", () =>
    tally.check(
      "idempotent",
      fc.property(hostileString, (s) => sanitize(sanitize(s)) === sanitize(s)),
      n,
    ));

  it("keeps the printable characters in order: only unsafe ones are rewritten", () =>
    tally.check(
      "order kept",
      fc.property(hostileString, (s) => {
        // (An array, not a joined string: joining could pair up two lone surrogates.)
        const kept = [...s].filter((ch) => !UNSAFE.test(ch));
        // Every kept character appears in the output in the same order.
        let i = 0;
        const out = sanitize(s);
        for (const ch of kept) {
          const at = out.indexOf(ch, i);
          if (at < 0) return false;
          i = at + ch.length;
        }
        return true;
      }),
      n,
    ));

  it("sanitizeMultiline keeps exactly the line breaks and nothing else unsafe", () =>
    tally.check(
      "multiline",
      fc.property(hostileString, (s) => {
        const out = sanitizeMultiline(s);
        return out.split("\n").length === s.split("\n").length && out.split("\n").every((line) => !UNSAFE.test(line));
      }),
      n,
    ));
});
