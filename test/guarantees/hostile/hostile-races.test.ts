// Races: the cluster changes while `plan` and `approve` read it. Exhaustively,
// for every command line, every change an operator or a person could make, and every point in
// the command's sequence of reads (before request 1, 2, … and after the last), the command either
// prints exactly what it prints when the change happened before it started, or exactly what it
// prints when the change happened after it finished — or it refuses with one error line and an
// empty stdout. It never prints a mixture: SQL or an approval manifest from a state that never
// existed as a whole.
import { afterAll, describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { AWAITING_CONDITIONS } from "../../support/builders.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { currentPlanStatus, fakeObjectsOf, type PublishedPlan } from "../../support/publish-plan.ts";
import { NS, SCHEMA, clusterState, publishCurrent } from "../../plan/fixtures.ts";

type Raw = Record<string, unknown>;

interface World {
  readonly reader: FakeReader;
  readonly p1: PublishedPlan;
  readonly schema: Raw;
}

const P2 = publishCurrent({ statements: [{ sql: 'DROP TABLE "customers";', severity: "safe", reason: "another plan" }], uidSeed: "two" });
const P1_AGAIN = publishCurrent({ uidSeed: "republished" }); // same name and bytes, new UIDs

function world(): World {
  const state = clusterState({ extra: fakeObjectsOf(P2) });
  const schema = structuredClone(state.schema);
  (schema.status as Raw).conditions = structuredClone(AWAITING_CONDITIONS);
  state.reader.put("PtahSchema", schema);
  state.reader.dryRun = (_kind, _ns, body) => ({ object: { ...body, spec: { ...(body.spec as Raw), approver: { username: "alice@example.com" } } } });
  return { reader: state.reader, p1: state.current, schema };
}

function withStatus(schema: Raw, patch: Raw): Raw {
  const s = structuredClone(schema);
  s.status = { ...(s.status as Raw), ...patch };
  return s;
}

/** What may change while a command reads. */
const CHANGES: { name: string; apply: (w: World, r: FakeReader) => void }[] = [
  { name: "the schema names another plan", apply: (w, r) => r.put("PtahSchema", withStatus(w.schema, { plan: currentPlanStatus(P2) })) },
  {
    name: "the schema no longer requires approval",
    apply: (w, r) =>
      r.put("PtahSchema", withStatus(w.schema, { phase: "InSync", conditions: [{ type: "ApprovalRequired", status: "False", reason: "NotRequired", message: "m" }] })),
  },
  {
    name: "an approval was recorded for the plan",
    apply: (w, r) => r.put("PtahSchema", withStatus(w.schema, { plan: { ...currentPlanStatus(w.p1), approval: { name: "other", uid: "u" } } })),
  },
  {
    name: "the schema was deleted and created again (new UID)",
    apply: (w, r) => {
      const s = structuredClone(w.schema);
      (s.metadata as Raw).uid = "another-uid";
      r.put("PtahSchema", s);
    },
  },
  { name: "the schema was deleted", apply: (_w, r) => r.remove("PtahSchema", NS, SCHEMA) },
  { name: "the plan was deleted", apply: (w, r) => r.remove("PtahSchemaPlan", NS, w.p1.name) },
  { name: "the plan was replaced by another object under its name", apply: (_w, r) => r.put("PtahSchemaPlan", P1_AGAIN.plan) },
  { name: "the chunks were published again (new UIDs)", apply: (_w, r) => P1_AGAIN.chunks.forEach((c) => r.put("PtahSchemaPlanChunk", c)) },
  {
    name: "a chunk's bytes were changed",
    apply: (w, r) => {
      const chunk = structuredClone(w.p1.chunks[0]!) as { spec: { data: string } };
      const bytes = Buffer.from(chunk.spec.data, "base64");
      bytes[20] = bytes[20]! ^ 0x01;
      chunk.spec.data = bytes.toString("base64");
      r.put("PtahSchemaPlanChunk", chunk as unknown as Raw);
    },
  },
  { name: "a chunk was deleted", apply: (w, r) => r.remove("PtahSchemaPlanChunk", NS, (w.p1.chunks[0]!.metadata as { name: string }).name) },
];

const COMMANDS: string[][] = [
  ["approve", SCHEMA, "-n", NS],
  ["approve", SCHEMA, "-n", NS, "-o", "json"],
  ["approve", SCHEMA, "-n", NS, "--dry-run=server"],
  ["plan", SCHEMA, "-n", NS],
  ["plan", SCHEMA, "-n", NS, "-o", "sql"],
  ["plan", SCHEMA, "-n", NS, "--statements"],
];

let cases = 0;
let refused = 0;
afterAll(() => {
  if (cases > 0)
    console.log(
      `races: ${cases} cases (${COMMANDS.length} command lines × ${CHANGES.length} changes × every point between their reads, plus every A → B → A pair of points): ${refused} refused with one error line and an empty stdout, the rest printed what the state before or after the change prints; 0 mixtures`,
    );
});

describe("plan and approve under a changing cluster (exhaustive)", () => {
  it.each(COMMANDS.map((argv) => [argv.join(" "), argv] as const))("%s", async (_line, argv) => {
    const before = await runCliWith(argv, world().reader);
    expect(before.status, before.stderr).toBe(0); // the unchanged state is approvable and verifies
    const reads = world();
    await runCliWith(argv, reads.reader);
    const requests = reads.reader.requests.length;
    for (const change of CHANGES) {
      const changedFirst = world();
      change.apply(changedFirst, changedFirst.reader);
      const after = await runCliWith(argv, changedFirst.reader);
      for (let at = 0; at <= requests; at++) {
        const w = world();
        let seen = 0;
        w.reader.onRequest = (_request, r) => {
          if (seen++ === at) change.apply(w, r);
        };
        const r = await runCliWith(argv, w.reader);
        cases++;
        const where = `${change.name}, before request ${at + 1} of ${requests}`;
        if (r.status !== 0) {
          refused++;
          expect(r.stdout, where).toBe("");
          expect(r.stderr, where).toMatch(/^error: [^\n]+\n$/u);
          continue;
        }
        const consistent = r.stdout === before.stdout || (after.status === 0 && r.stdout === after.stdout);
        expect(consistent, `${where}: printed what neither state prints\n${r.stdout}`).toBe(true);
      }
    }
  });
});

describe("a plan that moves away and back (A → B → A) between any two reads", () => {
  // Every pair of points: the schema names P2 (B) from before request i, P1 (A) again from before
  // request j. A printed result is exactly what A prints or what B prints (never a mixture), and
  // an approval binds the plan the *last* schema read names — never B while the schema says A.
  const withB = (w: World): void => w.reader.put("PtahSchema", withStatus(w.schema, { plan: currentPlanStatus(P2) }));
  it.each(COMMANDS.map((argv) => [argv.join(" "), argv] as const))("%s", async (_line, argv) => {
    const printedBy = { A: (await runCliWith(argv, world().reader)).stdout, B: "" };
    const b = world();
    withB(b);
    printedBy.B = (await runCliWith(argv, b.reader)).stdout;
    const reads = world();
    await runCliWith(argv, reads.reader);
    const requests = reads.reader.requests.length;
    for (let i = 0; i < requests; i++) {
      for (let j = i + 1; j <= requests; j++) {
        const w = world();
        let seen = 0;
        let state: "A" | "B" = "A";
        let lastSchemaRead: "A" | "B" | undefined;
        w.reader.onRequest = (request, r) => {
          const at = seen++;
          if (at === i) {
            withB(w);
            state = "B";
          }
          if (at === j) {
            r.put("PtahSchema", w.schema);
            state = "A";
          }
          if (request.startsWith("get PtahSchema ")) lastSchemaRead = state;
        };
        const r = await runCliWith(argv, w.reader);
        cases++;
        const where = `B from request ${i + 1}, A again from request ${j + 1} of ${requests}`;
        if (r.status !== 0) {
          refused++;
          expect(r.stdout, where).toBe("");
          expect(r.stderr, where).toMatch(/^error: [^\n]+\n$/u);
          continue;
        }
        expect([printedBy.A, printedBy.B], `${where}: printed what neither state prints\n${r.stdout}`).toContain(r.stdout);
        if (argv[0] === "approve") expect(r.stdout, `${where}: the approval does not bind what the last read names`).toBe(printedBy[lastSchemaRead!]);
      }
    }
  });
});
