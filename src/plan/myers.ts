// Myers' O((N+M)·D) diff in its linear-space form (the middle snake, divide and conquer), over
// interned ids, for plan/statement-diff.ts. No recursion: the subproblems wait on an explicit
// stack, so no input size can overflow the call stack. A work budget bounds the time; past it a
// subproblem is written as removed and added (still a correct edit script) and counted. Pure.

export type EditKind = "keep" | "remove" | "add";

/** A run of `count` operations of one kind, at positions `from` (in a) and `to` (in b). */
export interface EditRun {
  readonly kind: EditKind;
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

/** Collects operations in order, merging neighbours of one kind into runs. */
export class RunBuilder {
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

/** Work waiting on the stack: compare a[aLo, aHi) with b[bLo, bHi), or keep `count`. */
type Task = readonly [aLo: number, aHi: number, bLo: number, bHi: number] | number;

export class Myers {
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly vf: Int32Array;
  private readonly vb: Int32Array;
  /** Work units left (diagonal steps and snake moves). */
  budget: number;
  /** Statements (of both plans) written as removed and added because the budget ran out. */
  unaligned = 0;

  constructor(a: Int32Array, b: Int32Array, budget: number) {
    this.a = a;
    this.b = b;
    const size = a.length + b.length + 4;
    this.vf = new Int32Array(size);
    this.vb = new Int32Array(size);
    this.budget = budget;
  }

  /**
   * Emits into `out` the edit script turning a[aLo, aHi) into b[bLo, bHi). With `strict`, stops
   * at the first subproblem past the budget and returns false (the caller discards `out`).
   */
  compare(out: RunBuilder, aLo: number, aHi: number, bLo: number, bHi: number, strict = false): boolean {
    const { a, b } = this;
    const stack: Task[] = [[aLo, aHi, bLo, bHi]];
    for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
      if (typeof task === "number") {
        out.push("keep", task);
        continue;
      }
      let [lo, hi, blo, bhi] = task;
      let prefix = 0;
      while (lo + prefix < hi && blo + prefix < bhi && a[lo + prefix] === b[blo + prefix]) prefix++;
      out.push("keep", prefix);
      lo += prefix;
      blo += prefix;
      let suffix = 0;
      while (hi - suffix > lo && bhi - suffix > blo && a[hi - 1 - suffix] === b[bhi - 1 - suffix]) suffix++;
      hi -= suffix;
      bhi -= suffix;
      stack.push(suffix);
      if (lo === hi || blo === bhi) {
        out.push("remove", hi - lo);
        out.push("add", bhi - blo);
        continue;
      }
      const snake = this.middleSnake(lo, hi - lo, blo, bhi - blo);
      if (snake === undefined) {
        if (strict) return false;
        this.unaligned += hi - lo + (bhi - blo);
        out.push("remove", hi - lo);
        out.push("add", bhi - blo);
        continue;
      }
      const [x, y, u, v] = snake;
      // Left half first: pushed last.
      stack.push([lo + u, hi, blo + v, bhi], u - x, [lo, lo + x, blo, blo + y]);
    }
    return true;
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
