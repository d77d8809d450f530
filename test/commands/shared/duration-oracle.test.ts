// Property: parseGoDuration (src/commands/shared/duration.ts) is Go's time.ParseDuration —
// the same nanoseconds for every duration Go accepts, and a refusal of the same kind (invalid,
// missing unit, unknown unit) for every one it refuses. test/oracle/duration (Go's own parser)
// is the oracle, fed every generated string in one batch through one process. Strings are Go's
// grammar with every part optional or stretched (signs, empty and 25-digit integers and
// fractions, ".", every unit and near-units, several segments), int64's edges, and free text.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseGoDuration } from "../../../src/commands/shared/duration.ts";
import { askOracle, hasGo } from "../../oracle/build.ts";
import { toolsRequired } from "../../support/machine-tools.ts";
import { runs } from "../../properties/runs.ts";

const CI = process.env.CI === "true";
const NUM = runs(CI ? 20_000 : 5_000);
const noGo = !hasGo() && !toolsRequired() ? "no Go toolchain on PATH to build test/oracle/duration" : false;

const digits = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: max });
const UNITS = ["ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h"];
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...UNITS) },
  { weight: 1, arbitrary: fc.constantFrom("", "d", "S", "H", "mss", "sec", "µ", "μ", "u", "n", "µm", " s", "s ", "\u00b5S", "e", "E3s", "constructor", "__proto__", "toString") },
);
const segment = fc.tuple(fc.oneof(digits(3), digits(25)), fc.constantFrom("", "."), fc.oneof(digits(3), digits(25)), unit).map(([i, dot, f, u]) => `${i}${dot}${dot ? f : ""}${u}`);
const structured = fc.tuple(fc.constantFrom("", "", "+", "-", "--", "+-"), fc.array(segment, { minLength: 0, maxLength: 4 })).map(([sign, parts]) => sign + parts.join(""));
const EDGES = [
  // Names every JavaScript object inherits are unknown units, as any other word.
  "1constructor",
  "1__proto__",
  "1toString",
  "0",
  "-0",
  "+0",
  "00",
  "0.0",
  ".",
  ".s",
  "-.s",
  "5.s",
  ".5s",
  "1.s",
  "1e3s",
  "",
  "+",
  "-",
  "9223372036854775807ns",
  "9223372036854775808ns",
  "-9223372036854775808ns",
  "-9223372036854775809ns",
  "2562047h47m16.854775807s",
  "2562047h47m16.854775808s",
  "-2562047h47m16.854775808s",
  "2562047h",
  "2562048h",
  "9223372036s854775807ns",
  "0.000000001s",
  "0.0000000009s",
  "1.00000000000000000000000001h",
  "99999999999999999999ns",
  "0.9999999999999999999999999999h",
  "1h1h1h",
];
const free = fc.string({ unit: fc.constantFrom(..."0123456789.+-nsuµμmhxd \t", "é"), maxLength: 12 });
const input = fc.oneof(
  { weight: 6, arbitrary: structured },
  { weight: 2, arbitrary: free },
  { weight: 1, arbitrary: fc.constantFrom(...EDGES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

interface Answer {
  readonly ns?: string;
  readonly error?: string;
}

/** Go's error text → the kind parseGoDuration names. */
function kindOf(goError: string): string {
  if (goError.startsWith("time: missing unit in duration ")) return "missing unit";
  if (goError.startsWith("time: unknown unit ")) return "unknown unit";
  if (goError.startsWith("time: invalid duration ")) return "invalid duration";
  return `unexpected: ${goError}`;
}

let compared = 0;
afterAll(() => console.log(`duration oracle (Go time.ParseDuration): ${compared} generated strings, the same nanoseconds or the same kind of refusal in every one`));

describe.skipIf(noGo)("Go durations against Go's time.ParseDuration (property)", () => {
  it(`parses ${NUM} generated strings and ${EDGES.length} edges exactly as Go does`, () => {
    const seed = Number.parseInt(process.env.PTAH_PROPERTY_SEED ?? "", 10) || Date.now() % 2 ** 31;
    // The API never carries a lone surrogate and argv is UTF-8: neither do these strings.
    const cases = [...EDGES, ...fc.sample(input, { numRuns: NUM, seed })].filter((s) => !/[\ud800-\udfff]/u.test(s));
    const answers = askOracle<Answer>("duration", cases);
    let accepted = 0;
    cases.forEach((s, i) => {
      const go = answers[i]!;
      const ours = parseGoDuration(s);
      const why = `${JSON.stringify(s)} (seed ${seed}; PTAH_PROPERTY_SEED=${seed} reproduces): go ${JSON.stringify(go)}, ours ${JSON.stringify(ours, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
      if (go.ns !== undefined) {
        accepted++;
        expect("ns" in ours ? ours.ns.toString() : ours.error, why).toBe(go.ns);
      } else {
        expect("error" in ours ? ours.error.replace(/^unknown unit .*/su, "unknown unit") : `accepted ${ours.ns}`, why).toBe(kindOf(go.error!));
      }
      compared++;
    });
    // The generator reaches both sides: not only refusals.
    expect(accepted).toBeGreaterThan(cases.length / 10);
  });
});
