// policy render's flag values, for generated inputs: a window's normalised text parses back to the
// same window (nothing is lost or invented on the way into the CEL and the messages), its days are
// exactly the days named, ranges wrap past Saturday; a freeze keeps its dates and refuses FROM > TO.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_NAMES, parseFreeze, parseWindow } from "../../../src/commands/policy/policy-spec.ts";
import { UsageError } from "../../../src/errors.ts";

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"];
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const dayName = (d: number, upper: boolean) => (upper ? DAY_NAMES[d]!.toUpperCase() : DAY_NAMES[d]!);

/** A DAYS part: single days and ranges (which may wrap), in any order and case, with what it names. */
const daysPart = fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.option(fc.integer({ min: 0, max: 6 })), fc.boolean()), { minLength: 1, maxLength: 4 }).map((parts) => {
  const named = new Set<number>();
  const text = parts
    .map(([a, b, upper]) => {
      if (b === null) {
        named.add(a);
        return dayName(a, upper);
      }
      for (let d = a; ; d = (d + 1) % 7) {
        named.add(d);
        if (d === b) break;
      }
      return `${dayName(a, upper)}-${dayName(b, upper)}`;
    })
    .join(",");
  return { text, named: [...named].sort((x, y) => x - y) };
});

const hours = fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1440 })).filter(([s, e]) => s < e);

describe("policy render's windows and freezes, generated", () => {
  it("a window names exactly its days and hours, and its normalised text parses back to the same window", () => {
    fc.assert(
      fc.property(daysPart, hours, fc.constantFrom(...ZONES), ({ text, named }, [start, end], zone) => {
        const w = parseWindow(`${text} ${hhmm(start)}-${hhmm(end)} ${zone}`);
        expect(w).toMatchObject({ days: named, start, end, zone });
        expect(parseWindow(w.text)).toEqual(w);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses hours that do not move forward within a day", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), (a, b) => {
        fc.pre(b <= a);
        expect(() => parseWindow(`Mon ${hhmm(a)}-${hhmm(b)} UTC`)).toThrow(UsageError);
      }),
    );
  });

  it("a freeze keeps its dates and zone, and refuses FROM later than TO", () => {
    const day = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, fc.constantFrom(...ZONES), (a, b, zone) => {
        const text = `${a}..${b} ${zone}`;
        if (a > b) expect(() => parseFreeze(text, "UTC")).toThrow(UsageError);
        else expect(parseFreeze(text, "UTC")).toEqual({ from: a, to: b, zone });
      }),
      { numRuns: 500 },
    );
  });
});
