// CSV for spreadsheets and audit tools (RFC 4180): a header line, CRLF line ends, a field quoted
// when it holds a comma, a double quote or a line break, and quotes doubled inside. Every cell is
// a cluster string, so each is sanitised (no control characters) and neutralised against
// spreadsheet formula injection: a cell starting with = + - @ gets a leading apostrophe, which
// spreadsheets read as "this is text" (OWASP's advice for CSV injection).
import { sanitize } from "./sanitize.ts";

const FORMULA_START = /^[=+\-@]/u;

export function csvCell(value: string): string {
  const safe = sanitize(value);
  const text = FORMULA_START.test(safe) ? `'${safe}` : safe;
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

export function formatCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [headers, ...rows].map((r) => r.map(csvCell).join(",") + "\r\n").join("");
}
