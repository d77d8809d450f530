// Reading our Markdown back the way a GFM renderer does (marked, a devDependency used only by the
// tests): every token, nested ones included, so a test can say which constructs the text holds.
import { marked, type Token } from "marked";

/** Every token of the document in document order, children after their parent (GFM: autolinks, tables, strikethrough). */
export function markdownTokens(markdown: string): Token[] {
  const out: Token[] = [];
  const walk = (tokens: readonly Token[]): void => {
    for (const t of tokens) {
      out.push(t);
      const nested = t as { tokens?: Token[]; items?: Token[]; header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
      if (nested.tokens) walk(nested.tokens);
      if (nested.items) walk(nested.items);
      for (const cell of nested.header ?? []) walk(cell.tokens);
      for (const row of nested.rows ?? []) for (const cell of row) walk(cell.tokens);
    }
  };
  walk(marked.lexer(markdown, { gfm: true }));
  return out;
}

/** The constructs no cluster string may produce: links (autolinks too), images and raw HTML. */
export function injected(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.type === "link" || t.type === "image" || t.type === "html");
}

/** The fenced code blocks: their info string and text. */
export function codeBlocks(tokens: readonly Token[]): { lang: string; text: string }[] {
  return tokens.filter((t) => t.type === "code").map((t) => ({ lang: (t as { lang?: string }).lang ?? "", text: (t as { text: string }).text }));
}

/** The text of every code span. */
export function codeSpans(tokens: readonly Token[]): string[] {
  return tokens.filter((t) => t.type === "codespan").map((t) => (t as { text: string }).text);
}
