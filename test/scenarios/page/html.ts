// HTML text for replay pages: every string a command, the cluster or a scenario file supplied goes
// through `text` (control characters neutralised as the plugin does for a terminal, tabs expanded,
// then & < > " ' escaped), so nothing it holds can become markup or script.
import { sanitizeMultiline } from "../../../src/render/sanitize.ts";

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Tabs to spaces at stops of 8, per line. */
export function expandTabs(s: string): string {
  return s
    .split("\n")
    .map((line) => {
      let out = "";
      for (const ch of line) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch;
      return out;
    })
    .join("\n");
}

/** Escaped text for an element's content or an attribute's value. */
export function text(s: string): string {
  return sanitizeMultiline(expandTabs(s)).replace(/[&<>"']/gu, (c) => ENTITIES[c]!);
}

/** An element with escaped content; `attrs` values are escaped too. */
export function el(tag: string, attrs: Readonly<Record<string, string>>, inner: string): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${text(v)}"`)
    .join("");
  return `<${tag}${a}>${inner}</${tag}>`;
}
