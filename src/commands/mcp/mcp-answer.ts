// A tool's answer, bounded: its text in pages of PAGE_CHARS (cut at a line's end where one is
// near), its structured part whole up to STRUCTURED_CHARS of JSON and otherwise replaced by a
// note that names the command printing it all. An 8 MiB plan is then 80-odd pages of SQL to ask
// for one by one, never one message an assistant's context cannot hold.

/** One page of text: about 25,000 tokens, which assistants' clients take in one result. */
export const PAGE_CHARS = 100_000;
/** The structured answer's bound, as JSON text. */
export const STRUCTURED_CHARS = 1_000_000;

export interface Page {
  readonly text: string;
  /** Which page this is of how many, and how to ask for the next (absent: the text is whole). */
  readonly note?: string;
}

/** `kubectl ptah …` for a person, from a tool's command line (without the `--` it keeps for names). */
export function shown(argv: readonly string[]): string {
  return ["kubectl", "ptah", ...argv.filter((a) => a !== "--")].join(" ");
}

/** Page `n` (from 1) of `text`; a page past the last is the last page's note with no text. */
export function pageOf(text: string, n: number, argv: readonly string[]): Page {
  if (text.length <= PAGE_CHARS && n === 1) return { text };
  const starts = [0];
  while (starts[starts.length - 1]! + PAGE_CHARS < text.length) {
    const from = starts[starts.length - 1]!;
    const cut = text.lastIndexOf("\n", from + PAGE_CHARS - 1);
    starts.push(cut > from + PAGE_CHARS / 2 ? cut + 1 : from + PAGE_CHARS);
  }
  const pages = starts.length;
  if (n > pages) return { text: "", note: `[there are ${pages} pages; page ${n} does not exist]` };
  const body = text.slice(starts[n - 1], n < pages ? starts[n] : text.length);
  const next = n < pages ? `; ask again with page ${n + 1} for the next, or read it all with: ${shown(argv)}` : "";
  return { text: body, note: `[page ${n} of ${pages} (${text.length} characters in all)${next}]` };
}

export interface Structured {
  readonly value: Record<string, unknown>;
  readonly note?: string;
}

/**
 * The -o json answer as MCP's structured content, which is an object: a document that is not one
 * (a list printed as an array) is wrapped as `{ items }`. Past STRUCTURED_CHARS it is replaced by
 * `{ truncated: true, characters, command }`, and the note says so.
 */
export function structuredOf(json: string, argv: readonly string[]): Structured {
  if (json.length > STRUCTURED_CHARS) {
    const command = shown(argv);
    return {
      value: { truncated: true, characters: json.length, command },
      note: `[the structured answer is ${json.length} characters, over this server's ${STRUCTURED_CHARS}; read it with: ${command}]`,
    };
  }
  const value: unknown = JSON.parse(json);
  return { value: value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { items: value } };
}
