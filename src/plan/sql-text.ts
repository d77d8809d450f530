// How a stored statement is written as SQL: trimmed as Go trims, one
// trailing `;` dropped, never re-split. `plan -o sql` writes it followed by `;`, and `diff`
// matches statements by it. Pure.
import { trimSpace } from "./trim-space.ts";

/** The statement without surrounding space and without one trailing `;` ("" when empty). */
export function statementText(sql: string): string {
  const t = trimSpace(sql);
  return t.endsWith(";") ? t.slice(0, -1) : t;
}
