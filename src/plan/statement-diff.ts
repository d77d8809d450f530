// Statement-level diff of two plans (`kubectl ptah diff`): statements are matched by their SQL
// as `-o sql` writes it (trimmed, one trailing `;` dropped), never character by character.
// Myers' O((N+M)·D) algorithm in its linear-space form (the middle snake, divide and conquer),
// over interned statement ids, so memory grows with the number of statements, not their bytes.
// A work budget bounds the time on two very different plans: past it, what is left of a
// subproblem is written as removed and added (still a correct edit script, no longer minimal).
// Pure.
import { statementText } from "./sql-text.ts";

export type EditKind = "keep" | "remove" | "add";

/** A run of `count` operations of one kind, at positions `from` (in a) and `to` (in b). */
export interface EditRun {
  readonly kind: EditKind;
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

export interface DiffOptions {
  /** Work units (diagonal steps and snake moves) before the rest is written as remove + add. */
  readonly budget?: number;
}

/** Enough for two 80,000-statement plans that share most statements; about 0.3 s of work at most. */
export const DEFAULT_DIFF_BUDGET = 20_000_000;

/** A statement's identity: its SQL as `-o sql` writes it, without the trailing `;`. */
export function statementKey(sql: string): string {
  return statementText(sql);
}

class RunBuilder {
  readonly runs: EditRun[] = [];
  private from = 0;
  private to = 0;

  push(kind: EditKind, count: number): void {
    if (count <= 0) return;
    const last = this.runs[this.runs.length - 1];
    if (last && last.kind === kind) {
      this.runs[this.runs.length - 1] = { ...last, count: last.count + count };
    } else {
      this.runs.push({ kind, from: this.from, to: this.to, count });
    }
    if (kind !== "add") this.from += count;
    if (kind !== "remove") this.to += count;
  }
}

class Myers {
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly out: RunBuilder;
  private readonly vf: Int32Array;
  private readonly vb: Int32Array;
  private budget: number;

  constructor(a: Int32Array, b: Int32Array, out: RunBuilder, budget: number) {
    this.a = a;
    this.b = b;
    this.out = out;
    const size = a.length + b.length + 4;
    this.vf = new Int32Array(size);
    this.vb = new Int32Array(size);
    this.budget = budget;
  }

  /** Emits the edit script turning a[aLo, aHi) into b[bLo, bHi). */
  compare(aLo: number, aHi: number, bLo: number, bHi: number): void {
    const { a, b, out } = this;
    let prefix = 0;
    while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
    out.push("keep", prefix);
    aLo += prefix;
    bLo += prefix;
    let suffix = 0;
    while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
    aHi -= suffix;
    bHi -= suffix;
    if (aLo === aHi || bLo === bHi) {
      out.push("remove", aHi - aLo);
      out.push("add", bHi - bLo);
    } else {
      const snake = this.middleSnake(aLo, aHi - aLo, bLo, bHi - bLo);
      if (snake === undefined) {
        out.push("remove", aHi - aLo);
        out.push("add", bHi - bLo);
      } else {
        const [x, y, u, v] = snake;
        this.compare(aLo, aLo + x, bLo, bLo + y);
        out.push("keep", u - x);
        this.compare(aLo + u, aHi, bLo + v, bHi);
      }
    }
    out.push("keep", suffix);
  }

  /**
   * The middle snake of a[aLo, aLo+n) against b[bLo, bLo+m) (both non-empty, first and last
   * elements differing): [x, y, u, v], the snake from (x, y) to (u, v); undefined when the
   * budget ran out.
   */
  private middleSnake(aLo: number, n: number, bLo: number, m: number): [number, number, number, number] | undefined {
    const { a, b, vf, vb } = this;
    const delta = n - m;
    const odd = (delta & 1) !== 0;
    const max = Math.ceil((n + m) / 2);
    const off = max + 1;
    vf[off + 1] = 0;
    vb[off + 1] = 0;
    for (let d = 0; d <= max; d++) {
      if (this.budget <= 0) return undefined;
      this.budget -= 2 * (d + 1);
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && vf[off + k - 1]! < vf[off + k + 1]!) ? vf[off + k + 1]! : vf[off + k - 1]! + 1;
        let y = x - k;
        const x0 = x;
        const y0 = y;
        while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
          x++;
          y++;
        }
        this.budget -= x - x0;
        vf[off + k] = x;
        const c = delta - k;
        if (odd && c >= -(d - 1) && c <= d - 1 && x + vb[off + c]! >= n) return [x0, y0, x, y];
      }
      for (let c = -d; c <= d; c += 2) {
        let x = c === -d || (c !== d && vb[off + c - 1]! < vb[off + c + 1]!) ? vb[off + c + 1]! : vb[off + c - 1]! + 1;
        let y = x - c;
        const x0 = x;
        const y0 = y;
        while (x < n && y < m && a[aLo + n - 1 - x] === b[bLo + m - 1 - y]) {
          x++;
          y++;
        }
        this.budget -= x - x0;
        vb[off + c] = x;
        const k = delta - c;
        if (!odd && k >= -d && k <= d && x + vf[off + k]! >= n) return [n - x, m - y, n - x0, m - y0];
      }
    }
    return undefined;
  }
}

/** The edit script turning `a` into `b`, as runs; equal elements are matched exactly. */
export function diffSequences(a: readonly string[], b: readonly string[], options: DiffOptions = {}): EditRun[] {
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
  const shared = ids.size;
  const ib = Int32Array.from(b, intern);
  const out = new RunBuilder();
  if (ib.every((id) => id >= shared)) {
    // Nothing in common: the script is known without searching for it.
    out.push("remove", ia.length);
    out.push("add", ib.length);
  } else {
    new Myers(ia, ib, out, options.budget ?? DEFAULT_DIFF_BUDGET).compare(0, ia.length, 0, ib.length);
  }
  return out.runs;
}

/** Statements of two plans, matched by statementKey. */
export function diffStatements(from: readonly { readonly sql: string }[], to: readonly { readonly sql: string }[], options: DiffOptions = {}): EditRun[] {
  return diffSequences(
    from.map((s) => statementKey(s.sql)),
    to.map((s) => statementKey(s.sql)),
    options,
  );
}

/** Replays the runs on `a` (the property the tests hold the diff to: it yields `b`). */
export function applyRuns<T>(a: readonly T[], b: readonly T[], runs: readonly EditRun[]): T[] {
  const out: T[] = [];
  for (const r of runs) {
    if (r.kind === "keep") out.push(...a.slice(r.from, r.from + r.count));
    if (r.kind === "add") out.push(...b.slice(r.to, r.to + r.count));
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

export interface HunkLine {
  readonly kind: EditKind;
  /** Index in the `from` plan (keep, remove) and in the `to` plan (keep, add). */
  readonly from: number | undefined;
  readonly to: number | undefined;
}

export interface Hunk {
  /** 0-based first position in each plan, and how many of its statements the hunk shows. */
  readonly fromStart: number;
  readonly fromCount: number;
  readonly toStart: number;
  readonly toCount: number;
  readonly lines: readonly HunkLine[];
}

function linesOf(r: EditRun, skip: number, take: number): HunkLine[] {
  const out: HunkLine[] = [];
  for (let i = skip; i < skip + take; i++) {
    out.push({
      kind: r.kind,
      from: r.kind === "add" ? undefined : r.from + i,
      to: r.kind === "remove" ? undefined : r.to + i,
    });
  }
  return out;
}

function hunkOf(lines: HunkLine[], fromStart: number, toStart: number): Hunk {
  return {
    fromStart,
    toStart,
    fromCount: lines.filter((l) => l.kind !== "add").length,
    toCount: lines.filter((l) => l.kind !== "remove").length,
    lines,
  };
}

/** Unified-diff hunks: the changes with `context` unchanged statements around them. */
export function buildHunks(runs: readonly EditRun[], context = 3): Hunk[] {
  const hunks: Hunk[] = [];
  let open: { lines: HunkLine[]; fromStart: number; toStart: number } | undefined;
  runs.forEach((r, i) => {
    if (r.kind === "keep") {
      if (!open) return;
      const last = i === runs.length - 1;
      if (last || r.count > 2 * context) {
        open.lines.push(...linesOf(r, 0, Math.min(context, r.count)));
        hunks.push(hunkOf(open.lines, open.fromStart, open.toStart));
        open = undefined;
      } else {
        open.lines.push(...linesOf(r, 0, r.count));
      }
      return;
    }
    if (!open) {
      const prev = runs[i - 1];
      const lead = prev?.kind === "keep" ? Math.min(context, prev.count) : 0;
      open = { lines: prev && lead > 0 ? linesOf(prev, prev.count - lead, lead) : [], fromStart: r.from - lead, toStart: r.to - lead };
    }
    open.lines.push(...linesOf(r, 0, r.count));
  });
  if (open) hunks.push(hunkOf(open.lines, open.fromStart, open.toStart));
  return hunks;
}
