// doctor's report: checks (ok, problem with its fix, skipped with why) in four sections, the
// human text and the -o json document. Pure: the facts come in, text goes out.
import { paint, type Color } from "../render/color.ts";

export type CheckStatus = "ok" | "problem" | "skipped";

export type Section = "Connection" | "API" | "Operator" | "Permissions";

export interface Check {
  readonly section: Section;
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found; for a skipped check, why it did not run. */
  readonly summary: string;
  readonly details: readonly string[];
  /** For a problem: what to do. */
  readonly fix?: string;
}

export interface DoctorView {
  readonly namespace: string;
  readonly checks: readonly Check[];
}

export const SECTIONS: readonly Section[] = ["Connection", "API", "Operator", "Permissions"];

const COLOR: Record<CheckStatus, Color> = { ok: "green", problem: "red", skipped: "yellow" };

export function ok(section: Section, name: string, summary: string, details: readonly string[] = []): Check {
  return { section, name, status: "ok", summary, details };
}

export function problem(section: Section, name: string, summary: string, fix: string, details: readonly string[] = []): Check {
  return { section, name, status: "problem", summary, details, fix };
}

export function skipped(section: Section, name: string, why: string, details: readonly string[] = []): Check {
  return { section, name, status: "skipped", summary: why, details };
}

export function countOf(view: DoctorView, status: CheckStatus): number {
  return view.checks.filter((c) => c.status === status).length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The closing line: what the exit status says, in words. */
export function verdict(view: DoctorView): string {
  const problems = countOf(view, "problem");
  const skips = countOf(view, "skipped");
  const skippedText = skips > 0 ? `, ${plural(skips, "check")} skipped` : "";
  return problems === 0 ? `No problems found (${plural(countOf(view, "ok"), "check")} ok${skippedText}).` : `${plural(problems, "problem")} found${skippedText}.`;
}

const NAME_WIDTH = 19;
const STATUS_WIDTH = 8;

/** Sections, then one line per check (status, name, summary), its details and its fix below it. */
export function renderDoctor(view: DoctorView, color: boolean): string {
  const lines: string[] = [];
  const indent = " ".repeat(2 + STATUS_WIDTH + 1 + NAME_WIDTH + 1);
  for (const section of SECTIONS) {
    const checks = view.checks.filter((c) => c.section === section);
    if (checks.length === 0) continue;
    if (lines.length > 0) lines.push("");
    lines.push(section === "Permissions" ? `${section} (namespace ${view.namespace})` : section);
    for (const c of checks) {
      const word = paint(COLOR[c.status], c.status, color) + " ".repeat(STATUS_WIDTH - c.status.length);
      lines.push(`  ${word} ${c.name.padEnd(NAME_WIDTH)} ${c.summary}`);
      for (const d of c.details) lines.push(`${indent}${d}`);
      if (c.fix) lines.push(`${indent}fix: ${c.fix}`);
    }
  }
  lines.push("", verdict(view));
  return `${lines.join("\n")}\n`;
}

/** -o json: the checks as data, with the counts that decide the exit status. */
export function doctorDocument(view: DoctorView): Record<string, unknown> {
  return {
    namespace: view.namespace,
    problems: countOf(view, "problem"),
    skipped: countOf(view, "skipped"),
    checks: view.checks.map((c) => ({ section: c.section, name: c.name, status: c.status, summary: c.summary, details: c.details, ...(c.fix ? { fix: c.fix } : {}) })),
  };
}
