// ssh-keygen's ALLOWED SIGNERS file (ssh-keygen(1)): one key a line, `principals [options]
// keytype base64key [comment]`, blank lines and # comments ignored. This plugin finds the lines
// naming a signature's key (as `ssh-keygen -Y find-principals` does) and reports their principals,
// so a principal must name one signer: a pattern (*, ?, !) on a matching line is refused plainly.
// With a required signer (as `ssh-keygen -Y verify -I`), the principals are a pattern list matched
// against it, as ssh-keygen reads them, and the signer is who is reported.
// A line is read by OpenSSH's grammar, not a simpler one, so no name reads differently here than
// there: the principals field ends at whitespace or holds one quoted stretch (its quotes dropped,
// whatever stands before them); options are cert-authority and namespaces/valid-after/valid-before
// ="…" (names in any case, values quoted, \" inside), comma-separated; patterns match bytes.
// Where ssh-keygen skips a line it cannot read, this plugin refuses the file: stricter, never
// weaker. Of the options, namespaces="…" is honoured; cert-authority lines vouch for certificates,
// which this plugin does not read, so they match no key; valid-after and valid-before are refused
// on a matching line rather than ignored. Pure.
import { VerificationError } from "../errors.ts";
import { WireReader } from "./ssh-wire.ts";

export interface AllowedSigner {
  /** 1-based, for messages. */
  readonly line: number;
  readonly principals: string;
  readonly keyType: string;
  readonly blob: Uint8Array;
  /** The namespaces="…" patterns; undefined: any namespace. */
  readonly namespaces: readonly string[] | undefined;
  readonly certAuthority: boolean;
  /** Options this plugin does not read, by name. */
  readonly unread: readonly string[];
}

/** The characters OpenSSH's field splitter (misc.c strdelim) takes for whitespace. */
const isWhite = (ch: string | undefined): boolean => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
const isBlank = (ch: string | undefined): boolean => ch === " " || ch === "\t";

function skip(text: string, at: number, white: (ch: string | undefined) => boolean): number {
  let i = at;
  while (i < text.length && white(text[i])) i++;
  return i;
}

/**
 * The principals field and where the rest starts: up to the first whitespace or quote; at a quote,
 * that quote is dropped and the field runs to the next one, which ends it wherever it stands.
 */
function principalsField(text: string): { value: string; rest: number } {
  let i = 0;
  while (i < text.length && !isWhite(text[i]) && text[i] !== '"') i++;
  if (text[i] !== '"') return { value: text.slice(0, i), rest: skip(text, i, isWhite) };
  const close = text.indexOf('"', i + 1);
  if (close < 0) throw new Error("a quote is not closed");
  return { value: text.slice(0, i) + text.slice(i + 1, close), rest: skip(text, close + 1, isWhite) };
}

/** A key type's name as the file writes it (not an option list). */
const KEY_TYPE = /^(ssh-|ecdsa-|sk-|rsa-)[a-z0-9.@-]+$/u;

/** The key at `at` (type, blanks, base64; a comment may follow), or undefined when no key type stands there. */
function readKey(text: string, at: number): { keyType: string; blob: Uint8Array } | undefined {
  let end = at;
  while (end < text.length && !isBlank(text[end])) end++;
  const keyType = text.slice(at, end);
  if (!KEY_TYPE.test(keyType)) return undefined;
  const from = skip(text, end, isBlank);
  let to = from;
  while (to < text.length && !isBlank(text[to])) to++;
  // OpenSSH's base64 decoder (b64_pton) passes over every isspace character (VT written \x0B: Stryker
  // reads \v as a class and writes an invalid \V); only a blank ends the key.
  // eslint-disable-next-line no-control-regex -- VT is one of the characters the decoder passes over
  const key = text.slice(from, to).replace(/[\r\n\f\x0B]/gu, "");
  if (key === "") throw new Error("it names no key type and key");
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(key)) throw new Error("its key is not base64");
  const blob = Buffer.from(key, "base64");
  if (new WireReader(blob).text() !== keyType) throw new Error(`its key is not a ${keyType} key`);
  return { keyType, blob };
}

/** Where the options field ends: the first blank outside double quotes (a \" does not toggle them). */
function pastOptions(text: string, at: number): number {
  let quoted = false;
  let i = at;
  for (; i < text.length && (quoted || !isBlank(text[i])); i++) {
    if (text[i] === "\\" && text[i + 1] === '"') i++;
    else if (text[i] === '"') quoted = !quoted;
  }
  if (quoted) throw new Error("a quote in its options is not closed");
  return i;
}

/** A quoted option value at `at`: its text (\" read as ") and where it ends. */
function dequote(text: string, at: number, name: string): { value: string; next: number } {
  if (text[at] !== '"') throw new Error(`its ${name} option's value is not quoted`);
  let value = "";
  let i = at + 1;
  for (; i < text.length && text[i] !== '"'; i++) {
    if (text[i] === "\\" && text[i + 1] === '"') i++;
    value += text[i];
  }
  if (i >= text.length) throw new Error(`its ${name} option's value has no closing quote`);
  return { value, next: i + 1 };
}

const VALUED = /^(namespaces|valid-after|valid-before)=/iu;
const CERT_AUTHORITY = "cert-authority";

/** The options as OpenSSH's sshsigopt_parse reads them; anything else refuses the line. */
function parseOptions(text: string): Pick<AllowedSigner, "namespaces" | "certAuthority" | "unread"> {
  let namespaces: string[] | undefined;
  let certAuthority = false;
  const unread: string[] = [];
  let i = 0;
  while (i < text.length) {
    const here = text.slice(i);
    const valued = VALUED.exec(here);
    if (here.slice(0, CERT_AUTHORITY.length).toLowerCase() === CERT_AUTHORITY) {
      certAuthority = true;
      i += CERT_AUTHORITY.length;
    } else if (valued) {
      const name = valued[1]!.toLowerCase();
      const { value, next } = dequote(text, i + valued[0].length, name);
      if (name !== "namespaces") unread.push(name);
      else if (namespaces !== undefined) throw new Error("it has two namespaces options");
      else namespaces = value.split(",");
      i = next;
    } else throw new Error(`its option ${JSON.stringify(here.split(",")[0])} is not one ssh-keygen knows`);
    if (i === text.length) break;
    if (text[i] !== ",") throw new Error(`its option ${JSON.stringify(text.slice(i).split(",")[0])} is not one ssh-keygen knows`);
    i++;
  }
  return { namespaces, certAuthority, unread };
}

function parseLine(text: string, line: number): AllowedSigner {
  const { value: principals, rest } = principalsField(text);
  if (principals === "") throw new Error("it names no principals");
  const plain = readKey(text, rest);
  if (plain) return { line, principals, ...plain, namespaces: undefined, certAuthority: false, unread: [] };
  const end = pastOptions(text, rest);
  const key = readKey(text, skip(text, end, isBlank));
  if (!key) throw new Error("it names no key type and key");
  return { line, principals, ...key, ...parseOptions(text.slice(rest, end)) };
}

/** Every key line of the file; a line that does not read is refused with its number. */
export function parseAllowedSigners(text: string, name: string): AllowedSigner[] {
  const out: AllowedSigner[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.slice(skip(raw, 0, isBlank));
    if (line === "" || line === "\r" || line.startsWith("#")) return;
    try {
      out.push(parseLine(line, i + 1));
    } catch (err) {
      throw new VerificationError(`the allowed signers file ${name} does not read at line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return out;
}

/** OpenSSH's match_pattern over bytes: * any run, ? any one byte. */
function glob(pattern: Uint8Array, text: Uint8Array): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === 0x3f || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === 0x2a) {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === 0x2a) p++;
  return p === pattern.length;
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, "utf8");

/** OpenSSH's pattern list splits into sub-patterns of under 1023 bytes; a longer one matches nothing. */
const SUB_PATTERN_LIMIT = 1023;

/** ssh's pattern list: a negated (!) pattern that matches denies; otherwise any one match allows. */
export function matchesPatternList(patterns: readonly string[], text: string): boolean {
  const bytes = utf8(text);
  let allowed = false;
  for (const p of patterns) {
    const negated = p.startsWith("!");
    const sub = utf8(negated ? p.slice(1) : p);
    if (sub.length >= SUB_PATTERN_LIMIT) return false;
    if (!glob(sub, bytes)) continue;
    if (negated) return false;
    allowed = true;
  }
  return allowed;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/**
 * The principals the file allows to sign in `namespace` with the key `blob` (one entry per line),
 * or a VerificationError saying why none is: the key is not there, or not for this namespace.
 * With `signer` (ssh-keygen -Y verify's -I), only the lines whose principals, a pattern list, match
 * it count, as ssh-keygen reads them: the key must be listed for that signer, not under another
 * name; and the signer is the one principal reported.
 */
export function principalsFor(signers: readonly AllowedSigner[], blob: Uint8Array, namespace: string, described: { key: string; file: string }, signer?: string): string[] {
  const keyLines = signers.filter((s) => !s.certAuthority && sameBytes(s.blob, blob));
  if (keyLines.length === 0) throw new VerificationError(`the signature's key (${described.key}) is not in the allowed signers file ${described.file}`);
  const lines = signer === undefined ? keyLines : keyLines.filter((s) => matchesPatternList(s.principals.split(","), signer));
  if (lines.length === 0) {
    const listed = keyLines.map((s) => `${JSON.stringify(s.principals)} (line ${s.line})`).join(", ");
    throw new VerificationError(`the signature's key (${described.key}) is not listed for ${signer} in ${described.file}, only for ${listed}`);
  }
  const allowed = lines.filter((s) => s.namespaces === undefined || matchesPatternList(s.namespaces, namespace));
  if (allowed.length === 0) {
    const where = lines.map((s) => `line ${s.line} allows namespaces="${s.namespaces!.join(",")}"`).join("; ");
    throw new VerificationError(`the signature's key (${described.key}) is not allowed to sign in the namespace ${namespace} by ${described.file}: ${where}`);
  }
  for (const s of allowed) {
    if (s.unread.length > 0) {
      throw new VerificationError(`line ${s.line} of ${described.file} has the option ${s.unread[0]}, which this plugin does not read; it honours namespaces="…" only`);
    }
    if (signer === undefined && /[*?!]/u.test(s.principals)) {
      throw new VerificationError(
        `line ${s.line} of ${described.file} names the signer by the pattern ${JSON.stringify(s.principals)}; this plugin reports who signed, so it reads exact principals only`,
      );
    }
  }
  return signer === undefined ? allowed.map((s) => s.principals) : [signer];
}
