// Every refusal and condition message of the operator's contract, pasted as kubectl prints it,
// is placed on its topic with its names read back. The messages and the topic each belongs to
// are transcribed from the contract in ./contract-messages.ts (operator-api.md's refusal lists and
// condition tables, upstream-2026-12-05.md's four-eyes and manager-state guard): written here,
// not read from the matcher's table, so a message the table lacks or misspells fails. Markers as
// the contract writes them: %q a Go-quoted name, %d a number, %s an operation, … error text,
// <username>, <outcome>. Slot values are generated (fast-check) in other lengths and characters.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeLine } from "../../src/explain/message-match.ts";
import { runCliWith } from "../support/cli.ts";
import { ACKNOWLEDGMENT, CASES, CONDITIONS, GUARDS, MIGRATION_APPROVAL, SCHEMA_APPROVAL } from "./contract-messages.ts";

// ---------------------------------------------------------------- generated slot values

const line = (s: string): boolean => s.trim() === s && s !== "" && !/[\n\r]/u.test(s) && !/denied (the )?request:/iu.test(s);
/** A username: any printable text of a line (email, system:serviceaccount:…, spaces, non-ASCII). */
const username = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter(line);
/** Error text after a colon: anything of a line that does not end with a period (a final period is not text). */
const detail = fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }).filter((s) => line(s) && !s.endsWith("."));
const opId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,40}$/u);
const name = fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,50}[a-z0-9])?$/u);
/** %q: Go quotes any string; JSON's quoting agrees for what a name can hold. */
const quoted = fc.oneof(name, fc.string({ minLength: 1, maxLength: 30 }).filter(line));
const outcome = fc.constantFrom("Partial", "Unknown", "Applied", "Failed");

type Values = { username: string; detail: string; op: string; count: number; outcome: string; quoted: readonly string[] };
const values: fc.Arbitrary<Values> = fc.record({ username, detail, op: opId, count: fc.nat(100000), outcome, quoted: fc.array(quoted, { minLength: 2, maxLength: 2 }) });

/** The message with its markers filled, and the slot values the answer must name. */
function fill(text: string, v: Values): { message: string; slots: Record<string, string> } {
  const slots: Record<string, string> = {};
  let q = 0;
  const message = text.replace(/%q|%d|%s|…|<username>|<outcome>/gu, (marker) => {
    switch (marker) {
      case "%q": {
        const value = v.quoted[q++ % 2]!;
        slots[q === 1 ? "realm" : "namespace"] ??= value;
        return JSON.stringify(value);
      }
      case "%d":
        slots.count ??= String(v.count);
        return String(v.count);
      case "%s":
        // Operation IDs in acknowledgments, free text in "already settled (%s)".
        if (text.includes("already settled")) return (slots.detail = v.detail);
        return (slots.op = v.op);
      case "…":
        return (slots.detail = v.detail);
      case "<username>":
        return (slots.user = v.username);
      default:
        return (slots.outcome = v.outcome);
    }
  });
  return { message, slots };
}

// ---------------------------------------------------------------- kubectl's wrappers

type Wrapper = (message: string, object: string) => { line: string; name?: string };
const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  bare: (m) => ({ line: m }),
  "error: prefix": (m) => ({ line: `error: ${m}` }),
  "webhook, create from stdin": (m) => ({
    line: `Error from server (Forbidden): error when creating "STDIN": admission webhook "vapproval.operator.ptah.run" denied the request: ${m}`,
  }),
  "webhook, other verb": (m, o) => ({
    line: `Error from server (Forbidden): ptahschemaapprovals.operator.ptah.run "${o}" is forbidden: admission webhook "vapproval.operator.ptah.run" denied the request: ${m}`,
    name: o,
  }),
  "policy, is invalid": (m, o) => ({
    line: `The ptahmigrations "${o}" is invalid: : ValidatingAdmissionPolicy 'ptah-manager-state-guard' with binding 'ptah-manager-state-guard-binding' denied request: ${m}`,
    name: o,
  }),
  "policy, forbidden on create": (m, o) => ({
    line: `Error from server (Forbidden): error when creating "schema.yaml": ptahschemas.operator.ptah.run "${o}" is forbidden: ValidatingAdmissionPolicy 'ptah-apply-policy-guard' with binding 'ptah-apply-policy-guard' denied request: ${m}`,
    name: o,
  }),
};

describe("every message of the contract, as kubectl prints it, is placed on its topic with its names", () => {
  it("transcribes the contract's lists (a guard against a fixture cut short)", () => {
    expect(SCHEMA_APPROVAL.length + MIGRATION_APPROVAL.length + ACKNOWLEDGMENT.length + GUARDS.length).toBe(58);
    expect(CONDITIONS.length).toBe(63);
  });

  describe.each(Object.entries(WRAPPERS))("wrapped: %s", (_label, wrap) => {
    it.each(CASES.map((c) => [c.text, c] as const))("%s", (_text, c) => {
      fc.assert(
        fc.property(values, name, (v, object) => {
          const { message, slots } = fill(c.text, v);
          const { line, name: wrappedName } = wrap(message, object);
          const placed = placeLine(line);
          expect(placed?.template.topic, line).toBe(c.topic);
          for (const [slot, value] of Object.entries(slots)) expect(placed?.slots[slot as never], `${slot} in ${line}`).toBe(value);
          if (wrappedName) expect(placed?.context.name).toBe(wrappedName);
        }),
        { numRuns: 15 },
      );
    });
  });

  it("tolerates what a paste changes: case, runs of spaces, a dropped comma or final period", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CASES), values, fc.constantFrom("upper", "spaces", "commas", "period"), (c, v, change) => {
        const { message } = fill(c.text, v);
        const fixed = message.replace(/[,.](?= )/gu, "");
        const pasted = {
          upper: c.text.includes("<username>") || c.text.includes("…") || c.text.includes("%q") ? message : message.toUpperCase(),
          spaces: message.replace(/ (?=[a-z])/gu, "   "),
          commas: c.text.includes("%") || c.text.includes("…") || c.text.includes("<") ? message : fixed,
          period: message.endsWith(".") ? message.slice(0, -1) : `${message}.`,
        }[change];
        expect(placeLine(pasted)?.template.topic, pasted).toBe(c.topic);
      }),
      { numRuns: 400 },
    );
  });

  it("answers through the CLI with the names filled into the cause and the next commands", async () => {
    const line = `Error from server (Forbidden): error when creating "STDIN": admission webhook "vapproval.operator.ptah.run" denied the request: migration requires a distinct approver, and dev@example.com last changed its spec`;
    const r = await runCliWith(["explain", "-o", "json", line], undefined);
    expect(r.status, r.stderr).toBe(0);
    const [answer] = JSON.parse(r.stdout) as { topic: string; slots: Record<string, string>; cause: string; next: { command: string; purpose: string }[] }[];
    expect(answer!.topic).toBe("concept/self-approval");
    expect(answer!.slots).toEqual({ user: "dev@example.com", kind: "migration" });
    expect(answer!.cause).toContain("dev@example.com last changed the migration's spec");
    expect(answer!.next.map((n) => n.command)).toEqual(["kubectl ptah migration <migration>", "kubectl ptah approve migration <migration> | kubectl create -f -"]);
    expect(answer!.next[1]!.purpose).toContain("other than dev@example.com");
  });
});
