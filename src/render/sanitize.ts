// Neutralises control characters and terminal escape sequences in strings that come from
// the cluster, so a name or message can never move the cursor, recolour, retitle or hide
// text in a person's terminal (kubectl's printers.EscapeTerminal, extended to C1 controls
// and Unicode bidi overrides).

// C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F), bidi embeddings/overrides/
// isolates, and line/paragraph separators.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  switch (ch) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\u001b":
      return "^[";
    default:
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  }
}

/** Any cluster-supplied string, made safe to print on one line. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Like sanitize, but keeps line breaks (for multi-line text such as SQL). */
export function sanitizeMultiline(text: string): string {
  return text
    .split("\n")
    .map((line) => sanitize(line.endsWith("\r") ? line.slice(0, -1) : line))
    .join("\n");
}

/** True when the text contains nothing sanitize would change. */
export function isTerminalSafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return !UNSAFE.test(text);
}
