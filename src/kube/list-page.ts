// A LIST page read as it arrives: the envelope `{"items": [...], "metadata": {...}, …}`
// is scanned byte by byte and every element of the top-level `items` array is handed over, parsed
// by JSON.parse on its own bytes, as soon as its last byte is in. So a page is never held whole —
// not as bytes, not as one string, not as one object graph of 500 items — and each item's served
// JSON is garbage the moment the model has read it (young, collected without being promoted).
// At 5,000 schemas a page is ~3 MB of JSON and ~15 MB once parsed whole.
//
// What it accepts is exactly what JSON.parse accepts (test/kube/list-page.property.test.ts): the
// scanner checks the envelope's grammar, JSON.parse checks every value it captures. A page that
// is not an object at the top is parsed whole and given as the envelope, as before.
import { Buffer } from "node:buffer";

/** The page is not JSON (the reader says so in kubectl's words). */
export class InvalidPageJson extends Error {}

/** What a page says beside its items: its other top-level members, parsed. */
export type PageEnvelope = Record<string, unknown>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

type Where =
  | "start" // before the top-level value
  | "key-or-end" // after `{`
  | "key" // after `,` in the envelope
  | "colon"
  | "value"
  | "after-value"
  | "element-or-end" // after `[` of items
  | "element" // after `,` in items
  | "after-element"
  | "end" // after the envelope's `}`
  | "whole"; // the top level is not an object: collect it all

/** A value being captured: its bytes so far and where the scan is inside it. */
interface Capture {
  parts: Buffer[];
  /** Nesting depth inside the value (0: a string or a literal at the top of the value). */
  depth: number;
  inString: boolean;
  /** The previous byte was a backslash inside a string. */
  escaped: boolean;
  /** A string, a number or a literal: it ends at its closing quote or before a delimiter. */
  scalar: boolean;
  /** What the value is: an envelope member's, an item's, or a key. */
  role: "member" | "item" | "key";
}

export class ListPageDecoder {
  private where: Where = "start";
  private capture: Capture | undefined;
  private key = "";
  private readonly envelope: PageEnvelope = {};
  private readonly onItem: (item: unknown) => void;
  private whole: Buffer[] = [];
  private sawItems = false;
  private notList: string | undefined;
  /** In the chunk being scanned: the next quote and backslash from where the scan is (-1: none left, -2: not searched). */
  private quoteAt = -2;
  private slashAt = -2;

  constructor(onItem: (item: unknown) => void) {
    this.onItem = onItem;
  }

  write(chunk: Buffer): void {
    if (this.where === "whole") {
      this.whole.push(chunk);
      return;
    }
    this.quoteAt = -2;
    this.slashAt = -2;
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.capture) {
        i = this.scanCapture(chunk, i);
        continue;
      }
      const b = chunk[i]!;
      if (isSpace(b)) {
        i++;
        continue;
      }
      i = this.structural(chunk, i, b);
    }
  }

  /** The page's envelope (its members other than `items`), once the whole body was written. */
  end(): PageEnvelope {
    if (this.where === "whole") {
      const value = parse(Buffer.concat(this.whole));
      this.whole = [];
      this.notList = jsonKind(value);
      return (value && typeof value === "object" ? value : {}) as PageEnvelope;
    }
    if (this.where !== "end" || this.capture) throw new InvalidPageJson("the page ends before its JSON does");
    if (!this.sawItems) {
      // `"items": null` is how Go writes an empty slice: an empty list, as kubectl reads it.
      const items = Object.hasOwn(this.envelope, "items") ? this.envelope.items : undefined;
      if (items !== null) this.notList = items === undefined ? "a JSON object without items" : `a JSON object whose items are ${jsonKind(items)}`;
    }
    return this.envelope;
  }

  /**
   * After end(): what the page is when it is not a list (an object whose `items` is an array),
   * in JSON's words ("a JSON string", "a JSON object without items"); undefined for a list.
   */
  notAList(): string | undefined {
    return this.notList;
  }

  /** One structural byte outside any captured value; returns the next index. */
  private structural(chunk: Buffer, i: number, b: number): number {
    switch (this.where) {
      case "start":
        if (b !== 0x7b /* { */) {
          this.where = "whole";
          this.whole.push(chunk.subarray(i));
          return chunk.length;
        }
        this.where = "key-or-end";
        return i + 1;
      case "key-or-end":
      case "key":
        if (b === 0x7d /* } */ && this.where === "key-or-end") {
          this.where = "end";
          return i + 1;
        }
        if (b !== QUOTE) throw new InvalidPageJson("a key was expected");
        this.begin(chunk, i, "key");
        return i;
      case "colon":
        if (b !== 0x3a /* : */) throw new InvalidPageJson("a colon was expected");
        this.where = "value";
        return i + 1;
      case "value":
        if (this.key === "items" && b === 0x5b /* [ */) {
          // A second `items` member replaces the first, as JSON.parse reads duplicate keys: the
          // reader keeps one page's items per decoder, so that would need a new decoder; the API
          // server never sends it, and such a page is refused rather than misread.
          if (this.sawItems) throw new InvalidPageJson("the page names its items twice");
          this.sawItems = true;
          this.where = "element-or-end";
          return i + 1;
        }
        this.begin(chunk, i, "member");
        return i;
      case "after-value":
        if (b === 0x2c /* , */) this.where = "key";
        else if (b === 0x7d) this.where = "end";
        else throw new InvalidPageJson("a comma or the end of the object was expected");
        return i + 1;
      case "element-or-end":
      case "element":
        if (b === 0x5d /* ] */ && this.where === "element-or-end") {
          this.where = "after-value";
          return i + 1;
        }
        this.begin(chunk, i, "item");
        return i;
      case "after-element":
        if (b === 0x2c) this.where = "element";
        else if (b === 0x5d) this.where = "after-value";
        else throw new InvalidPageJson("a comma or the end of the items was expected");
        return i + 1;
      case "end":
        throw new InvalidPageJson("more follows the page's object");
      default:
        throw new InvalidPageJson("unreachable");
    }
  }

  private begin(chunk: Buffer, i: number, role: Capture["role"]): void {
    const b = chunk[i]!;
    const nested = b === 0x7b || b === 0x5b;
    // The first byte is consumed by scanCapture itself (a quote opens the string there).
    this.capture = { parts: [], depth: 0, inString: false, escaped: false, scalar: !nested, role };
  }

  /** Scans the captured value from `start` in the current chunk; returns the index after what it consumed. */
  private scanCapture(chunk: Buffer, start: number): number {
    const c = this.capture!;
    const n = chunk.length;
    let i = start;
    while (i < n) {
      if (c.inString) {
        if (c.escaped) {
          c.escaped = false;
          i++;
          continue;
        }
        // Jump to the next quote or backslash (strings are most of a page's bytes); each is
        // searched for again only once the scan has passed it, so a chunk is searched once.
        if (this.quoteAt !== -1 && this.quoteAt < i) this.quoteAt = chunk.indexOf(QUOTE, i);
        if (this.slashAt !== -1 && this.slashAt < i) this.slashAt = chunk.indexOf(BACKSLASH, i);
        const q = this.quoteAt;
        if (this.slashAt >= 0 && (q < 0 || this.slashAt < q)) {
          c.escaped = true;
          i = this.slashAt + 1;
          continue;
        }
        if (q < 0) break; // the string goes on in the next chunk
        c.inString = false;
        i = q + 1;
        if (c.depth === 0) {
          c.parts.push(chunk.subarray(start, i));
          this.finishCapture();
          return i;
        }
        continue;
      }
      const b = chunk[i]!;
      if (b === QUOTE) {
        c.inString = true;
        i++;
      } else if (b === 0x7b || b === 0x5b) {
        c.depth++;
        i++;
      } else if (b === 0x7d || b === 0x5d) {
        if (c.depth === 0) {
          // A literal ended by the enclosing object or array.
          c.parts.push(chunk.subarray(start, i));
          this.finishCapture();
          return i;
        }
        c.depth--;
        i++;
        if (c.depth === 0) {
          c.parts.push(chunk.subarray(start, i));
          this.finishCapture();
          return i;
        }
      } else if (c.depth === 0 && (b === 0x2c || b === 0x3a || isSpace(b))) {
        // A literal (number, true, false, null) ends before its delimiter.
        c.parts.push(chunk.subarray(start, i));
        this.finishCapture();
        return i;
      } else i++;
    }
    c.parts.push(chunk.subarray(start, n));
    return n;
  }

  private finishCapture(): void {
    const c = this.capture!;
    this.capture = undefined;
    const value = parse(c.parts.length === 1 ? c.parts[0]! : Buffer.concat(c.parts));
    if (c.role === "key") {
      this.key = value as string;
      this.where = "colon";
    } else if (c.role === "member") {
      // As JSON.parse makes it: an own property, even one called __proto__.
      Object.defineProperty(this.envelope, this.key, { value, enumerable: true, writable: true, configurable: true });
      this.where = "after-value";
    } else {
      this.where = "after-element";
      this.onItem(value);
    }
  }
}

/** JSON's name for what a value is ("a JSON string", "JSON null", …). */
export function jsonKind(value: unknown): string {
  if (value === null) return "JSON null";
  if (Array.isArray(value)) return "a JSON array";
  if (typeof value === "object") return "a JSON object";
  if (typeof value === "boolean") return `JSON ${String(value)}`;
  return `a JSON ${typeof value}`;
}

function parse(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new InvalidPageJson("the page is not JSON");
  }
}
