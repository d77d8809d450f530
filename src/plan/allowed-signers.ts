// ssh-keygen's ALLOWED SIGNERS file (ssh-keygen(1)): one key a line, `principals [options]
// keytype base64key [comment]`, blank lines and # comments ignored. This plugin finds the lines
// naming a signature's key (as `ssh-keygen -Y find-principals` does) and reports their principals,
// so a principal must name one signer: a pattern (*, ?, !) on a matching line is refused plainly.
// With a required signer (as `ssh-keygen -Y verify -I`), the principals are a pattern list matched
// against it, as ssh-keygen reads them, and the signer is who is reported.
// Of the options, namespaces="…" is honoured; cert-authority lines vouch for certificates, which
// this plugin does not read, so they match no key; valid-after and valid-before are refused on a
// matching line rather than ignored. Pure.
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

/** Splits on `sep` (whitespace when undefined) outside double quotes. */
function split(text: string, sep?: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    const breaks = !quoted && (sep === undefined ? ch === " " || ch === "\t" : ch === sep);
    if (breaks) {
      if (cur !== "" || sep !== undefined) out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (quoted) throw new Error("a quote is not closed");
  if (cur !== "" || sep !== undefined) out.push(cur);
  return out;
}

const unquote = (s: string): string => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

/** A key type's name as the file writes it (not an option list). */
const KEY_TYPE = /^(ssh-|ecdsa-|sk-|rsa-)[a-z0-9.@-]+$/u;

function parseLine(text: string, line: number): AllowedSigner {
  const tokens = split(text);
  const principals = unquote(tokens[0]!);
  let at = 1;
  const options = tokens[at] !== undefined && !KEY_TYPE.test(tokens[at]!) ? split(tokens[at++]!, ",") : [];
  const keyType = tokens[at];
  const key = tokens[at + 1];
  if (keyType === undefined || key === undefined || !KEY_TYPE.test(keyType)) throw new Error("it names no key type and key");
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(key)) throw new Error("its key is not base64");
  const blob = Buffer.from(key, "base64");
  if (new WireReader(blob).text() !== keyType) throw new Error(`its key is not a ${keyType} key`);
  let namespaces: string[] | undefined;
  let certAuthority = false;
  const unread: string[] = [];
  for (const option of options) {
    const [name, ...value] = option.split("=");
    if (name === "namespaces") namespaces = unquote(value.join("=")).split(",");
    else if (name === "cert-authority") certAuthority = true;
    else unread.push(name!);
  }
  return { line, principals, keyType, blob, namespaces, certAuthority, unread };
}

/** Every key line of the file; a line that does not read is refused with its number. */
export function parseAllowedSigners(text: string, name: string): AllowedSigner[] {
  const out: AllowedSigner[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/u, "").trim();
    if (line === "" || line.startsWith("#")) return;
    try {
      out.push(parseLine(line, i + 1));
    } catch (err) {
      throw new VerificationError(`the allowed signers file ${name} does not read at line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return out;
}

/** ssh's pattern match: * any run, ? any one character. */
function glob(pattern: string, text: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/gu, "\\$&")
    .replace(/\*/gu, ".*")
    .replace(/\?/gu, ".");
  return new RegExp(`^${re}$`, "u").test(text);
}

/** ssh's pattern list: a negated (!) pattern that matches denies; otherwise any one match allows. */
export function matchesPatternList(patterns: readonly string[], text: string): boolean {
  let allowed = false;
  for (const p of patterns) {
    if (p.startsWith("!")) {
      if (glob(p.slice(1), text)) return false;
    } else if (glob(p, text)) allowed = true;
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
