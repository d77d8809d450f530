// Unified-diff hunks over an edit script (plan/statement-diff.ts): the changes with `context`
// unchanged statements around them. Lines are appended in loops, never spread: one run may hold
// every statement of an 8 MiB plan. Pure.
import type { EditKind, EditRun } from "./myers.ts";

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

/** Appends the lines of run `r` from `skip`, `take` of them (a loop: a run may be input-sized). */
function linesOf(out: HunkLine[], r: EditRun, skip: number, take: number): HunkLine[] {
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
        linesOf(open.lines, r, 0, Math.min(context, r.count));
        hunks.push(hunkOf(open.lines, open.fromStart, open.toStart));
        open = undefined;
      } else {
        linesOf(open.lines, r, 0, r.count);
      }
      return;
    }
    if (!open) {
      const prev = runs[i - 1];
      const lead = prev?.kind === "keep" ? Math.min(context, prev.count) : 0;
      open = { lines: prev && lead > 0 ? linesOf([], prev, prev.count - lead, lead) : [], fromStart: r.from - lead, toStart: r.to - lead };
    }
    linesOf(open.lines, r, 0, r.count);
  });
  if (open) hunks.push(hunkOf(open.lines, open.fromStart, open.toStart));
  return hunks;
}
