// doctor's report: checks (ok, problem with its fix, warning, skipped with why) in four sections,
// the closing verdict and the -o json document. Pure: the facts come in, data goes out; the human
// text is commands/doctor/doctor-report-text.ts.
/** A warning is something to look at that is not this setup's fault (it does not fail doctor). */
export type CheckStatus = "ok" | "problem" | "warning" | "skipped";

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

export function ok(section: Section, name: string, summary: string, details: readonly string[] = []): Check {
  return { section, name, status: "ok", summary, details };
}

export function problem(section: Section, name: string, summary: string, fix: string, details: readonly string[] = []): Check {
  return { section, name, status: "problem", summary, details, fix };
}

export function warning(section: Section, name: string, summary: string, details: readonly string[] = []): Check {
  return { section, name, status: "warning", summary, details };
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
  const warnings = countOf(view, "warning");
  const skippedText = (warnings > 0 ? `, ${plural(warnings, "warning")}` : "") + (skips > 0 ? `, ${plural(skips, "check")} skipped` : "");
  return problems === 0 ? `No problems found (${plural(countOf(view, "ok"), "check")} ok${skippedText}).` : `${plural(problems, "problem")} found${skippedText}.`;
}

/** -o json: the checks as data, with the counts that decide the exit status. */
export function doctorDocument(view: DoctorView): Record<string, unknown> {
  return {
    namespace: view.namespace,
    problems: countOf(view, "problem"),
    warnings: countOf(view, "warning"),
    skipped: countOf(view, "skipped"),
    checks: view.checks.map((c) => ({ section: c.section, name: c.name, status: c.status, summary: c.summary, details: c.details, ...(c.fix ? { fix: c.fix } : {}) })),
  };
}
