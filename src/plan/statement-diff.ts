// Statement-level diff of two plans (`kubectl ptah diff`): statements are matched by their SQL
// as `-o sql` writes it (trimmed, one trailing `;` dropped), never character by character, over
// interned ids (memory grows with the number of statements, not their bytes; every array is
// linear in the plans' lengths; nothing recurses or spreads an input-sized array).
// - exact: Myers (plan/myers.ts) when its work fits the budget: the fewest changes.
// - anchored, for two long plans far apart: the statements that occur once in each plan and in
//   the same order (the longest increasing run of them, patience-style) are kept as anchors,
//   again inside each gap between anchors, then Myers within the gaps. Proven minimal when it
//   keeps as many statements as the two plans have in common (counted with repeats), which real
//   plans (unique statements, none moved) reach; otherwise the alignment says it may not be.
// A gap whose Myers runs past the budget is written as removed and added, and counted.
// Pure.
import { Myers, RunBuilder, type EditKind, type EditRun } from "./myers.ts";
import { statementText } from "./sql-text.ts";

export type { EditKind, EditRun };
export { buildHunks, type Hunk, type HunkLine } from "./hunks.ts";

export interface DiffOptions {
  /** Work units (diagonal steps and snake moves) for each of the exact and the anchored pass. */
  readonly budget?: number;
}

/** About 0.3 s of work at most per pass. */
export const DEFAULT_DIFF_BUDGET = 20_000_000;

/** How the edit script was found, for the reader (`diff` says it on stderr and in -o json). */
export interface Alignment {
  /** exact: Myers over everything; anchored: unique statements first, Myers between them. */
  readonly algorithm: "exact" | "anchored";
  /** No script keeps more statements (exact, or as many kept as the plans have in common). */
  readonly minimal: boolean;
  /** Statements of both plans shown as removed and added without a search (past the budget). */
  readonly unaligned: number;
}

export interface SequenceDiff {
  readonly runs: EditRun[];
  readonly alignment: Alignment;
}

/** A statement's identity: its SQL as `-o sql` writes it, without the trailing `;`. */
export function statementKey(sql: string): string {
  return statementText(sql);
}

/** Indices into `seq` of its longest strictly increasing subsequence (patience sorting, O(k log k)). */
function longestIncreasing(seq: Int32Array): Int32Array {
  const k = seq.length;
  const tails = new Int32Array(k); // tails[l]: index of the smallest tail of an increasing run of length l+1
  const prev = new Int32Array(k);
  let length = 0;
  for (let i = 0; i < k; i++) {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
    if (lo === length) length++;
  }
  const out = new Int32Array(length);
  for (let i = length - 1, j = length > 0 ? tails[length - 1]! : -1; i >= 0; i--, j = prev[j]!) out[i] = j;
  return out;
}

type Gap = readonly [aLo: number, aHi: number, bLo: number, bHi: number] | number;

class Anchored {
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly countA: Int32Array;
  private readonly countB: Int32Array;
  private readonly posB: Int32Array;
  private readonly myers: Myers;
  /** Work left for the search for anchors (a statement scanned once per level it is in). */
  private scans: number;

  constructor(a: Int32Array, b: Int32Array, ids: number, budget: number) {
    this.scans = budget;
    this.a = a;
    this.b = b;
    this.countA = new Int32Array(ids);
    this.countB = new Int32Array(ids);
    this.posB = new Int32Array(ids);
    this.myers = new Myers(a, b, budget);
  }

  get unaligned(): number {
    return this.myers.unaligned;
  }

  run(out: RunBuilder): void {
    const { a, b, countA, countB, posB, myers } = this;
    const stack: Gap[] = [[0, a.length, 0, b.length]];
    for (let gap = stack.pop(); gap !== undefined; gap = stack.pop()) {
      if (typeof gap === "number") {
        out.push("keep", gap);
        continue;
      }
      const [aLo, aHi, bLo, bHi] = gap;
      // Past its own budget, the search for anchors stops: Myers aligns what is left.
      if (this.scans <= 0) {
        myers.compare(out, aLo, aHi, bLo, bHi);
        continue;
      }
      // The statements occurring once in each side of this gap, in a's order, with b's position.
      this.scans -= aHi - aLo + (bHi - bLo);
      for (let i = aLo; i < aHi; i++) countA[a[i]!]!++;
      for (let j = bLo; j < bHi; j++) {
        countB[b[j]!]!++;
        posB[b[j]!] = j;
      }
      let k = 0;
      let shared = 0;
      for (let i = aLo; i < aHi; i++) {
        if (countB[a[i]!]! > 0) shared++;
        if (countA[a[i]!] === 1 && countB[a[i]!] === 1) k++;
      }
      const atA = new Int32Array(k);
      const atB = new Int32Array(k);
      k = 0;
      for (let i = aLo; i < aHi; i++) {
        const id = a[i]!;
        if (countA[id] === 1 && countB[id] === 1) {
          atA[k] = i;
          atB[k++] = posB[id]!;
        }
      }
      for (let i = aLo; i < aHi; i++) countA[a[i]!] = 0;
      for (let j = bLo; j < bHi; j++) countB[b[j]!] = 0;
      if (shared === 0) {
        // Nothing in common here (the changed statements between two anchors): known without a search.
        out.push("remove", aHi - aLo);
        out.push("add", bHi - bLo);
        continue;
      }
      const anchors = longestIncreasing(atB);
      // A gap without anchors (only repeated statements in common) is Myers' to align.
      if (anchors.length === 0) {
        myers.compare(out, aLo, aHi, bLo, bHi);
        continue;
      }
      // Pushed last to first: gap, anchor, gap, anchor, …, gap.
      let nextA = aHi;
      let nextB = bHi;
      for (let t = anchors.length - 1; t >= 0; t--) {
        const i = atA[anchors[t]!]!;
        const j = atB[anchors[t]!]!;
        if (nextA > i + 1 || nextB > j + 1) stack.push([i + 1, nextA, j + 1, nextB]);
        stack.push(1);
        nextA = i;
        nextB = j;
      }
      if (nextA > aLo || nextB > bLo) stack.push([aLo, nextA, bLo, nextB]);
    }
  }
}

/** How many statements any script could keep at most: the common ones, counted with repeats. */
function commonCount(ia: Int32Array, ib: Int32Array, ids: number): number {
  const inA = new Int32Array(ids);
  for (const id of ia) inA[id]!++;
  let common = 0;
  for (const id of ib) {
    if (inA[id]! > 0) {
      inA[id]!--;
      common++;
    }
  }
  return common;
}

/** The edit script turning `a` into `b`, and how it was found; equal elements are matched exactly. */
export function alignSequences(a: readonly string[], b: readonly string[], options: DiffOptions = {}): SequenceDiff {
  const budget = options.budget ?? DEFAULT_DIFF_BUDGET;
  const ids = new Map<string, number>();
  const intern = (s: string): number => {
    let id = ids.get(s);
    if (id === undefined) {
      id = ids.size;
      ids.set(s, id);
    }
    return id;
  };
  const ia = Int32Array.from(a, intern);
  const ib = Int32Array.from(b, intern);
  const common = commonCount(ia, ib, ids.size);
  const exact = new RunBuilder();
  if (common === 0) {
    // Nothing in common: the script is known without searching for it.
    exact.push("remove", ia.length);
    exact.push("add", ib.length);
    return { runs: exact.runs, alignment: { algorithm: "exact", minimal: true, unaligned: 0 } };
  }
  // Myers needs at least (N+M)·D/2 work, D being at least the statements not in common: try it
  // only when that fits the budget.
  const fewestChanges = ia.length + ib.length - 2 * common;
  if (((ia.length + ib.length) * fewestChanges) / 2 <= budget && new Myers(ia, ib, budget).compare(exact, 0, ia.length, 0, ib.length, true)) {
    return { runs: exact.runs, alignment: { algorithm: "exact", minimal: true, unaligned: 0 } };
  }
  const out = new RunBuilder();
  const anchored = new Anchored(ia, ib, ids.size, budget);
  anchored.run(out);
  let kept = 0;
  for (const r of out.runs) if (r.kind === "keep") kept += r.count;
  return { runs: out.runs, alignment: { algorithm: "anchored", minimal: kept === common, unaligned: anchored.unaligned } };
}

/** The edit script turning `a` into `b`, as runs. */
export function diffSequences(a: readonly string[], b: readonly string[], options: DiffOptions = {}): EditRun[] {
  return alignSequences(a, b, options).runs;
}

/** Statements of two plans, matched by statementKey, and how they were aligned. */
export function alignStatements(from: readonly { readonly sql: string }[], to: readonly { readonly sql: string }[], options: DiffOptions = {}): SequenceDiff {
  return alignSequences(
    from.map((s) => statementKey(s.sql)),
    to.map((s) => statementKey(s.sql)),
    options,
  );
}

/** Statements of two plans, matched by statementKey. */
export function diffStatements(from: readonly { readonly sql: string }[], to: readonly { readonly sql: string }[], options: DiffOptions = {}): EditRun[] {
  return alignStatements(from, to, options).runs;
}

/** Replays the runs on `a` (the property the tests hold the diff to: it yields `b`). */
export function applyRuns<T>(a: readonly T[], b: readonly T[], runs: readonly EditRun[]): T[] {
  const out: T[] = [];
  for (const r of runs) {
    if (r.kind === "keep") for (let i = 0; i < r.count; i++) out.push(a[r.from + i]!);
    if (r.kind === "add") for (let i = 0; i < r.count; i++) out.push(b[r.to + i]!);
  }
  return out;
}

export interface EditCounts {
  readonly added: number;
  readonly removed: number;
  readonly unchanged: number;
}

export function countEdits(runs: readonly EditRun[]): EditCounts {
  let added = 0;
  let removed = 0;
  let unchanged = 0;
  for (const r of runs) {
    if (r.kind === "add") added += r.count;
    else if (r.kind === "remove") removed += r.count;
    else unchanged += r.count;
  }
  return { added, removed, unchanged };
}
