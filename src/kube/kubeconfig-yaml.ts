// Parsing a kubeconfig file's YAML. js-yaml reads a plain scalar character by character, and a
// kubeconfig is mostly base64 (certificates and keys: 17 of the lab's 18 KB), so its parse was a
// tenth of the plugin's own work in a single GET (test/bench/profile.mjs). Long base64
// values standing alone after `key: ` are set aside before the parse and put back into the
// parsed strings after it: the same document. A parse error is reported from the text as written.
import yaml from "js-yaml";

/** `key: <256+ base64 characters>` up to the end of the line (CRLF files take the plain path). */
const LONG_BASE64 = /^([ \t]*(?:- )?[A-Za-z0-9_.-]+:[ \t]+)([A-Za-z0-9+/]{256,}={0,2})(?=[ \t]*$)/gmu;

/**
 * A letter that no YAML number can hold (0x, 0o, 0b prefixes, hex digits and exponents excluded):
 * a value without one might be read as a number, so it stays in place.
 */
const NOT_A_NUMBER = /[g-np-wyzG-NP-WYZ/]/u;

export function loadYaml(text: string): unknown {
  const nonce = `ptahb64${Math.random().toString(36).slice(2)}n`;
  if (text.includes(nonce)) return yaml.load(text);
  const values: string[] = [];
  const short = text.replace(LONG_BASE64, (line, head: string, value: string) => {
    if (!NOT_A_NUMBER.test(value)) return line;
    values.push(value);
    return `${head}${nonce}${values.length - 1}z`;
  });
  if (values.length === 0) return yaml.load(text);
  let doc: unknown;
  try {
    doc = yaml.load(short);
  } catch {
    return yaml.load(text); // throws the error, with the line and column of the file
  }
  const placeholder = new RegExp(`${nonce}(\\d+)z`, "gu");
  const restore = (v: unknown): unknown => {
    if (typeof v === "string") return v.includes(nonce) ? v.replace(placeholder, (_, i: string) => values[Number(i)]!) : v;
    if (Array.isArray(v)) return v.map(restore);
    if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) o[k] = restore(o[k]);
    }
    return v;
  };
  return restore(doc);
}
