// SSH's wire encoding (RFC 4251 section 5: uint32, string, mpint) and its public keys (RFC 4253 section 6.6,
// RFC 5656 section 3.1, RFC 8709 section 4): a key blob read into node:crypto's KeyObject through a JWK, the
// key's fingerprint as ssh-keygen prints it, and an SSH signature blob checked or made. Pure:
// bytes in, bytes out; node:crypto only.
import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

/** Thrown for any blob that does not read as SSH's encoding; callers turn it into their own error. */
export class WireError extends Error {}

export class WireReader {
  private at = 0;
  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }

  raw(n: number): Uint8Array {
    if (n < 0 || this.at + n > this.bytes.length) throw new WireError("it ends before its last field");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** Whatever is left. */
  rest(): Uint8Array {
    return this.raw(this.bytes.length - this.at);
  }

  uint32(): number {
    const b = this.raw(4);
    return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  }

  string(): Uint8Array {
    return this.raw(this.uint32());
  }

  text(): string {
    return Buffer.from(this.string()).toString("latin1");
  }

  /** An mpint as unsigned big-endian bytes without leading zeros (a negative one is refused). */
  mpint(): Uint8Array {
    const b = this.string();
    if (b.length > 0 && b[0]! & 0x80) throw new WireError("it holds a negative integer");
    let i = 0;
    while (i < b.length && b[i] === 0) i++;
    return b.subarray(i);
  }
}

export class WireWriter {
  private readonly parts: Uint8Array[] = [];

  raw(b: Uint8Array | string): this {
    this.parts.push(typeof b === "string" ? Buffer.from(b, "latin1") : b);
    return this;
  }

  uint32(n: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return this.raw(b);
  }

  string(b: Uint8Array | string): this {
    const bytes = typeof b === "string" ? Buffer.from(b, "latin1") : b;
    return this.uint32(bytes.length).raw(bytes);
  }

  /** Unsigned big-endian bytes as an mpint: no leading zeros, one zero byte before a high bit. */
  mpint(unsigned: Uint8Array): this {
    let i = 0;
    while (i < unsigned.length && unsigned[i] === 0) i++;
    const v = unsigned.subarray(i);
    return this.string(v.length > 0 && v[0]! & 0x80 ? Buffer.concat([Buffer.of(0), v]) : v);
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

export const b64url = (b: Uint8Array): string => Buffer.from(b).toString("base64url");

/** The ECDSA curves SSH names, with node:crypto's name, the JWK's, the hash and the scalar size. */
export const CURVES = {
  nistp256: { jwk: "P-256", hash: "sha256", size: 32 },
  nistp384: { jwk: "P-384", hash: "sha384", size: 48 },
  nistp521: { jwk: "P-521", hash: "sha512", size: 66 },
} as const;
export type CurveName = keyof typeof CURVES;

export const SUPPORTED_KEY_TYPES = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"] as const;

/** A public key: its SSH type, its blob (what fingerprints and signatures name) and node's key. */
export interface SshPublicKey {
  readonly type: string;
  readonly blob: Uint8Array;
  readonly key: KeyObject;
}

const isCurve = (c: string): c is CurveName => Object.hasOwn(CURVES, c);

/** The JWK of a public key blob; refused: any type but SUPPORTED_KEY_TYPES, and trailing bytes. */
export function publicJwk(blob: Uint8Array): { type: string; jwk: Record<string, string> } {
  const r = new WireReader(blob);
  const type = r.text();
  let jwk: Record<string, string>;
  if (type === "ssh-ed25519") {
    const pub = r.string();
    if (pub.length !== 32) throw new WireError("its ed25519 key is not 32 bytes");
    jwk = { kty: "OKP", crv: "Ed25519", x: b64url(pub) };
  } else if (type.startsWith("ecdsa-sha2-")) {
    const curve = r.text();
    if (!isCurve(curve) || type !== `ecdsa-sha2-${curve}`) throw new WireError(`its key type ${type} is not one of ${SUPPORTED_KEY_TYPES.join(", ")}`);
    const q = r.string();
    const size = CURVES[curve].size;
    if (q.length !== 1 + 2 * size || q[0] !== 4) throw new WireError("its ECDSA point is not an uncompressed point of its curve");
    jwk = { kty: "EC", crv: CURVES[curve].jwk, x: b64url(q.subarray(1, 1 + size)), y: b64url(q.subarray(1 + size)) };
  } else if (type === "ssh-rsa") {
    const e = r.mpint();
    const n = r.mpint();
    jwk = { kty: "RSA", n: b64url(n), e: b64url(e) };
  } else {
    throw new WireError(`its key type ${JSON.stringify(type)} is not one of ${SUPPORTED_KEY_TYPES.join(", ")}`);
  }
  if (!r.done) throw new WireError("it has bytes after its key");
  return { type, jwk };
}

/** A public key blob as node:crypto's key (through its JWK). */
export function publicKeyOf(blob: Uint8Array): SshPublicKey {
  const { type, jwk } = publicJwk(blob);
  try {
    return { type, blob, key: createPublicKey({ key: jwk, format: "jwk" }) };
  } catch (err) {
    throw new WireError(`its ${type} key is not a valid key: ${(err as Error).message}`);
  }
}

/** ssh-keygen's fingerprint: SHA256: and the unpadded base64 of the blob's sha256. */
export function fingerprintOf(blob: Uint8Array): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/u, "")}`;
}

/** The name ssh-keygen gives a key type in its messages: ED25519, ECDSA, RSA. */
export function keyTypeLabel(type: string): string {
  return type === "ssh-ed25519" ? "ED25519" : type === "ssh-rsa" ? "RSA" : type.startsWith("ecdsa-") ? "ECDSA" : type;
}

const RSA_HASHES: Record<string, string> = { "rsa-sha2-512": "sha512", "rsa-sha2-256": "sha256" };

/** Unsigned big-endian bytes left-padded with zeros to `size` (a longer value is refused). */
function pad(b: Uint8Array, size: number): Uint8Array {
  if (b.length > size) throw new WireError("its signature value is longer than its key allows");
  return Buffer.concat([Buffer.alloc(size - b.length), b]);
}

/** Whether an SSH signature blob (string algorithm, string value) is `pub`'s signature of `data`. */
export function verifySshSignature(pub: SshPublicKey, data: Uint8Array, sigBlob: Uint8Array): boolean {
  const r = new WireReader(sigBlob);
  const alg = r.text();
  const value = r.string();
  if (!r.done) throw new WireError("its signature has bytes after its value");
  if (pub.type === "ssh-ed25519") {
    if (alg !== "ssh-ed25519") throw new WireError(`its signature algorithm ${alg} is not its key's`);
    return value.length === 64 && verify(null, data, pub.key, value);
  }
  if (pub.type === "ssh-rsa") {
    // The legacy ssh-rsa (SHA-1) is refused, as PROTOCOL.sshsig and ssh-keygen refuse it.
    const hash = RSA_HASHES[alg];
    if (!hash) throw new WireError(`its RSA signature algorithm ${alg} is not rsa-sha2-512 or rsa-sha2-256`);
    const size = Math.ceil((pub.key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
    return verify(hash, data, pub.key, pad(value, size));
  }
  const curve = pub.type.slice("ecdsa-sha2-".length) as CurveName;
  if (alg !== pub.type) throw new WireError(`its signature algorithm ${alg} is not its key's`);
  const rs = new WireReader(value);
  const [rv, sv] = [rs.mpint(), rs.mpint()];
  if (!rs.done) throw new WireError("its ECDSA signature has bytes after s");
  const size = CURVES[curve].size;
  return verify(CURVES[curve].hash, data, { key: pub.key, dsaEncoding: "ieee-p1363" }, Buffer.concat([pad(rv, size), pad(sv, size)]));
}

/** `key`'s SSH signature blob of `data` (RSA as rsa-sha2-512, what ssh-keygen -Y sign uses). */
export function makeSshSignature(type: string, key: KeyObject, data: Uint8Array): Uint8Array {
  if (type === "ssh-ed25519")
    return new WireWriter()
      .string("ssh-ed25519")
      .string(sign(null, data, key))
      .bytes();
  if (type === "ssh-rsa")
    return new WireWriter()
      .string("rsa-sha2-512")
      .string(sign("sha512", data, key))
      .bytes();
  const curve = CURVES[type.slice("ecdsa-sha2-".length) as CurveName];
  const rs = sign(curve.hash, data, { key, dsaEncoding: "ieee-p1363" });
  const inner = new WireWriter().mpint(rs.subarray(0, curve.size)).mpint(rs.subarray(curve.size)).bytes();
  return new WireWriter().string(type).string(inner).bytes();
}
