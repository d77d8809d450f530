// What `plan` prints: the text header with 16-column labels and the SQL, the
// `-o sql` rule and the document bytes for `-o json`; the header, the `--statements` table and
// the `--verify` report are commands/plan/plan-text.ts. Only ever called with a plan whose every
// check held.
import type { PlanDocument } from "../../plan/document.ts";
import { statementText } from "../../plan/sql-text.ts";
import { trimSpace } from "../../plan/trim-space.ts";
import { sanitize } from "../../errors.ts";

const LABEL_WIDTH = 16;

/** `Label:` padded with spaces to `width` columns, then the value; empty values are omitted. */
export function labelLines(fields: readonly (readonly [string, string])[], width = LABEL_WIDTH): string {
  return fields
    .filter(([, value]) => value !== "")
    .map(([label, value]) => `${label}:`.padEnd(width) + value + "\n")
    .join("");
}

/**
 * `-o sql`: each statement in stored order, trimmed, empty ones skipped, one trailing `;`
 * dropped, then written with `;` and a newline. Never re-split: `;` inside bodies, literals
 * and comments stays where it is. The bytes are the plan's, unsanitised, for piping to a client.
 */
export function renderPlanSql(doc: PlanDocument): string {
  let out = "";
  for (const statement of doc.statements) {
    const sql = statementText(statement.sql);
    if (sql === "") continue;
    out += sql + ";\n";
  }
  return out;
}

/** `-o json`: the verified document bytes unchanged, plus a newline only if it lacks one. */
export function renderPlanJson(documentBytes: Uint8Array): string {
  const text = Buffer.from(documentBytes.buffer, documentBytes.byteOffset, documentBytes.byteLength).toString("utf8");
  return text.endsWith("\n") ? text : text + "\n";
}

/**
 * Sanitises each line of SQL for a terminal, keeping line breaks and tabs as they are, so an
 * escape sequence or a bidi override in a statement cannot hide text from a reviewer.
 */
export function sanitizeSqlForTerminal(sql: string): string {
  return sql
    .split("\n")
    .map((line) => line.split("\t").map(sanitize).join("\t"))
    .join("\n");
}

/**
 * The Privileges line: the kinds the plan records, then (after `; `) the kinds this plugin reads
 * in the SQL that the plan does not record, marked as such; `none` when there are neither.
 */
export function formatPrivileges(recorded: readonly string[], read: readonly string[]): string {
  const own = [...new Set(recorded.map(trimSpace).filter((k) => k !== ""))];
  const extra = read.filter((k) => !own.includes(k));
  const parts: string[] = [];
  if (own.length > 0) parts.push(own.join(", "));
  if (extra.length > 0) parts.push(`${extra.join(", ")} (read by this plugin, not recorded)`);
  return parts.length === 0 ? "none" : parts.join("; ");
}
