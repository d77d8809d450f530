// Detached SSH signatures (OpenSSH's PROTOCOL.sshsig, what `ssh-keygen -Y sign` writes and git
// verifies): the armored blob MAGIC "SSHSIG", version 1, the public key, the namespace, a reserved
// string, the hash algorithm and the signature, where the signed data is MAGIC, the namespace,
// the reserved string, the hash algorithm and H(message). An export's seal proves only that the
// file is consistent (anyone can recompute it after a change); a signature checked against an
// allowed signers file proves who wrote it. Pure: bytes in, text or a verdict out.
import { createHash } from "node:crypto";
import { VerificationError } from "../errors.ts";
import { parseAllowedSigners, principalsFor } from "./allowed-signers.ts";
import type { SshPrivateKey } from "./ssh-private-key.ts";
import { fingerprintOf, keyTypeLabel, makeSshSignature, publicKeyOf, verifySshSignature, WireError, WireReader, WireWriter } from "./ssh-wire.ts";

/** The namespace of an export's signature: a signature made for git or a file elsewhere is not one. */
export const PLAN_SIGNATURE_NAMESPACE = "kubectl-ptah-plan";

const MAGIC = "SSHSIG";
const VERSION = 1;
const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
const HASHES = ["sha512", "sha256"] as const;
type HashAlg = (typeof HASHES)[number];

function signedData(namespace: string, hash: HashAlg, message: Uint8Array): Uint8Array {
  const digest = createHash(hash).update(message).digest();
  return new WireWriter().raw(MAGIC).string(namespace).string("").string(hash).string(digest).bytes();
}

/** ssh-keygen's armor: the header, base64 in lines of 70 characters, the footer, a newline. */
function armor(blob: Uint8Array): string {
  const b64 = Buffer.from(blob).toString("base64");
  const lines = b64.match(/.{1,70}/gu) ?? [];
  return `${BEGIN}\n${lines.join("\n")}\n${END}\n`;
}

/** The signature of `message` by `key` in `namespace`, armored as `ssh-keygen -Y sign` writes it (sha512). */
export function signMessage(message: Uint8Array, key: SshPrivateKey, namespace: string): string {
  const signature = makeSshSignature(key.type, key.key, signedData(namespace, "sha512", message));
  const blob = new WireWriter().raw(MAGIC).uint32(VERSION).string(key.publicBlob).string(namespace).string("").string("sha512").string(signature).bytes();
  return armor(blob);
}

interface ParsedSignature {
  readonly publicBlob: Uint8Array;
  readonly namespace: string;
  readonly hash: string;
  readonly signature: Uint8Array;
}

function parseArmored(text: string): ParsedSignature {
  const lines = text.replace(/\r\n/gu, "\n").trim().split("\n");
  if (lines[0] !== BEGIN || lines[lines.length - 1] !== END) throw new WireError(`it is not between ${BEGIN} and ${END}`);
  const b64 = lines.slice(1, -1).join("");
  if (!/^[A-Za-z0-9+/]*={0,2}$/u.test(b64)) throw new WireError("its body is not base64");
  const r = new WireReader(Buffer.from(b64, "base64"));
  if (Buffer.from(r.raw(MAGIC.length)).toString("latin1") !== MAGIC) throw new WireError(`it does not start with ${MAGIC}`);
  const version = r.uint32();
  if (version !== VERSION) throw new WireError(`its version is ${version}; this plugin reads version ${VERSION}`);
  const publicBlob = r.string();
  const namespace = r.text();
  r.string(); // reserved: ignored when not empty, as PROTOCOL.sshsig says
  const parsed = { publicBlob, namespace, hash: r.text(), signature: r.string() };
  if (!r.done) throw new WireError("it has bytes after its signature");
  return parsed;
}

export interface SignatureInput {
  readonly message: Uint8Array;
  /** The .sig file's bytes. */
  readonly signature: Uint8Array;
  readonly allowedSigners: Uint8Array;
  readonly namespace: string;
  /** The principal that must have signed (ssh-keygen -Y verify's -I); undefined: whoever the file names for the key. */
  readonly signer?: string | undefined;
  /** How messages name the files: the signature, the allowed signers, the signed file. */
  readonly names: { readonly signature: string; readonly allowedSigners: string; readonly message: string };
}

/** Who signed, when the signature holds: every principal the file allows for the key, and the key. */
export interface Signer {
  readonly principals: readonly string[];
  readonly keyType: string;
  readonly fingerprint: string;
}

/**
 * Checks a detached signature as `ssh-keygen -Y verify` would, finding the signer by the key (as
 * `-Y find-principals` does): the namespace, the key in the allowed signers file for that
 * namespace (and, with a signer, on a line whose principals match it, as -I asks), then the
 * signature over the message's hash. Throws a VerificationError naming what failed.
 */
export function verifySignature(input: SignatureInput): Signer {
  const { names } = input;
  let parsed: ParsedSignature;
  try {
    parsed = parseArmored(new TextDecoder().decode(input.signature));
  } catch (err) {
    throw new VerificationError(`${names.signature} is not an SSH signature: ${(err as Error).message}`);
  }
  if (parsed.namespace !== input.namespace) {
    throw new VerificationError(`${names.signature} is a signature in the namespace ${JSON.stringify(parsed.namespace)}, not ${input.namespace}: it was made for another use`);
  }
  if (!(HASHES as readonly string[]).includes(parsed.hash)) throw new VerificationError(`${names.signature} hashes with ${parsed.hash}; SSH signatures use sha512 or sha256`);
  let key;
  try {
    key = publicKeyOf(parsed.publicBlob);
  } catch (err) {
    throw new VerificationError(`${names.signature} names a key this plugin cannot check: ${(err as Error).message}`);
  }
  const fingerprint = fingerprintOf(parsed.publicBlob);
  const keyText = `${keyTypeLabel(key.type)} key ${fingerprint}`;
  let signersText: string;
  try {
    // ssh-keygen compares bytes: a byte that is not UTF-8 would read here as U+FFFD and could
    // match a name it never matches there, and a leading byte-order mark is part of the first
    // principal there (dropped, "alice" would match a line that names "\ufeffalice").
    signersText = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input.allowedSigners);
  } catch {
    throw new VerificationError(`the allowed signers file ${names.allowedSigners} is not UTF-8 text`);
  }
  const signers = parseAllowedSigners(signersText, names.allowedSigners);
  const principals = principalsFor(signers, parsed.publicBlob, input.namespace, { key: keyText, file: names.allowedSigners }, input.signer);
  let good: boolean;
  try {
    good = verifySshSignature(key, signedData(input.namespace, parsed.hash as HashAlg, input.message), parsed.signature);
  } catch (err) {
    throw new VerificationError(`${names.signature} does not hold a valid signature: ${(err as Error).message}`);
  }
  if (!good) {
    throw new VerificationError(
      `${names.signature} is not a signature of ${names.message} as it is now by ${principals.join(", ")} (${keyText}): the file was changed after it was signed, or the signature is of another file`,
    );
  }
  return { principals, keyType: keyTypeLabel(key.type), fingerprint };
}
