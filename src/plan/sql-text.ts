// How a stored statement is written as SQL (go-client §1.3 `-o sql`): trimmed as Go trims, one
// trailing `;` dropped, never re-split. `plan -o sql` writes it followed by `;`, and `diff`
// matches statements by it. Pure.

/** Go's strings.TrimSpace: Unicode White_Space, which (unlike String#trim) excludes U+FEFF. */
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const LEADING = new RegExp(`^${GO_SPACE}+`, "u");
const TRAILING = new RegExp(`${GO_SPACE}+$`, "u");

export function trimSpace(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}

/** The statement without surrounding space and without one trailing `;` ("" when empty). */
export function statementText(sql: string): string {
  const t = trimSpace(sql);
  return t.endsWith(";") ? t.slice(0, -1) : t;
}
