// doctor's human text: the report's sections, one line per check with its details and fix, and
// the verdict (the report itself, as data, is commands/doctor/doctor-report.ts).
import { paint, type Color } from "../../render/color.ts";
import { SECTIONS, verdict, type CheckStatus, type DoctorView } from "./doctor-report.ts";

const COLOR: Record<CheckStatus, Color> = { ok: "green", problem: "red", warning: "yellow", skipped: "yellow" };

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
