// The tampering table with the tampered plan on either side of `diff`: every case is refused
// before anything is printed — exit 1, empty stdout, one error line naming the side and the
// failed check — whichever side the tampered plan is on, in every output format.
import { afterAll, describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { approvalOf, NS, SCHEMA, type State } from "../../plan/fixtures.ts";
import { CASES, stateOf, type Case } from "../../plan/tampering-cases.ts";

type Side = "from" | "to";

/** The command line that puts the case's tampered plan on `side`, and an untampered plan on the other. */
function arrange(c: Case, side: Side): { state: State; argv: string[] } {
  const state = stateOf(c);
  const schema = state.schema as { status: { plan?: Record<string, unknown>; applied?: { planRef?: { name?: string } } } };
  if (c.applied) {
    // The case tampers with the applied record.
    const applied = schema.status.applied?.planRef?.name ?? "";
    return { state, argv: side === "from" ? ["--from", "applied"] : ["--from", "plan", state.current.name, "--to", "plan", applied] };
  }
  if (side === "to") return { state, argv: ["--from", "applied"] };
  // The tampered current plan as the plan an approval recorded, against the untampered applied plan.
  const record = schema.status.plan!;
  state.reader.put("PtahSchemaApproval", approvalOf(undefined, { name: "tampered", record: { name: record.name, uid: record.uid, fingerprint: record.fingerprint } }).raw);
  return { state, argv: ["--from", "approval", "tampered", "--to", "plan", state.applied.name] };
}

const FORMATS = [[], ["-o", "json"], ["-o", "sql"], ["--stat"]];
let refusals = 0;
afterAll(() => {
  if (refusals > 0)
    console.log(
      `diff tampering: ${CASES.length} tampered plans (${CASES.filter((c) => c.recordCopy).length} of them in the schema's record, met on one side), each refused on either side in ${FORMATS.length} output forms (${refusals} runs): exit 1, empty stdout, the side and the failed check named`,
    );
});

/** A tampered binding copy of the schema's record is met only on the side that reads that record. */
const casesFor = (side: Side): Case[] => CASES.filter((c) => !c.recordCopy || (c.applied ? side === "from" : side === "to"));

describe.each<Side>(["from", "to"])("diff refuses a tampered plan on the %s side", (side) => {
  it.each(casesFor(side))("$name", async (c) => {
    for (const format of FORMATS) {
      const { state, argv } = arrange(c, side);
      const target = c.applied ? state.applied : state.current;
      const message = typeof c.message === "function" ? c.message(target) : c.message;
      const r = await runCliWith(["diff", SCHEMA, "-n", NS, ...argv, ...format], state.reader);
      expect(r.stdout).toBe("");
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: the ${side} plan \\([^)]*\\) failed the check "[a-z0-9 -]+": `, "u"));
      expect(r.stderr).toContain(message);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      refusals++;
    }
  });
});
