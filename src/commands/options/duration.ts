// Durations as kubectl and Go write them.
import { UsageError } from "../../errors.ts";

/** Go duration strings (300ms, 1.5h, 2h45m) and kubectl's bare integer seconds. */
export function parseDurationFlag(text: string, flag: string): number {
  const t = text.trim();
  if (/^\d+$/u.test(t)) return Number(t) * 1000;
  if (t === "0") return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/guy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  if (t === "" || matched !== t.length) {
    throw new UsageError(`invalid duration "${t}" for --${flag}: use a number with a unit, e.g. 30s, 1m, 2h`);
  }
  return Math.round(total);
}
