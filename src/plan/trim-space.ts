// Go's strings.TrimSpace, the one trim the operator's rules use: the fingerprint's
// privilege list, its validation ("all string fields non-blank") and a statement's SQL text all
// trim with it. unicode.IsSpace is Unicode White_Space: unlike String#trim it strips U+0085 and
// keeps U+FEFF, so a field holding only "\ufeff" is not blank, to the operator or to us. Pure.

/** U+0009–U+000D, space, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. */
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const LEADING = new RegExp(`^${GO_SPACE}+`, "u");
const TRAILING = new RegExp(`${GO_SPACE}+$`, "u");

export function trimSpace(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}
