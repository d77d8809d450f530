// A strict JSON reader for plan documents: RFC 8259 grammar only, duplicate object keys refused
// (JSON.parse silently keeps the last one, so two readers could disagree about which statement a
// plan holds), object key order preserved. Pure.

import { MAX_DEPTH } from "../model/depth.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export class StrictJsonError extends Error {}

export function parseStrictJson(text: string): JsonValue {
  const p = new Parser(text);
  p.ws();
  const value = p.value(0);
  p.ws();
  if (p.i !== text.length) p.fail("unexpected text after the document");
  return value;
}

class Parser {
  i = 0;
  private readonly s: string;
  constructor(text: string) {
    this.s = text;
  }

  fail(what: string): never {
    throw new StrictJsonError(`${what} at offset ${this.i}`);
  }

  ws(): void {
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail("nesting is too deep");
    const c = this.s[this.i];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
        return this.fail(c === undefined ? "unexpected end of the document" : "unexpected character");
    }
  }

  literal<T extends JsonValue>(word: string, value: T): T {
    if (this.s.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    return this.fail("unexpected character");
  }

  number(): number {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) return this.fail("malformed number");
    this.i += m[0].length;
    return Number(m[0]);
  }

  string(): string {
    this.i++; // opening quote
    // A string with escapes is built from its pieces by one join: a flat string, where `+=` would
    // leave a rope of two cells a piece (a plan's SQL has an escaped newline every line or so:
    // ~30 MB of cells for the 8 MiB plan) holding slices of the whole document.
    let pieces: string[] | undefined;
    let start = this.i;
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail("unterminated string");
      if (c === 0x22) {
        const last = this.s.slice(start, this.i);
        this.i++;
        if (pieces === undefined) return last;
        pieces.push(last);
        return pieces.join("");
      }
      if (c < 0x20) this.fail("control character in a string");
      if (c === 0x5c) {
        (pieces ??= []).push(this.s.slice(start, this.i));
        this.i++;
        pieces.push(this.escape());
        start = this.i;
        continue;
      }
      this.i++;
    }
  }

  escape(): string {
    const c = this.s[this.i++];
    switch (c) {
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "/":
        return "/";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "u": {
        const hex = this.s.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("malformed \\u escape");
        this.i += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail("unknown escape");
    }
  }

  array(depth: number): JsonValue[] {
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expected , or ]");
    }
  }

  object(depth: number): { [key: string]: JsonValue } {
    this.i++;
    // A null-prototype object: "__proto__" is an ordinary key here, never a prototype switch.
    const out = Object.create(null) as { [key: string]: JsonValue };
    const seen = new Set<string>();
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail("expected a key");
      const key = this.string();
      if (seen.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`);
      seen.add(key);
      this.ws();
      if (this.s[this.i++] !== ":") this.fail("expected :");
      this.ws();
      out[key] = this.value(depth + 1);
      this.ws();
      const c = this.s[this.i++];
      if (c === "}") return out;
      if (c !== ",") this.fail("expected , or }");
    }
  }
}
