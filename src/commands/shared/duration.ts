// Durations as kubectl and Go write them. parseGoDuration is Go's time.ParseDuration restated
// whole — `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` or a bare "0", the units ns, us, µs, μs, ms, s, m,
// h, fractions at any place (".5s", "5.s", "1.5h"), int64 nanoseconds with Go's overflow rules
// — and is checked against Go's own on generated input (test/commands/shared/duration-oracle.test.ts).
// parseDurationFlag is clientcmd's ParseTimeout on top: a non-negative integer is seconds.
import { UsageError } from "../../errors.ts";

// A Map, not an object literal: a unit is the user's text, and "1constructor" or "1__proto__" must
// be an unknown unit, not a property every object inherits.
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n], // U+00B5 MICRO SIGN
  ["\u03bcs", 1_000n], // U+03BC GREEK SMALL LETTER MU
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);
const LIMIT = 1n << 63n;

/** Go's answer: nanoseconds, or why not, in Go's words without the quoted input. */
export type GoDuration = { readonly ns: bigint } | { readonly error: "invalid duration" | "missing unit" | `unknown unit ${string}` };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

export function parseGoDuration(orig: string): GoDuration {
  let s = orig;
  let neg = false;
  if (s[0] === "-" || s[0] === "+") {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return { ns: 0n };
  if (s === "") return { error: "invalid duration" };
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s[0]))) return { error: "invalid duration" };
    // [0-9]*: Go stops with an error once the integer passes 2^63.
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      if (v > LIMIT / 10n) return { error: "invalid duration" };
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) return { error: "invalid duration" };
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?: digits past int64's precision are consumed and ignored, as Go does.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return { error: "invalid duration" };
    let k = 0;
    while (k < s.length && s[k] !== "." && !isDigit(s[k])) k++;
    if (k === 0) return { error: "missing unit" };
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(u);
    if (unit === undefined) return { error: `unknown unit ${JSON.stringify(u)}` };
    if (v > LIMIT / unit) return { error: "invalid duration" };
    v *= unit;
    if (f > 0n) {
      // float64 arithmetic, exactly as Go computes the fraction's nanoseconds.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) return { error: "invalid duration" };
    }
    d += v;
    if (d > LIMIT) return { error: "invalid duration" };
  }
  if (neg) return { ns: -d };
  if (d > LIMIT - 1n) return { error: "invalid duration" };
  return { ns: d };
}

/** The longest a Node timer waits (2^31-1 ms, about 24.8 days); longer is capped to it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A duration flag as kubectl reads --request-timeout (clientcmd.ParseTimeout): a non-negative
 * integer is seconds (`45`, `+45`, `00`), anything else a Go duration (`.5s`, `1h30m`, `-1s`).
 * In milliseconds for a timer: a positive duration below 1 ms is 1 ms (never 0, which means
 * "none"), a negative one -1 (each flag says what negative means), and at most MAX_TIMER_MS.
 */
export function parseDurationFlag(text: string, flag: string): number {
  let ns: bigint;
  if (/^[+-]?\d+$/u.test(text) && BigInt(text) >= 0n && BigInt(text) < LIMIT) ns = BigInt(text) * 1_000_000_000n;
  else {
    const d = parseGoDuration(text);
    if ("error" in d) {
      throw new UsageError(`invalid duration ${JSON.stringify(text)} for --${flag}: ${d.error}; give seconds (45) or Go's form (30s, 1.5m, 2h45m, .5s; units ns, us, ms, s, m, h)`);
    }
    ns = d.ns;
  }
  if (ns < 0n) return -1;
  if (ns === 0n) return 0;
  const ms = (ns + 999_999n) / 1_000_000n;
  return ms > BigInt(MAX_TIMER_MS) ? MAX_TIMER_MS : Number(ms);
}
