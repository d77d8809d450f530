// The approval policies evaluated in the plugin, against independent answers on generated inputs:
// a timestamp's fields in a zone (the evaluator answers the library's zone reads from a formatter
// kept per zone) against Intl's own formatToParts; the next change of a window against a scan of
// every minute; the endorsement count against the rule written out here (unique usernames, never
// the approver, never the last spec writer). The policies are the ones `policy render` prints,
// through the one shell. The API server itself is the oracle in test/e2e/policy-differential.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { endorsementKey } from "../../src/approval/endorsement.ts";
import { loadCel, rfc3339, type Cel } from "../../src/approval/policy-cel-env.ts";
import { judge } from "../../src/approval/policy-judge.ts";
import { endorsementOf, probeRequest, windowOf } from "../../src/approval/policy-state.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../src/model/spec-writer.ts";
import { rendered } from "../support/rendered-policies.ts";

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns", "Pacific/Chatham", "Asia/Kathmandu"];
const DAY = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
let cel: Cel;
beforeAll(async () => {
  cel = await loadCel();
});

const schemaWith = (annotations: Record<string, string>, plan: Record<string, unknown>) => ({
  apiVersion: "operator.ptah.run/v1alpha1",
  kind: "PtahSchema",
  metadata: { name: "storefront", namespace: "shop", uid: "u1", annotations },
  status: { plan },
});

describe("the evaluator's CEL", () => {
  it("reads a timestamp's fields in a zone exactly as Intl does, for generated instants and zones", () => {
    const fields = cel.compile("[t.getFullYear(z), t.getMonth(z) + 1, t.getDate(z), t.getHours(z), t.getMinutes(z), t.getDayOfWeek(z)]");
    fc.assert(
      fc.property(fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }), fc.constantFrom(...ZONES), (t, z) => {
        const parts = Object.fromEntries(
          new Intl.DateTimeFormat("en-US", {
            timeZone: z,
            year: "numeric",
            month: "numeric",
            day: "numeric",
            hour: "numeric",
            minute: "numeric",
            weekday: "short",
            hourCycle: "h23",
          })
            .formatToParts(t)
            .map((p) => [p.type, p.value]),
        );
        const want = [parts.year, parts.month, parts.day, parts.hour, parts.minute].map((v) => BigInt(Number(v)));
        expect(fields({ t, z })).toEqual([...want, BigInt(DAY.indexOf(parts.weekday!))]);
      }),
      { numRuns: 500 },
    );
    // The original is back after every evaluation.
    expect(Object.getOwnPropertyDescriptor(Date.prototype, "toLocaleString")!.value).toBe(
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(new Date()), "toLocaleString")!.value,
    );
    expect(new Date(0).toLocaleString("en-US", { timeZone: "UTC", weekday: "long" })).toContain("Thursday");
  });

  it("writes string(timestamp) as Go's RFC 3339 and replaces every occurrence, as Kubernetes' CEL does", () => {
    expect(rfc3339(new Date("2026-12-06T09:10:00.000Z"))).toBe("2026-12-06T09:10:00Z");
    expect(rfc3339(new Date("2026-12-06T09:10:00.120Z"))).toBe("2026-12-06T09:10:00.12Z");
    expect(cel.compile("string(timestamp('2026-12-06T09:10:00Z'))")({})).toBe("2026-12-06T09:10:00Z");
    expect(cel.compile("'a:b:c'.replace(':', '-')")({})).toBe("a-b-c");
    expect(cel.compile("'a:b:c'.replace(':', '-', 1)")({})).toBe("a-b:c");
  });
});

describe("the state status and inbox show", () => {
  it("finds a window's next change as a scan of every minute does, for generated windows, freezes and instants", async () => {
    const windowArb = fc.record({
      days: fc.subarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1 }),
      start: fc.integer({ min: 0, max: 1400 }),
      length: fc.integer({ min: 5, max: 600 }),
      zone: fc.constantFrom(...ZONES),
    });
    const cases = fc.sample(
      fc.record({
        w: windowArb,
        freeze: fc.option(fc.integer({ min: -2, max: 5 })),
        now: fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2027-12-01T00:00:00Z"), noInvalidDate: true }),
      }),
      { numRuns: 5, seed: 58 },
    );
    for (const { w, freeze, now } of cases) {
      const end = Math.min(1440, w.start + w.length);
      const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
      const day = new Date(now.getTime() + (freeze ?? 0) * 86_400_000).toISOString().slice(0, 10);
      const flags = [
        "--window",
        `${w.days.map((d) => DAY[d]).join(",")} ${clock(w.start)}-${clock(end)} ${w.zone}`,
        ...(freeze === null ? [] : ["--freeze", `${day}..${day} UTC`]),
      ];
      const set = await rendered(flags);
      const schema = schemaWith({}, {});
      const req = probeRequest({ namespace: "shop", schema, schemas: [schema], at: now });
      const state = windowOf(cel, set, req)!;
      const openAt = (at: Date) => judge(cel, set, { ...req, at }).kind === "admitted";
      expect(state.open, flags.join(" ")).toBe(openAt(now));
      let want: Date | undefined;
      const first = Math.floor(now.getTime() / 60_000) * 60_000;
      for (let i = 1; i <= 8 * 1440; i++) {
        const at = new Date(first + i * 60_000);
        if (openAt(at) !== state.open) {
          want = at;
          break;
        }
      }
      expect(state.change?.toISOString(), `${flags.join(" ")} at ${now.toISOString()}`).toBe(want?.toISOString());
    }
  }, 120_000);

  it("counts endorsements as the rule says: unique, never the approver, never the last spec writer", async () => {
    const set = await rendered(["--endorsements", "2", "--endorser-group", "dba", "--risky", "destructive"]);
    const person = fc.constantFrom("alice", "bob", "carol", "", "lab-admin");
    fc.assert(
      fc.property(fc.array(person, { maxLength: 5 }), fc.option(person, { nil: undefined }), fc.boolean(), (listed, writer, destructive) => {
        const fp = `sha256:${"ab".repeat(32)}`;
        const annotations = { [endorsementKey(fp)]: listed.join(","), ...(writer === undefined ? {} : { [LAST_SPEC_WRITER_USERNAME]: writer }) };
        const schema = schemaWith(annotations, { fingerprint: fp, destructive });
        const e = endorsementOf(cel, set, probeRequest({ namespace: "shop", schema, schemas: [schema], at: new Date() }))!;
        const names = listed.join(",").split(",");
        const want = names.filter((u) => u !== "" && u !== (writer ?? "").trim() && names.filter((v) => v === u).length === 1);
        expect(e).toEqual({ counted: want, needed: 2, risky: destructive });
      }),
      { numRuns: 200 },
    );
  });
});
