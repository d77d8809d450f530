// The canonical JSON form the operator hashes: Go encoding/json output.
// Compact, HTML-safe escapes, UTF-8. A Map keeps its insertion order (a Go struct's fields in
// declaration order); a plain object is encoded with sorted keys (a Go map). Pure.
import { createHash } from "node:crypto";

export type CanonicalValue =
  null | boolean | number | bigint | string | readonly CanonicalValue[] | ReadonlyMap<string, CanonicalValue> | { readonly [key: string]: CanonicalValue };

/** A Go struct: fields in exactly the given order. */
export function struct(entries: readonly (readonly [string, CanonicalValue])[]): ReadonlyMap<string, CanonicalValue> {
  return new Map(entries);
}

const HEX = "0123456789abcdef";

/**
 * A UTF-16 unit Go's encoder does not copy as is: quotes, backslash, controls, HTML's <>&, U+2028/9,
 * and a surrogate that is not half of a pair (a pair is one character, copied as is).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Go's string encoder with escapeHTML on (Go ≥ 1.22: `\b` and `\f` have short escapes).
 * A lone UTF-16 surrogate cannot be UTF-8; it becomes `\ufffd`, as Go does for invalid bytes.
 * Only the units NEEDS_ESCAPE finds are touched: the text between them is copied whole (a plan
 * document is megabytes of SQL).
 */
export function encodeString(s: string): string {
  return '"' + s.replace(NEEDS_ESCAPE, escapeUnit) + '"';
}

/** The escape of one unit NEEDS_ESCAPE found. */
function escapeUnit(unit: string): string {
  const c = unit.charCodeAt(0);
  if (c >= 0xd800 && c <= 0xdfff) return "\\ufffd";
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
  }
  return "\\u" + HEX[(c >> 12) & 15]! + HEX[(c >> 8) & 15]! + HEX[(c >> 4) & 15]! + HEX[c & 15]!;
}

/** Go's float64 encoding: shortest round-trip digits; exponent form below 1e-6 and from 1e21. */
function encodeNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`canonical JSON has no form for ${n}`);
  if (Object.is(n, -0)) return "-0";
  // JavaScript's Number#toString picks the same digits and the same thresholds as Go's
  // strconv 'f'/'e' choice in encoding/json, including the "e-7" (not "e-07") exponent.
  return String(n);
}

/** Go map keys sort by their UTF-8 bytes, which differs from UTF-16 order above U+D7FF. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function encodeValue(value: CanonicalValue, parts: string[]): void {
  if (value === null) {
    parts.push("null");
  } else if (typeof value === "boolean") {
    parts.push(value ? "true" : "false");
  } else if (typeof value === "number") {
    parts.push(encodeNumber(value));
  } else if (typeof value === "bigint") {
    parts.push(value.toString());
  } else if (typeof value === "string") {
    parts.push(encodeString(value));
  } else if (Array.isArray(value)) {
    parts.push("[");
    (value as readonly CanonicalValue[]).forEach((item, i) => {
      if (i > 0) parts.push(",");
      encodeValue(item, parts);
    });
    parts.push("]");
  } else if (value instanceof Map) {
    encodeEntries([...(value as ReadonlyMap<string, CanonicalValue>).entries()], parts);
  } else if (typeof value === "object") {
    const record = value as { readonly [key: string]: CanonicalValue };
    const keys = Object.keys(record).sort(compareUtf8);
    encodeEntries(
      keys.map((k) => [k, record[k]!] as const),
      parts,
    );
  } else {
    throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}

function encodeEntries(entries: readonly (readonly [string, CanonicalValue])[], parts: string[]): void {
  parts.push("{");
  entries.forEach(([key, item], i) => {
    if (i > 0) parts.push(",");
    parts.push(encodeString(key), ":");
    encodeValue(item, parts);
  });
  parts.push("}");
}

/** The canonical text (a JavaScript string; see canonicalJSONBytes for the hashed bytes). */
export function canonicalJSON(value: CanonicalValue): string {
  const parts: string[] = [];
  encodeValue(value, parts);
  return parts.join("");
}

export function canonicalJSONBytes(value: CanonicalValue): Uint8Array {
  return Buffer.from(canonicalJSON(value), "utf8");
}

/** DigestBytes: "sha256:" + lowercase hex. */
export function digestBytes(bytes: Uint8Array): string {
  return "sha256:" + createHash("sha256").update(bytes).digest("hex");
}

/** DigestCanonicalJSON. */
export function digestCanonicalJSON(value: CanonicalValue): string {
  return digestBytes(canonicalJSONBytes(value));
}
