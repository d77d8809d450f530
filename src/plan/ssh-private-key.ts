// An OpenSSH private key file (ssh-keygen's own format, "openssh-key-v1", PROTOCOL.key) read into
// node:crypto's KeyObject through a JWK: unencrypted ed25519, ECDSA (nistp256/384/521) and RSA
// keys. An encrypted key is refused rather than asked for a passphrase: this plugin reads no
// terminal, and `ssh-keygen -Y sign` makes the same signature with any key it can use. Pure.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { RefusalError } from "../errors.ts";
import { b64url, CURVES, publicJwk, SUPPORTED_KEY_TYPES, WireError, WireReader, type CurveName } from "./ssh-wire.ts";

export interface SshPrivateKey {
  readonly type: string;
  /** The public key blob, as the signature names it. */
  readonly publicBlob: Uint8Array;
  readonly key: KeyObject;
  readonly comment: string;
}

const MAGIC = "openssh-key-v1\0";
const ARMOR = /^-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END OPENSSH PRIVATE KEY-----\s*$/u;

function bigOf(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString("hex")}`);
}

function bytesOf(n: bigint): Uint8Array {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex");
}

function padTo(b: Uint8Array, size: number): Uint8Array {
  if (b.length > size) throw new WireError("its private scalar is longer than its curve allows");
  return Buffer.concat([Buffer.alloc(size - b.length), b]);
}

/** The private half, read from the key's own section, as a JWK next to the public one. */
function privateJwk(r: WireReader, type: string, pub: Record<string, string>): Record<string, string> {
  if (type === "ssh-ed25519") {
    r.string(); // the public key again
    const both = r.string(); // seed ‖ public key
    if (both.length !== 64) throw new WireError("its ed25519 private key is not 64 bytes");
    return { ...pub, d: b64url(both.subarray(0, 32)) };
  }
  if (type === "ssh-rsa") {
    const [n, e, d, iqmp, p, q] = [r.mpint(), r.mpint(), r.mpint(), r.mpint(), r.mpint(), r.mpint()];
    const [D, P, Q] = [bigOf(d), bigOf(p), bigOf(q)];
    if (P < 2n || Q < 2n) throw new WireError("its RSA primes are not primes");
    // OpenSSH keeps iqmp = q⁻¹ mod p, which is JWK's qi; dp and dq are derived from d.
    return {
      kty: "RSA",
      n: b64url(n),
      e: b64url(e),
      d: b64url(d),
      p: b64url(p),
      q: b64url(q),
      dp: b64url(bytesOf(D % (P - 1n))),
      dq: b64url(bytesOf(D % (Q - 1n))),
      qi: b64url(iqmp),
    };
  }
  const curve = r.text() as CurveName;
  r.string(); // the public point again
  return { ...pub, d: b64url(padTo(r.mpint(), CURVES[curve].size)) };
}

const sameKey = (a: Record<string, unknown>, b: Record<string, string>): boolean => ["x", "y", "n", "e"].every((k) => a[k] === b[k]);

/** Reads a private key file; `name` is how the refusals name it (the path as typed). */
export function parsePrivateKey(bytes: Uint8Array, name: string): SshPrivateKey {
  const text = Buffer.from(bytes).toString("latin1");
  const armored = ARMOR.exec(text);
  if (!armored) {
    const other = /-----BEGIN ([A-Z ]+)-----/u.exec(text)?.[1];
    const what = other ? `a ${other} file` : "not a key file";
    throw new RefusalError(`${name} is ${what}, not an OpenSSH private key (ssh-keygen -t ed25519 writes one)`);
  }
  const blob = Buffer.from(armored[1]!.replace(/\s+/gu, ""), "base64");
  try {
    const r = new WireReader(blob);
    if (Buffer.from(r.raw(MAGIC.length)).toString("latin1") !== MAGIC) throw new WireError("it does not start with openssh-key-v1");
    const cipher = r.text();
    const kdf = r.text();
    r.string(); // kdf options
    if (cipher !== "none" || kdf !== "none") {
      throw new RefusalError(
        `${name} is encrypted (${cipher}); this plugin reads no passphrase: sign the export with ssh-keygen -Y sign -f ${name} -n kubectl-ptah-plan FILE instead`,
      );
    }
    if (r.uint32() !== 1) throw new WireError("it holds more than one key");
    const publicBlob = r.string();
    const priv = new WireReader(r.string());
    if (!r.done) throw new WireError("it has bytes after its keys");
    if (priv.uint32() !== priv.uint32()) throw new WireError("its check integers differ");
    const type = priv.text();
    if (!(SUPPORTED_KEY_TYPES as readonly string[]).includes(type)) {
      throw new RefusalError(`${name} is a ${type} key; this plugin signs with ${SUPPORTED_KEY_TYPES.join(", ")} keys`);
    }
    const pub = publicJwk(publicBlob);
    if (pub.type !== type) throw new WireError("its public and private keys are of different types");
    const key = createPrivateKey({ key: privateJwk(priv, type, pub.jwk), format: "jwk" });
    if (!sameKey(createPublicKey(key).export({ format: "jwk" }), pub.jwk)) throw new WireError("its private key is not its public key's");
    const comment = priv.text();
    // The section is padded to the cipher's block with the bytes 1, 2, 3, …
    const padding = priv.rest();
    if (padding.length >= 8 || padding.some((b, i) => b !== i + 1)) throw new WireError("its private section is not padded as ssh-keygen pads it");
    return { type, publicBlob, key, comment };
  } catch (err) {
    if (err instanceof RefusalError) throw err;
    throw new RefusalError(`${name} is not a readable OpenSSH private key: ${(err as Error).message}`);
  }
}
