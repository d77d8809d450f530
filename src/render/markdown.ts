// GitHub-flavoured Markdown from cluster strings, for a summary pasted into a pull request or a
// ticket (`plan -o markdown`, `diff -o markdown`). Every cluster string is written in one of two
// places where Markdown interprets nothing:
// - a code span (`code`): no emphasis, links, images, HTML, entities or autolinks (GitHub's
//   www./http:/e-mail autolinking works on text, never inside code). Its backtick delimiter is
//   one longer than the longest backtick run inside; a space pads the content where it starts or
//   ends with a backtick or a space (CommonMark strips exactly one space from each side then).
// - a fenced code block (`fence`): its fence is longer than any backtick run in the body, so no
//   line can close it early; the info string is ours.
// Control characters are neutralised first (sanitize), so no string can start a new line, and so
// no list item, heading, table row or fence of its own. Pure.
import { sanitize, sanitizeMultiline } from "../errors.ts";

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A cluster string as an inline code span (`(empty)` in italics for ""). One line. */
export function code(text: string): string {
  const s = sanitize(text);
  if (s === "") return "_(empty)_";
  const ticks = "`".repeat(longestRun(s, "`") + 1);
  const pad = /^[` ]|[` ]$/u.test(s) && !/^ +$/u.test(s) ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** A fenced code block: ```lang, the body's lines (control characters neutralised), the fence. */
export function fence(lang: string, body: string): string {
  const text = sanitizeMultiline(body.endsWith("\n") ? body.slice(0, -1) : body);
  const ticks = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  return `${ticks}${lang}\n${text}\n${ticks}\n`;
}

/** A bullet list item with a bold label (ours) and a value (already Markdown). */
export function item(label: string, value: string): string {
  return `- **${label}:** ${value}\n`;
}

/** A GitHub alert (`> [!WARNING]`): it degrades to a plain blockquote elsewhere. Lines are Markdown. */
export function alert(kind: "NOTE" | "WARNING" | "CAUTION", lines: readonly string[]): string {
  return `> [!${kind}]\n${lines.map((l) => `> ${l}`).join("\n>\n")}\n`;
}
