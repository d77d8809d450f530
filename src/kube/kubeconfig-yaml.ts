// Parsing a kubeconfig file's YAML. js-yaml reads a plain scalar character by character, and a
// kubeconfig is mostly base64 (certificates and keys: 17 of the lab's 18 KB), so its parse was a
// tenth of the plugin's own work in a single GET (test/bench/profile.mjs). Long base64
// values standing alone after `key: ` are set aside before the parse and put back into the
// parsed strings after it: the same document. A parse error is reported from the text as written.
// Every document is bounded before anything walks it: its aliases by go-yaml's rule, its nesting by
// the one depth bound (yaml-aliases.ts).
import yaml from "js-yaml";
import { MAX_DEPTH } from "../model/depth.ts";
import { checkYamlBounds, YamlBoundError } from "./yaml-aliases.ts";

/** `key: <256+ base64 characters>` up to the end of the line (CRLF files take the plain path). */
const LONG_BASE64 = /^([ \t]*(?:- )?[A-Za-z0-9_.-]+:[ \t]+)([A-Za-z0-9+/]{256,}={0,2})(?=[ \t]*$)/gmu;

/**
 * A letter that no YAML number can hold (0x, 0o, 0b prefixes, hex digits and exponents excluded):
 * a value without one might be read as a number, so it stays in place.
 */
const NOT_A_NUMBER = /[g-np-wyzG-NP-WYZ/]/u;

/**
 * One document, bounded. js-yaml's own nesting limit stops its recursive parse just past the
 * bound (it counts the scalar below the deepest collection, and one more), and says so in the same words.
 */
function load(text: string): unknown {
  let doc: unknown;
  try {
    doc = yaml.load(text, { maxDepth: MAX_DEPTH + 2 } as yaml.LoadOptions);
  } catch (err) {
    if (err instanceof Error && err.message.startsWith("nesting exceeded maxDepth")) throw new YamlBoundError(`yaml: nesting is deeper than ${MAX_DEPTH} levels`);
    throw err;
  }
  checkYamlBounds(doc);
  return doc;
}

export function loadYaml(text: string): unknown {
  const nonce = `ptahb64${Math.random().toString(36).slice(2)}n`;
  if (text.includes(nonce)) return load(text);
  const values: string[] = [];
  const short = text.replace(LONG_BASE64, (line, head: string, value: string) => {
    if (!NOT_A_NUMBER.test(value)) return line;
    values.push(value);
    return `${head}${nonce}${values.length - 1}z`;
  });
  if (values.length === 0) return load(text);
  let doc: unknown;
  try {
    doc = load(short);
  } catch (err) {
    if (err instanceof YamlBoundError) throw err;
    return load(text); // throws the error, with the line and column of the file
  }
  const placeholder = new RegExp(`${nonce}(\\d+)z`, "gu");
  // An alias is the same object met again: restored once (within the bound, the walk is as long as the text).
  const restored = new Set<object>();
  const restore = (v: unknown): unknown => {
    if (typeof v === "string") return v.includes(nonce) ? v.replace(placeholder, (_, i: string) => values[Number(i)]!) : v;
    if (v === null || typeof v !== "object" || restored.has(v)) return v;
    restored.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = restore(v[i]);
      return v;
    }
    if (Object.getPrototypeOf(v) === Object.prototype) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) o[k] = restore(o[k]);
    }
    return v;
  };
  return restore(doc);
}
