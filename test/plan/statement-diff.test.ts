// The statement-level diff: a table of small cases, and properties over generated plans —
// replaying the edit script on `from` yields `to`, kept statements are equal, and (within the
// budget) the script is minimal, checked against a quadratic LCS.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alignSequences, applyRuns, buildHunks, countEdits, diffSequences, diffStatements, statementKey, type EditRun } from "../../src/plan/statement-diff.ts";

function script(runs: readonly EditRun[]): string {
  return runs.map((r) => `${r.kind === "keep" ? "=" : r.kind === "add" ? "+" : "-"}${r.count}`).join(" ");
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j]!, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

describe("diffSequences", () => {
  it.each([
    { name: "two empty plans", a: [], b: [], expected: "" },
    { name: "identical plans", a: ["x", "y"], b: ["x", "y"], expected: "=2" },
    { name: "everything added", a: [], b: ["x", "y"], expected: "+2" },
    { name: "everything removed", a: ["x", "y"], b: [], expected: "-2" },
    { name: "one statement appended", a: ["x"], b: ["x", "y"], expected: "=1 +1" },
    { name: "one statement prepended", a: ["x"], b: ["y", "x"], expected: "+1 =1" },
    { name: "one statement replaced in the middle", a: ["a", "b", "c"], b: ["a", "B", "c"], expected: "=1 -1 +1 =1" },
    { name: "completely different plans", a: ["a", "b"], b: ["c", "d"], expected: "-2 +2" },
    { name: "a moved statement (kept once, removed and added once)", a: ["a", "b", "c"], b: ["b", "c", "a"], expected: "-1 =2 +1" },
    { name: "the seed's v1 → v2 plans", a: ["CREATE TABLE customers"], b: ["ALTER TABLE customers ADD signed_up_at"], expected: "-1 +1" },
    { name: "repeated statements", a: ["x", "x", "y"], b: ["x", "y", "y"], expected: "=1 -1 +1 =1" },
  ])("$name", ({ a, b, expected }) => {
    const runs = diffSequences(a, b);
    expect(script(runs)).toBe(expected);
    expect(applyRuns(a, b, runs)).toEqual(b);
  });

  it("matches statements by their SQL as -o sql writes it: surrounding space and one trailing ; do not count", () => {
    expect(statementKey("  SELECT 1;\n")).toBe("SELECT 1");
    expect(script(diffStatements([{ sql: "SELECT 1;" }], [{ sql: "\tSELECT 1 \n" }]))).toBe("=1");
    expect(script(diffStatements([{ sql: "SELECT 1" }], [{ sql: "SELECT  1" }]))).toBe("-1 +1");
  });

  it("past the exact pass's budget, anchors on unique statements still find the minimal script (it once collapsed to remove + add)", () => {
    const a = Array.from({ length: 400 }, (_, i) => `a${i % 7}-${i}`);
    const b = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? a[i]! : `b${i}`));
    const minimal = diffSequences(a, b);
    const capped = alignSequences(a, b, { budget: 1000 });
    expect(applyRuns(a, b, capped.runs)).toEqual(b);
    expect(countEdits(minimal).unchanged).toBe(lcsLength(a, b));
    expect(capped.alignment).toEqual({ algorithm: "anchored", minimal: true, unaligned: 0 });
    expect(countEdits(capped.runs).unchanged).toBe(lcsLength(a, b));
  });
});

describe("diffSequences properties", () => {
  const plan = fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f;", " a", "a;"), { maxLength: 40 });

  it("replaying the edit script on from yields to, for any two plans", () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        const runs = diffSequences(a, b);
        expect(applyRuns(a, b, runs)).toEqual(b);
        for (const r of runs) if (r.kind === "keep") expect(a.slice(r.from, r.from + r.count)).toEqual(b.slice(r.to, r.to + r.count));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps as many statements as the longest common subsequence (minimal within its budget)", () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        const c = countEdits(diffSequences(a, b));
        const lcs = lcsLength(a, b);
        expect(c.unchanged).toBe(lcs);
        expect(c.removed).toBe(a.length - lcs);
        expect(c.added).toBe(b.length - lcs);
      }),
      { numRuns: 2000 },
    );
  });

  it("writes runs in order, each starting where the last one ended", () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        let from = 0;
        let to = 0;
        let last = "";
        for (const r of diffSequences(a, b)) {
          expect([r.from, r.to]).toEqual([from, to]);
          expect(r.count).toBeGreaterThan(0);
          expect(r.kind).not.toBe(last);
          last = r.kind;
          if (r.kind !== "add") from += r.count;
          if (r.kind !== "remove") to += r.count;
        }
        expect([from, to]).toEqual([a.length, b.length]);
      }),
      { numRuns: 1000 },
    );
  });

  it("hunks show every change once, with at most the context around it", () => {
    fc.assert(
      fc.property(plan, plan, fc.integer({ min: 0, max: 4 }), (a, b, context) => {
        const runs = diffSequences(a, b);
        const hunks = buildHunks(runs, context);
        const changes = hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "keep"));
        const c = countEdits(runs);
        expect(changes.length).toBe(c.added + c.removed);
        for (const h of hunks) {
          expect(h.lines.length).toBeGreaterThan(0);
          expect(h.fromCount).toBe(h.lines.filter((l) => l.kind !== "add").length);
          let keepRun = 0;
          for (const l of h.lines) {
            keepRun = l.kind === "keep" ? keepRun + 1 : 0;
            expect(keepRun).toBeLessThanOrEqual(2 * context);
          }
        }
        if (c.added + c.removed === 0) expect(hunks).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("buildHunks", () => {
  it("splits changes more than twice the context apart, with 3 statements of context by default", () => {
    const a = "abcdefghijklmn".split("");
    const b = "aBcdefghijklMn".split("");
    const hunks = buildHunks(diffSequences(a, b));
    expect(hunks.map((h) => [h.fromStart, h.fromCount, h.toStart, h.toCount])).toEqual([
      [0, 5, 0, 5],
      [9, 5, 9, 5],
    ]);
    expect(buildHunks(diffSequences(a, b), 5)).toHaveLength(1);
  });

  it("bounds its work on 16,000-statement plans that share nothing or one statement", () => {
    const a = Array.from({ length: 16_000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 16_000 }, (_, i) => `b${i}`);
    expect(script(diffSequences(a, b))).toBe("-16000 +16000");
    b[8000] = a[8000]!;
    const runs = diffSequences(a, b);
    expect(applyRuns(a, b, runs)).toEqual(b);
  });
});

describe("diff at every size the operator allows", () => {
  const plan = fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { maxLength: 30 });
  const uniquePlan = fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }).map((xs) => xs.map((x) => `s${x}`));

  it("small plans: the exact algorithm, minimal against the quadratic LCS oracle", () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        const d = alignSequences(a, b);
        expect(applyRuns(a, b, d.runs)).toEqual(b);
        expect(d.alignment).toEqual({ algorithm: "exact", minimal: true, unaligned: 0 });
        expect(countEdits(d.runs).unchanged).toBe(lcsLength(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it("anchored (forced by a small budget): always a valid edit script, and `minimal` only when it is", () => {
    fc.assert(
      fc.property(fc.oneof(plan, uniquePlan), fc.oneof(plan, uniquePlan), fc.integer({ min: 0, max: 200 }), (a, b, budget) => {
        const d = alignSequences(a, b, { budget });
        expect(applyRuns(a, b, d.runs)).toEqual(b);
        for (const r of d.runs) if (r.kind === "keep") expect(a.slice(r.from, r.from + r.count)).toEqual(b.slice(r.to, r.to + r.count));
        const kept = countEdits(d.runs).unchanged;
        if (d.alignment.minimal) expect(kept).toBe(lcsLength(a, b));
        else expect(kept).toBeLessThanOrEqual(lcsLength(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it("anchored on plans of unique statements (the real shape): minimal", () => {
    fc.assert(
      fc.property(uniquePlan, uniquePlan, (a, b) => {
        const d = alignSequences(a, b, { budget: 1000 });
        expect(applyRuns(a, b, d.runs)).toEqual(b);
        // Statements in the same order in both (no moves): the anchors are the whole LCS.
        const order = new Map(b.map((s, i) => [s, i]));
        const shared = a.filter((s) => order.has(s));
        if (shared.every((s, i) => i === 0 || order.get(s)! > order.get(shared[i - 1]!)!)) {
          expect(d.alignment.minimal).toBe(true);
          expect(countEdits(d.runs).unchanged).toBe(lcsLength(a, b));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("80,000 statements, 1 in 15 changed: minimal, not collapsed to all-added/all-removed", () => {
    const a = Array.from({ length: 80_000 }, (_, i) => `CREATE TABLE t${i} (id int)`);
    const b = a.map((s, i) => (i % 15 === 7 ? `${s} -- changed` : s));
    const d = alignSequences(a, b);
    expect(d.alignment).toEqual({ algorithm: "anchored", minimal: true, unaligned: 0 });
    expect(countEdits(d.runs)).toEqual({ added: 5333, removed: 5333, unchanged: 80_000 - 5333 });
    expect(applyRuns(a, b, d.runs)).toEqual(b);
  });

  it("one run of 200,000 changes: hunks without a stack overflow", () => {
    const a = Array.from({ length: 200_000 }, (_, i) => `a${i}`);
    const b = ["keep", ...Array.from({ length: 200_000 }, (_, i) => `b${i}`)];
    a.unshift("keep");
    const runs = diffSequences(a, b);
    const hunks = buildHunks(runs);
    expect(hunks).toHaveLength(1);
    expect(hunks[0]!.lines).toHaveLength(400_001);
  });

  it("160,000 statements sharing half, interleaved: anchored, minimal, within the budget", () => {
    const a = Array.from({ length: 160_000 }, (_, i) => `s${i}`);
    const b = a.map((s, i) => (i % 2 === 0 ? s : `t${i}`));
    const d = alignSequences(a, b);
    expect(d.alignment).toEqual({ algorithm: "anchored", minimal: true, unaligned: 0 });
    expect(countEdits(d.runs).unchanged).toBe(80_000);
  });

  it("past the budget inside a gap: the gap is removed and added, counted, and not called minimal", () => {
    // No statement occurs once in each plan: no anchors, Myers alone, and a budget of 10.
    const a = Array.from({ length: 400 }, (_, i) => `x${i % 7}`);
    const b = Array.from({ length: 400 }, (_, i) => `x${(i * 3) % 7}`);
    const d = alignSequences(a, b, { budget: 10 });
    expect(applyRuns(a, b, d.runs)).toEqual(b);
    expect(d.alignment.minimal).toBe(false);
    expect(d.alignment.unaligned).toBeGreaterThan(0);
  });
});
