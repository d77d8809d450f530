// kubectl's AGE column (apimachinery duration.HumanDuration), at every boundary of its format.
import { describe, expect, it } from "vitest";
import { formatAge, formatTimestamp, humanDuration } from "../../src/render/age.ts";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe("humanDuration", () => {
  it.each([
    { name: "no time at all prints 0s", ms: 0, age: "0s" },
    { name: "under a second prints 0s", ms: 999, age: "0s" },
    { name: "95 seconds print as seconds", ms: 95 * S, age: "95s" },
    { name: "119 seconds are still seconds", ms: 119 * S + 999, age: "119s" },
    { name: "two minutes switch to minutes", ms: 2 * M, age: "2m" },
    { name: "3m20s prints minutes and seconds", ms: 3 * M + 20 * S, age: "3m20s" },
    { name: "3m with zero seconds drops the seconds", ms: 3 * M, age: "3m" },
    { name: "9m59s is the last minutes-and-seconds age", ms: 9 * M + 59 * S, age: "9m59s" },
    { name: "ten minutes print minutes only", ms: 10 * M + 30 * S, age: "10m" },
    { name: "150 minutes print as minutes", ms: 150 * M, age: "150m" },
    { name: "179 minutes are still minutes", ms: 179 * M + 59 * S, age: "179m" },
    { name: "three hours switch to hours", ms: 3 * H, age: "3h" },
    { name: "4h12m prints hours and minutes", ms: 4 * H + 12 * M + 30 * S, age: "4h12m" },
    { name: "7h59m is the last hours-and-minutes age", ms: 8 * H - 1, age: "7h59m" },
    { name: "eight hours print hours only", ms: 8 * H + 59 * M, age: "8h" },
    { name: "30 hours print as hours", ms: 30 * H, age: "30h" },
    { name: "47 hours are still hours", ms: 48 * H - 1, age: "47h" },
    { name: "48 hours switch to days", ms: 48 * H, age: "2d" },
    { name: "3d5h prints days and hours", ms: 3 * D + 5 * H, age: "3d5h" },
    { name: "7d23h is the last days-and-hours age", ms: 8 * D - 1, age: "7d23h" },
    { name: "eight days print days only", ms: 8 * D + 23 * H, age: "8d" },
    { name: "120 days print as days", ms: 120 * D, age: "120d" },
    { name: "729 days are still days", ms: 2 * Y - 1, age: "729d" },
    { name: "two years switch to years", ms: 2 * Y, age: "2y" },
    { name: "2y45d prints years and days", ms: 2 * Y + 45 * D, age: "2y45d" },
    { name: "7y364d is the last years-and-days age", ms: 8 * Y - 1, age: "7y364d" },
    { name: "9 years print years only", ms: 9 * Y + 100 * D, age: "9y" },
    { name: "a clock skew of -1s prints 0s", ms: -1 * S, age: "0s" },
    { name: "a skew just short of -2s still prints 0s (Go truncates toward zero)", ms: -1999, age: "0s" },
    { name: "half a second in the future prints 0s", ms: -500, age: "0s" },
    { name: "a skew of -2s prints <invalid>", ms: -2 * S, age: "<invalid>" },
    { name: "a timestamp an hour ahead prints <invalid>", ms: -H, age: "<invalid>" },
  ])("$name", ({ ms, age }) => {
    expect(humanDuration(ms)).toBe(age);
  });
});

describe("formatAge and formatTimestamp", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  it.each([
    { name: "an hour-old timestamp is 60m", ts: "2026-11-30T11:00:00Z", age: "60m" },
    { name: "a missing timestamp is <unknown>", ts: undefined, age: "<unknown>" },
    { name: "an unparsable timestamp is <unknown>", ts: "yesterday", age: "<unknown>" },
    { name: "fractional seconds count", ts: "2026-11-30T11:58:20.5Z", age: "99s" },
  ])("$name", ({ ts, age }) => {
    expect(formatAge(ts, now)).toBe(age);
  });

  it.each([
    { name: "drops milliseconds", ts: "2026-11-30T11:58:20.500Z", out: "2026-11-30T11:58:20Z" },
    { name: "converts offsets to UTC", ts: "2026-11-30T13:00:00+02:00", out: "2026-11-30T11:00:00Z" },
    { name: "keeps an unparsable value as it is", ts: "soon", out: "soon" },
    { name: "prints nothing for no timestamp", ts: undefined, out: "" },
  ])("formatTimestamp $name", ({ ts, out }) => {
    expect(formatTimestamp(ts)).toBe(out);
  });
});
