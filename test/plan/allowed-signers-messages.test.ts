// The allowed signers reader's exact refusals and readings where the generated oracles, cut down
// under mutation, do not reach: the text an unknown option is named by, an option after
// cert-authority, a backslash that escapes nothing, a CRLF blank line, and how a refusal lists the
// lines that name a key. No tool is needed: the key is built here (type and 32 bytes, as OpenSSH
// writes an Ed25519 public key).
import { describe, expect, it } from "vitest";
import { parseAllowedSigners, principalsFor } from "../../src/plan/allowed-signers.ts";

function wireString(b: Buffer): Buffer {
  const n = Buffer.alloc(4);
  n.writeUInt32BE(b.length);
  return Buffer.concat([n, b]);
}
const blob = Buffer.concat([wireString(Buffer.from("ssh-ed25519")), wireString(Buffer.alloc(32, 7))]);
const KEY = `ssh-ed25519 ${blob.toString("base64")}`;
const at = (n: number, why: string): string => `the allowed signers file F does not read at line ${n}: ${why}`;
const read = (text: string) => parseAllowedSigners(text, "F");

describe("what the reader says and reads", () => {
  it.each([
    [`alice bogus,cert-authority ${KEY}`, 'its option "bogus" is not one ssh-keygen knows'],
    [`alice cert-authority,bogus=1 ${KEY}`, 'its option "bogus=1" is not one ssh-keygen knows'],
    [`alice cert-authorityxyz,namespaces="a" ${KEY}`, 'its option "xyz" is not one ssh-keygen knows'],
  ])("%j is refused naming the option", (line, why) => {
    expect(() => read(`${line}\n`)).toThrow(at(1, why));
  });

  it("reads an option after cert-authority", () => {
    const [s] = read(`alice cert-authority,namespaces="file" ${KEY}\n`);
    expect(s).toMatchObject({ principals: "alice", certAuthority: true, namespaces: ["file"] });
  });

  it('keeps a backslash that does not stand before a quote, and reads \\" as a quote', () => {
    const [s] = read(`alice namespaces="a\\b,c\\"d" ${KEY}\n`);
    expect(s!.namespaces).toEqual(["a\\b", 'c"d']);
  });

  it("reads a key followed by more than one CR", () => {
    expect(read(`alice ${KEY}\r\r\n`).map((s) => s.principals)).toEqual(["alice"]);
  });

  it("reads a key with CR, VT and FF inside it, as ssh-keygen does", () => {
    const b64 = blob.toString("base64");
    const line = `alice ssh-ed25519 ${b64.slice(0, 9)}\r${b64.slice(9, 20)}\v\f${b64.slice(20)}\r\r\n`;
    expect(read(line).map((s) => s.principals)).toEqual(["alice"]);
  });

  it("still refuses a key cut by a blank", () => {
    const b64 = blob.toString("base64");
    expect(() => read(`alice ssh-ed25519 ${b64.slice(0, 9)} ${b64.slice(9)}\n`)).toThrow(at(1, ""));
  });

  it("skips a blank line of a CRLF file", () => {
    expect(read(`\r\nalice ${KEY}\r\n`).map((s) => s.line)).toEqual([2]);
  });

  const described = { key: "ED25519 SHA256:x", file: "F" };
  it("names every line that lists the key when the required signer is on none", () => {
    const signers = read(`alice ${KEY}\nbob ${KEY}\n`);
    expect(() => principalsFor(signers, blob, "file", described, "carol")).toThrow(
      'the signature\'s key (ED25519 SHA256:x) is not listed for carol in F, only for "alice" (line 1), "bob" (line 2)',
    );
  });

  it("names every line's namespaces when none allows the namespace", () => {
    const signers = read(`alice namespaces="a" ${KEY}\nalice namespaces="b,c" ${KEY}\n`);
    expect(() => principalsFor(signers, blob, "file", described, "alice")).toThrow(
      'the signature\'s key (ED25519 SHA256:x) is not allowed to sign in the namespace file by F: line 1 allows namespaces="a"; line 2 allows namespaces="b,c"',
    );
  });
});
