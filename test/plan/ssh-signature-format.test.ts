// The armored SSHSIG blob as src/plan/ssh-signature.ts reads it, one field changed at a time on a
// signature ssh-keygen -Y sign made: each change is refused by ssh-keygen -Y verify too (the
// oracle), and by the plugin with the line that names what is wrong. And what ssh-keygen accepts
// beside its own layout: CRLF line ends and blank lines around the armor.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { VerificationError } from "../../src/errors.ts";
import { parsePrivateKey } from "../../src/plan/ssh-private-key.ts";
import { PLAN_SIGNATURE_NAMESPACE, signMessage, verifySignature } from "../../src/plan/ssh-signature.ts";
import { WireReader, WireWriter } from "../../src/plan/ssh-wire.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, sshSign, sshVerify, writeAllowedSigners } from "../support/ssh-keygen.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-sshsig-format-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let tool = "";
beforeEach((ctx) => {
  tool = needTool(ctx, "ssh-keygen");
});

const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";

interface Fields {
  magic: string;
  version: number;
  publicBlob: Uint8Array;
  namespace: string;
  reserved: string;
  hash: string;
  signature: Uint8Array;
}

function fieldsOf(armored: string): Fields {
  const lines = armored.trim().split("\n");
  const r = new WireReader(Buffer.from(lines.slice(1, -1).join(""), "base64"));
  return {
    magic: Buffer.from(r.raw(6)).toString("latin1"),
    version: r.uint32(),
    publicBlob: r.string(),
    namespace: r.text(),
    reserved: r.text(),
    hash: r.text(),
    signature: r.string(),
  };
}

function armorOf(f: Fields): string {
  const blob = new WireWriter().raw(f.magic).uint32(f.version).string(f.publicBlob).string(f.namespace).string(f.reserved).string(f.hash).string(f.signature).bytes();
  return `${BEGIN}\n${(
    Buffer.from(blob)
      .toString("base64")
      .match(/.{1,70}/gu) ?? []
  ).join("\n")}\n${END}\n`;
}

let n = 0;
let made: { key: string; file: string; sig: string; allowed: string; fields: Fields } | undefined;
/** A file signed by ssh-keygen, once, inside the first test that asks. */
function signed() {
  if (made) return made;
  const key = makeKey(tool, DIR, "signer");
  const file = path.join(DIR, "export.json");
  fs.writeFileSync(file, '{"an":"export"}\n');
  expect(sshSign(tool, key, file).status).toBe(0);
  const allowed = writeAllowedSigners(DIR, "allowed", [{ principal: "alice", key }]);
  made = { key, file, sig: `${file}.sig`, allowed, fields: fieldsOf(fs.readFileSync(`${file}.sig`, "utf8")) };
  return made;
}

/** ssh-keygen's verdict and the plugin's (its principals, or its refusal) on `text` as the .sig file. */
function both(text: string): { ssh: boolean; plugin: string[] | string } {
  const { file, allowed } = signed();
  const sig = path.join(DIR, `changed-${++n}.sig`);
  fs.writeFileSync(sig, text);
  const ssh = sshVerify(tool, allowed, "alice", sig, file).status === 0;
  const names = { signature: "FILE.sig", allowedSigners: "allowed_signers", message: "FILE" };
  try {
    const signer = verifySignature({
      message: fs.readFileSync(file),
      signature: Buffer.from(text),
      allowedSigners: fs.readFileSync(allowed),
      namespace: PLAN_SIGNATURE_NAMESPACE,
      names,
    });
    return { ssh, plugin: [...signer.principals] };
  } catch (err) {
    expect(err).toBeInstanceOf(VerificationError);
    return { ssh, plugin: (err as Error).message };
  }
}

describe("an SSH signature's armor and fields", () => {
  it("accepts what ssh-keygen wrote, re-armored field by field, with CRLF line ends, and with blank lines around it", () => {
    const { sig, fields } = signed();
    expect(both(fs.readFileSync(sig, "utf8"))).toEqual({ ssh: true, plugin: ["alice"] });
    expect(both(armorOf(fields))).toEqual({ ssh: true, plugin: ["alice"] });
    expect(both(armorOf(fields).replace(/\n/gu, "\r\n")).plugin).toEqual(["alice"]);
    expect(both(`\n\n${armorOf(fields)}\n \n`).plugin).toEqual(["alice"]);
  });

  it("signs byte for byte what ssh-keygen -Y sign writes (Ed25519 signs deterministically): fields, reserved string, 70-character lines", () => {
    const { key, file, sig } = signed();
    expect(signMessage(fs.readFileSync(file), parsePrivateKey(fs.readFileSync(key), key), PLAN_SIGNATURE_NAMESPACE)).toBe(fs.readFileSync(sig, "utf8"));
  });

  it("names every principal of the key, comma-separated, when the file changed after signing", () => {
    const { key, sig } = signed();
    const allowed = writeAllowedSigners(DIR, `two-${++n}`, [
      { principal: "alice", key },
      { principal: "release-bot", key },
    ]);
    const changed = path.join(DIR, `changed-${++n}.json`);
    fs.writeFileSync(changed, "{}\n");
    const names = { signature: "FILE.sig", allowedSigners: "allowed_signers", message: "FILE" };
    expect(() =>
      verifySignature({ message: fs.readFileSync(changed), signature: fs.readFileSync(sig), allowedSigners: fs.readFileSync(allowed), namespace: PLAN_SIGNATURE_NAMESPACE, names }),
    ).toThrow(/^FILE\.sig is not a signature of FILE as it is now by alice, release-bot \(ED25519 key SHA256:/u);
  });

  it.each<[string, (f: Fields) => Partial<Fields>, string]>([
    ["another magic", () => ({ magic: "SSHSIH" }), "FILE.sig is not an SSH signature: it does not start with SSHSIG"],
    ["version 2", () => ({ version: 2 }), "FILE.sig is not an SSH signature: its version is 2; this plugin reads version 1"],
    ["a hash ssh does not sign with", () => ({ hash: "sha1" }), "FILE.sig hashes with sha1; SSH signatures use sha512 or sha256"],
    ["another hash than the one signed", () => ({ hash: "sha256" }), "FILE.sig is not a signature of FILE as it is now by alice (ED25519 key SHA256:"],
    [
      "a key blob that is no key",
      () => ({ publicBlob: new WireWriter().string("ssh-ed25519").string(Buffer.alloc(5)).bytes() }),
      "FILE.sig names a key this plugin cannot check: ",
    ],
    [
      "a signature blob with bytes after its value",
      (f) => ({ signature: Buffer.concat([f.signature, Buffer.from([0])]) }),
      "FILE.sig does not hold a valid signature: its signature has bytes after its value",
    ],
    [
      "a signature of another algorithm",
      () => ({ signature: new WireWriter().string("ssh-rsa").string(Buffer.alloc(64)).bytes() }),
      "FILE.sig does not hold a valid signature: its signature algorithm ssh-rsa is not its key's",
    ],
  ])("refuses %s, as ssh-keygen does", (_, change, message) => {
    const { fields } = signed();
    const r = both(armorOf({ ...fields, ...change(fields) }));
    expect(r.ssh).toBe(false);
    expect(typeof r.plugin === "string" && r.plugin.startsWith(message), String(r.plugin)).toBe(true);
  });

  it("refuses an armor without its header or footer, and a body that is not base64, as ssh-keygen does", () => {
    const text = armorOf(signed().fields);
    const lines = text.trim().split("\n");
    const cases: [string, string][] = [
      [lines.slice(1).join("\n"), `it is not between ${BEGIN} and ${END}`],
      [lines.slice(0, -1).join("\n"), `it is not between ${BEGIN} and ${END}`],
      [[lines[0], `!${lines[1]!.slice(1)}`, ...lines.slice(2)].join("\n"), "its body is not base64"],
      [[lines[0], `${lines[1]!.slice(0, 35)}-${lines[1]!.slice(36)}`, ...lines.slice(2)].join("\n"), "its body is not base64"],
    ];
    for (const [changed, why] of cases) {
      const r = both(`${changed}\n`);
      expect(r.ssh).toBe(false);
      expect(r.plugin).toBe(`FILE.sig is not an SSH signature: ${why}`);
    }
  });
});
