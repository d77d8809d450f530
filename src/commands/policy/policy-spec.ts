// What `policy render` is asked for, parsed from its flags (pure): a quorum of endorsers for risky
// plans, weekly change windows, freezes and a break-glass group. Every value is checked here, so
// that nothing the renderer writes into CEL can be anything but the shapes below.
import { UsageError } from "../../errors.ts";

export type Risk = "destructive" | "privileges";
export const RISKS: readonly Risk[] = ["destructive", "privileges"];

/** CEL's getDayOfWeek: 0 is Sunday. */
export const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

export interface Quorum {
  readonly endorsements: number;
  readonly group: string;
  readonly risky: readonly Risk[];
}

/** One weekly window: these days, [start, end) in minutes of the day, in one IANA zone. */
export interface Window {
  /** As typed, normalised ("Mon-Thu 09:00-16:00 Europe/Berlin"). */
  readonly text: string;
  readonly days: readonly number[];
  readonly start: number;
  readonly end: number;
  readonly zone: string;
}

/** Whole days FROM..TO, both included, as calendar dates in `zone`. */
export interface Freeze {
  readonly from: string;
  readonly to: string;
  readonly zone: string;
}

export interface PolicySpec {
  /** The prefix of every object's name. */
  readonly name: string;
  readonly quorum: Quorum | undefined;
  readonly windows: readonly Window[];
  readonly freezes: readonly Freeze[];
  readonly breakglass: string | undefined;
  /** The bindings' namespaceSelector.matchLabels; undefined: every namespace. */
  readonly namespaceLabels: Readonly<Record<string, string>> | undefined;
}

const COMMAND = "policy";
const usage = (message: string) => new UsageError(message, COMMAND);

/** A group or label value as it may stand in a single-quoted CEL string and a label. */
const SAFE_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,252}$/u;

export function parseGroup(flag: string, value: string): string {
  if (!SAFE_WORD.test(value)) throw usage(`invalid --${flag} "${value}": a group name of letters, digits and _ . : @ / -`);
  return value;
}

export function parseEndorsements(value: string): number {
  if (!/^[1-9][0-9]?$/u.test(value)) throw usage(`invalid --endorsements "${value}": a whole number from 1 to 99`);
  return Number(value);
}

export function parseRisky(value: string): Risk[] {
  const words = value.split(",").map((w) => w.trim());
  for (const w of words) if (!(RISKS as readonly string[]).includes(w)) throw usage(`invalid --risky "${value}": a comma list of ${RISKS.join(", ")}`);
  return RISKS.filter((r) => words.includes(r));
}

/** Whether this runtime knows the IANA zone (Node carries the full time-zone database). */
export function isZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]*$/u.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function parseDays(text: string, flag: string): number[] {
  const days = new Set<number>();
  const dayIndex = (d: string) => DAY_NAMES.findIndex((n) => n.toLowerCase() === d.toLowerCase());
  for (const part of text.split(",")) {
    const [a, b, extra] = part.split("-");
    const from = dayIndex(a ?? "");
    const to = b === undefined ? from : dayIndex(b);
    if (from < 0 || to < 0 || extra !== undefined) throw usage(`invalid ${flag} days "${text}": use Mon-Thu, Mon,Wed,Fri or Sat-Sun (${DAY_NAMES.join(" ")})`);
    // A range wraps past Saturday (Fri-Mon is Fri, Sat, Sun, Mon).
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === to) break;
    }
  }
  return [...days].sort((x, y) => x - y);
}

function parseClock(text: string, flag: string, allow24: boolean): number {
  const m = /^([0-9]{2}):([0-9]{2})$/u.exec(text);
  const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  if (!m || Number(m[2]) > 59 || minutes > (allow24 ? 1440 : 1439)) throw usage(`invalid ${flag} time "${text}": use HH:MM, 00:00 to 24:00`);
  return minutes;
}

export function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

function dayText(days: readonly number[]): string {
  // Runs of consecutive days as ranges, Monday first (the way people write a working week).
  const order = [1, 2, 3, 4, 5, 6, 0].filter((d) => days.includes(d));
  const runs: number[][] = [];
  for (const d of order) {
    const last = runs.at(-1);
    if (last && (last.at(-1)! + 1) % 7 === d) last.push(d);
    else runs.push([d]);
  }
  return runs.map((r) => (r.length === 1 ? DAY_NAMES[r[0]!] : `${DAY_NAMES[r[0]!]}-${DAY_NAMES[r.at(-1)!]}`)).join(",");
}

/** `DAYS HH:MM-HH:MM ZONE`: e.g. "Mon-Thu 09:00-16:00 Europe/Berlin". */
export function parseWindow(value: string): Window {
  const flag = "--window";
  const parts = value.trim().split(/\s+/u);
  if (parts.length !== 3) throw usage(`invalid --window "${value}": use 'DAYS HH:MM-HH:MM ZONE', e.g. 'Mon-Thu 09:00-16:00 Europe/Berlin'`);
  const [dayPart, timePart, zone] = parts as [string, string, string];
  const days = parseDays(dayPart, flag);
  const [a, b, extra] = timePart.split("-");
  if (a === undefined || b === undefined || extra !== undefined) throw usage(`invalid --window hours "${timePart}": use HH:MM-HH:MM`);
  const start = parseClock(a, flag, false);
  const end = parseClock(b, flag, true);
  if (end <= start) throw usage(`invalid --window hours "${timePart}": the end must be later than the start on the same day (split a night into two windows)`);
  if (!isZone(zone)) throw usage(`invalid --window zone "${zone}": use an IANA time zone such as Europe/Berlin or UTC`);
  return { text: `${dayText(days)} ${clock(start)}-${clock(end)} ${zone}`, days, start, end, zone };
}

function isDate(text: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/u.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

/** `FROM..TO [ZONE]`: whole days, both included; the zone defaults to `defaultZone`. */
export function parseFreeze(value: string, defaultZone: string): Freeze {
  const parts = value.trim().split(/\s+/u);
  const m = /^([0-9-]+)\.\.([0-9-]+)$/u.exec(parts[0] ?? "");
  if (!m || parts.length > 2 || !isDate(m[1]!) || !isDate(m[2]!)) {
    throw usage(`invalid --freeze "${value}": use FROM..TO as dates, optionally with a zone, e.g. '2026-12-18..2027-01-04 Europe/Berlin'`);
  }
  const zone = parts[1] ?? defaultZone;
  if (!isZone(zone)) throw usage(`invalid --freeze zone "${zone}": use an IANA time zone such as Europe/Berlin or UTC`);
  if (m[1]! > m[2]!) throw usage(`invalid --freeze "${value}": FROM is later than TO`);
  return { from: m[1]!, to: m[2]!, zone };
}

/** `KEY=VALUE[,KEY=VALUE…]`: the bindings' namespaceSelector.matchLabels. */
export function parseNamespaceLabels(value: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of value.split(",")) {
    const m = /^([A-Za-z0-9][A-Za-z0-9_./-]{0,252})=([A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)$/u.exec(pair.trim());
    if (!m) throw usage(`invalid --namespace-selector "${value}": use KEY=VALUE[,KEY=VALUE…] (equality only)`);
    labels[m[1]!] = m[2]!;
  }
  return labels;
}
