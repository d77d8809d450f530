// Generated inputs of the approval-policy differential test: policy flags for `policy render`,
// schema states, people and approval requests. The API server stamps creationTimestamp from its
// own clock, so an instant cannot be chosen; the windows and freezes are generated around the
// server's present instead (in random zones, days and offsets), which covers the same space: the
// instant's place relative to each boundary.
import fc from "fast-check";
import { endorsementKey } from "../../src/approval/endorsement.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../src/model/spec-writer.ts";

export const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Auckland", "Asia/Tokyo", "America/St_Johns"] as const;
const DAY = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
export const PEOPLE = ["alice", "bob", "carol", "dave", "erin", "lab-admin"] as const;
export const GROUPS = ["dba", "sre", "oncall", "storage"] as const;

/** The weekday (0 Sunday), minute of the day and calendar date of `at` in `zone`. */
export function localOf(at: Date, zone: string): { day: number; minute: number; date: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", year: "numeric", month: "2-digit", day: "2-digit", hourCycle: "h23" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: DAY.indexOf(parts.weekday!), minute: Number(parts.hour) * 60 + Number(parts.minute), date: `${parts.year}-${parts.month}-${parts.day}` };
}

const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const windowArb = (now: Date) =>
  fc
    .record({
      zone: fc.constantFrom(...ZONES),
      today: fc.boolean(),
      other: fc.subarray([0, 1, 2, 3, 4, 5, 6]),
      from: fc.integer({ min: -240, max: 240 }),
      length: fc.integer({ min: 1, max: 720 }),
    })
    .map((w) => {
      const local = localOf(now, w.zone);
      const days = new Set(w.other.filter((d) => d !== local.day));
      if (w.today) days.add(local.day);
      if (days.size === 0) days.add((local.day + 3) % 7);
      const start = Math.min(1439, Math.max(0, local.minute + w.from));
      const end = Math.min(1440, start + w.length);
      return `${[...days].map((d) => DAY[d]).join(",")} ${clock(start)}-${clock(end)} ${w.zone}`;
    });

const freezeArb = (now: Date) =>
  fc.record({ zone: fc.constantFrom(...ZONES), from: fc.integer({ min: -3, max: 2 }), length: fc.integer({ min: 0, max: 3 }) }).map((f) => {
    const today = localOf(now, f.zone).date;
    return `${shiftDate(today, f.from)}..${shiftDate(today, f.from + f.length)} ${f.zone}`;
  });

/** The flags of one `policy render` call (at least one part). */
export const policyFlagsArb = (now: Date) =>
  fc
    .record({
      quorum: fc.option(
        fc.record({ n: fc.integer({ min: 1, max: 3 }), group: fc.constantFrom("dba", "sre"), risky: fc.constantFrom("destructive", "privileges", "destructive,privileges") }),
      ),
      windows: fc.array(windowArb(now), { maxLength: 2 }),
      freezes: fc.array(freezeArb(now), { maxLength: 2 }),
      breakglass: fc.option(fc.constant("oncall")),
    })
    .filter((p) => p.quorum !== null || p.windows.length > 0 || p.freezes.length > 0)
    .map((p) => [
      ...(p.quorum ? ["--endorsements", String(p.quorum.n), "--endorser-group", p.quorum.group, "--risky", p.quorum.risky] : []),
      ...p.windows.flatMap((w) => ["--window", w]),
      ...p.freezes.flatMap((f) => ["--freeze", f]),
      ...(p.breakglass ? ["--breakglass-group", p.breakglass] : []),
    ]);

export interface SchemaState {
  readonly name: string;
  readonly fingerprint: string;
  readonly destructive: boolean;
  readonly privilegeChanges: readonly string[];
  readonly writer: string | undefined;
  /** The endorsement annotation's value, on the current plan's key (undefined: none), and one on another key. */
  readonly endorsers: string | undefined;
  readonly stale: string | undefined;
}

const hex = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 });
const person = fc.constantFrom(...PEOPLE, "");

export const schemaStateArb = (name: string): fc.Arbitrary<SchemaState> =>
  fc.record({
    name: fc.constant(name),
    fingerprint: hex.map((h) => `sha256:${h}`),
    destructive: fc.boolean(),
    privilegeChanges: fc.subarray(["Grant", "Revoke", "Ownership"]),
    writer: fc.option(fc.constantFrom(...PEOPLE, " alice "), { nil: undefined }),
    endorsers: fc.option(
      fc.array(person, { maxLength: 4 }).map((l) => l.join(",")),
      { nil: undefined },
    ),
    stale: fc.option(
      fc.array(person, { minLength: 1, maxLength: 3 }).map((l) => l.join(",")),
      { nil: undefined },
    ),
  });

/** The annotations a schema state carries (the spec writer and the endorsement keys). */
export function annotationsOf(s: SchemaState): Record<string, string> {
  return {
    ...(s.writer === undefined ? {} : { [LAST_SPEC_WRITER_USERNAME]: s.writer }),
    ...(s.endorsers === undefined ? {} : { [endorsementKey(s.fingerprint)]: s.endorsers }),
    ...(s.stale === undefined ? {} : { [endorsementKey(`sha256:${"0".repeat(64)}`)]: s.stale }),
  };
}

export interface Attempt {
  readonly user: string;
  readonly groups: readonly string[];
  /** A schema's index, or a migration's name (the migration need not exist for the time policies). */
  readonly target: { readonly schema: number } | { readonly migration: string };
}

export const attemptArb = (schemas: number): fc.Arbitrary<Attempt> =>
  fc.record({
    user: fc.constantFrom(...PEOPLE),
    groups: fc.subarray([...GROUPS]),
    target: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: schemas - 1 }).map((schema) => ({ schema })) },
      { weight: 1, arbitrary: fc.constant({ migration: "nightly" }) },
    ),
  });
