// Every message the rendered approval policies can send is placed by `explain -` on its topic, with
// its names read back. Nothing here is transcribed: the policies are rendered by `policy render`
// (through the one shell) for generated flag sets, each validation is made to fail by a request
// written for it (policy-requests.ts), its message expression is evaluated by the plugin's own
// evaluator (approval/policy-judge.ts), and the message, wrapped as kubectl prints it, is pasted.
// A validation no request fails, a message no template places, or a wrong topic or name fails.
import { wordEdits } from "../support/word-edits.ts";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCel, type Cel } from "../../src/approval/policy-cel-env.ts";
import { denialLine, judge, type AdmissionRequest, type Denial } from "../../src/approval/policy-judge.ts";
import type { PolicySet } from "../../src/approval/policy-set.ts";
import { placeLine } from "../../src/explain/message-match.ts";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { approvalCreate, currentKey, endorsementWrites, rendered, schemaObject, withAuthorizer, type Names } from "./policy-requests.ts";

let cel: Cel;
beforeAll(async () => {
  cel = await loadCel();
});

const TOPIC: Readonly<Record<string, string>> = {
  quorum: "concept/endorsement",
  endorsements: "concept/endorsement-refused",
  window: "concept/change-window",
  freeze: "concept/freeze",
};

/** The set with one policy, holding only its validation `i`: which validation a request fails. */
function only(set: PolicySet, policy: string, i: number): PolicySet {
  return {
    policies: set.policies.filter((p) => p.name === policy).map((p) => ({ ...p, spec: { ...p.spec, validations: [(p.spec.validations as unknown[])[i]] } })),
    bindings: set.bindings.filter((b) => b.policyName === policy),
  };
}

function denials(set: PolicySet, req: AdmissionRequest): readonly Denial[] {
  const v = judge(cel, set, req);
  if (v.kind !== "refused") throw new Error(`expected a refusal, got ${JSON.stringify(v)}`);
  return v.denials;
}

interface Refusal {
  readonly part: string;
  readonly denial: Denial;
  /** Names the answer must read back. */
  readonly slots: Readonly<Record<string, string>>;
  readonly resource: string;
}

/** Each validation of each policy, failed by the request written for it: its message as the API server sends it. */
function refusals(set: PolicySet, n: Names, quorum: number): Refusal[] {
  const out: Refusal[] = [];
  const base = { namespace: n.ns };
  for (const p of set.policies) {
    const validations = p.spec.validations as unknown[];
    const cases: { set: PolicySet; req: AdmissionRequest; slots: Record<string, string>; resource: string }[] = [];
    if (p.part === "quorum") {
      const some = n.endorsers.slice(0, quorum - 1);
      const schema = schemaObject(n, some.length > 0 ? { [currentKey()]: some.join(",") } : {});
      const req = approvalCreate(n, new Date("2027-02-03T10:00:00Z"), [schema]);
      cases.push({ set, req, slots: { ...base, schema: n.schema, group: n.group, count: String(quorum), have: String(some.length) }, resource: "ptahschemaapprovals" });
    } else if (p.part === "window") {
      // A Sunday night: no rendered window holds it.
      for (const migration of [false, true]) {
        const req = approvalCreate(n, new Date("2027-02-07T02:30:00Z"), [], migration);
        cases.push({ set, req, slots: { ...base, [migration ? "migration" : "schema"]: n.schema, at: "2027-02-07T02:30:00Z" }, resource: "ptahschemaapprovals" });
      }
    } else if (p.part === "freeze") {
      validations.forEach((_, i) => {
        const from = /approvals are frozen from (\d{4}-\d{2}-\d{2})/u.exec(JSON.stringify((validations[i] as { messageExpression: string }).messageExpression))![1]!;
        const req = approvalCreate(n, new Date(`${from}T12:00:00Z`), [], i % 2 === 1);
        cases.push({ set: only(set, p.name, i), req, slots: { ...base, from }, resource: "ptahmigrationapprovals" });
      });
    } else {
      const writes = endorsementWrites(n);
      expect(writes.length, `a request for each rule of ${p.name}`).toBe(validations.length);
      writes.forEach((w, i) =>
        cases.push({ set: only(withAuthorizer(set, w.mayUpdate), p.name, i), req: w.request, slots: { ...base, schema: n.schema }, resource: "ptahschemas" }),
      );
      for (const [i, c] of cases.entries()) {
        // The request fails its rule first: what the API server (which reports the first) would say.
        const whole = denials(withAuthorizer(set, writes[i]!.mayUpdate), c.req).filter((d) => d.policy === p.name);
        expect(whole[0]?.message, `${p.name} rule ${i}`).toBe(denials(c.set, c.req)[0]?.message);
      }
    }
    if (p.part !== "endorsements" && p.part !== "freeze") expect(validations.length, p.name).toBe(1);
    for (const c of cases) {
      const mine = denials(c.set, c.req).filter((d) => d.policy === p.name);
      expect(mine.length, `${p.name}: ${JSON.stringify(mine)}`).toBe(1);
      expect(mine[0]!.error, mine[0]!.message).toBe(false);
      expect(mine[0]!.message).not.toMatch(/^failed expression/u);
      out.push({ part: p.part, denial: mine[0]!, slots: c.slots, resource: c.resource });
    }
  }
  return out;
}

/** kubectl's wrappers around an admission denial: a create from a file, a create from stdin, an annotate. */
const WRAP = [
  (r: Refusal, name: string) => `Error from server (Forbidden): error when creating "STDIN": ${r.resource}.operator.ptah.run "${name}" is forbidden: ${denialLine(r.denial)}`,
  (r: Refusal, name: string) =>
    `Error from server (Forbidden): error when creating "approval.yaml": ${r.resource}.operator.ptah.run "${name}" is forbidden: ${denialLine(r.denial)}`,
  (r: Refusal, name: string) => `error: ${r.resource}.operator.ptah.run "${name}" is forbidden: ${denialLine(r.denial)}`,
];

interface Answer {
  readonly topic: string;
  readonly slots: Record<string, string>;
  readonly next: readonly { readonly command: string }[];
}

async function pasted(lines: readonly string[]): Promise<Answer[]> {
  const bytes = new TextEncoder().encode(lines.join("\n"));
  const r = await runCliWith(["explain", "-", "-o", "json"], undefined, {
    input: (async function* () {
      yield bytes;
    })(),
  });
  expect(r.stderr, lines.join("\n")).toBe("");
  return JSON.parse(r.stdout) as Answer[];
}

const dns = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/u);
const user = fc.stringMatching(/^[a-z][a-z0-9._@-]{0,20}$/u);
const group = fc.stringMatching(/^[a-z][a-z0-9_.:-]{0,15}[a-z0-9]$/u);
const names: fc.Arbitrary<Names> = fc
  .record({ ns: dns, schema: dns, approval: dns, people: fc.uniqueArray(user, { minLength: 6, maxLength: 6 }), group })
  .map(({ ns, schema, approval, people, group }) => ({
    ns,
    schema,
    approval,
    writer: people[0]!,
    member: people[1]!,
    outsider: people[2]!,
    endorsers: people.slice(3),
    group,
  }));

/** Flag sets: every part, with and without break-glass, one window and several, one freeze and several. */
const flagSets = fc.record({
  quorum: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  risky: fc.constantFrom("destructive", "privileges", "destructive,privileges"),
  windows: fc.constantFrom([], ["Mon-Thu 09:00-16:00 Europe/Berlin"], ["Mon-Fri 08:00-18:00 UTC", "Sat 10:00-12:00 America/New_York"]),
  freezes: fc.constantFrom([], ["2026-12-18..2027-01-04"], ["2027-03-01..2027-03-02 America/New_York", "2027-05-01..2027-05-01 UTC"]),
  breakglass: fc.option(group, { nil: undefined }),
});

describe("explain places every message the rendered policies send", () => {
  it("on its topic, with the schema, namespace, group and counts read back, for generated flags and names", async () => {
    await fc.assert(
      fc.asyncProperty(flagSets, names, async (f, n) => {
        fc.pre(f.quorum !== undefined || f.windows.length > 0 || f.freezes.length > 0);
        const flags = [
          ...(f.quorum === undefined ? [] : ["--endorsements", String(f.quorum), "--endorser-group", n.group, "--risky", f.risky]),
          ...f.windows.flatMap((w) => ["--window", w]),
          ...f.freezes.flatMap((w) => ["--freeze", w]),
          ...(f.breakglass === undefined ? [] : ["--breakglass-group", f.breakglass]),
        ];
        const set = await rendered(flags);
        const all = refusals(set, n, f.quorum ?? 1);
        const parts = new Set(set.policies.map((p) => p.part));
        expect(new Set(all.map((r) => r.part))).toEqual(parts);
        const lines = all.map((r, i) => WRAP[i % WRAP.length]!(r, n.approval));
        const answers = await pasted(lines);
        expect(answers.map((a) => a.topic)).toEqual(all.map((r) => TOPIC[r.part]));
        answers.forEach((a, i) => {
          expect(a.slots, lines[i]).toMatchObject(all[i]!.slots);
          for (const c of a.next) expect(c.command, lines[i]).not.toMatch(/<schema>|<namespace>/u);
        });
      }),
      { numRuns: 25 },
    );
  });

  it("the API server's own line when the quorum's binding finds no PtahSchema in the namespace", async () => {
    const n: Names = { ns: "shop", schema: "storefront", approval: "storefront-x1", writer: "w", member: "m", outsider: "o", endorsers: ["a", "b"], group: "dba" };
    const set = await rendered(["--endorsements", "2", "--endorser-group", "dba"]);
    const [d] = denials(set, approvalCreate(n, new Date("2027-02-03T10:00:00Z"), []));
    const answers = await pasted([WRAP[0]!({ part: "quorum", denial: d!, slots: {}, resource: "ptahschemaapprovals" }, n.approval)]);
    expect(answers.map((a) => a.topic)).toEqual(["concept/approval-policy"]);
  });

  it.each([
    ["endorsement", "concept/endorsement"],
    ["endorsements", "concept/endorsement"],
    ["change-window", "concept/change-window"],
    ["change window", "concept/change-window"],
    ["freeze", "concept/freeze"],
    ["break-glass", "concept/break-glass"],
    ["breakglass", "concept/break-glass"],
  ])("explain %s names its topic", async (word, topic) => {
    const r = await runCliWith(["explain", ...word.split(" "), "-o", "name"], undefined);
    expect(r).toMatchObject({ status: 0, stdout: `${topic}\n`, stderr: "" });
  });

  it("a pasted quorum refusal, as a person reads it", async () => {
    const line =
      "Error from server (Forbidden): error when creating \"STDIN\": ptahschemaapprovals.operator.ptah.run \"storefront-x1\" is forbidden: ValidatingAdmissionPolicy 'ptah-quorum' with binding 'ptah-quorum' denied request: the current plan of schema shop/storefront is destructive and needs 2 endorsements from group dba besides the approver; it has 1 (alice). Next: a member of dba who did not write its spec reviews it (kubectl ptah plan storefront -n shop) and runs the line kubectl ptah endorse storefront -n shop prints; then create the approval again";
    const r = await runCliWith(["explain", line], undefined);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "explain/paste-quorum.txt");
  });

  it("a renderer message with one word edited, dropped or swapped gets no topic, or its own", async () => {
    const n: Names = {
      ns: "shop",
      schema: "storefront",
      approval: "storefront-x1",
      writer: "wendy",
      member: "mo",
      outsider: "otto",
      endorsers: ["ann", "bea", "cy"],
      group: "dba",
    };
    const flags = ["--endorsements", "2", "--endorser-group", "dba", "--window", "Mon-Thu 09:00-16:00 Europe/Berlin", "--freeze", "2026-12-18..2027-01-04"];
    const all = refusals(await rendered([...flags, "--breakglass-group", "oncall"]), n, 2);
    let edited = 0;
    let placed = 0;
    for (const r of all) {
      for (const text of wordEdits(r.denial.message)) {
        edited++;
        const got = placeLine(denialLine({ ...r.denial, message: text }));
        if (got === undefined) continue;
        placed++;
        expect(got.template.topic, text).toBe(TOPIC[r.part]);
      }
    }
    expect(edited).toBeGreaterThan(1000);
    // Most edits touch fixed words, which place nothing; those inside a name's slot keep the topic.
    expect(placed).toBeLessThan(edited / 3);
  });
});
