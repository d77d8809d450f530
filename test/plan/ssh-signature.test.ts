// The SSH signature module (src/plan/ssh-signature.ts and its key readers) against OpenSSH's own
// ssh-keygen, both ways, for every key type it supports: what this plugin signs, `ssh-keygen -Y
// verify` accepts; what `ssh-keygen -Y sign` signs, this plugin accepts, naming the signer and the
// key's fingerprint as ssh-keygen prints it. And each refusal: another key, another namespace, a
// changed byte, a key the allowed signers allow only elsewhere, keys this plugin cannot sign with.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { RefusalError, VerificationError } from "../../src/errors.ts";
import { parsePrivateKey } from "../../src/plan/ssh-private-key.ts";
import { PLAN_SIGNATURE_NAMESPACE, signMessage, verifySignature } from "../../src/plan/ssh-signature.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, NAMESPACE, sshFingerprint, sshSign, sshVerify, writeAllowedSigners, type KeyKind } from "../support/ssh-keygen.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-sshsig-test-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let tool = "";
beforeEach((ctx) => {
  tool = needTool(ctx, "ssh-keygen");
});

let n = 0;
function message(text = `an export, ${++n}\n`): string {
  const file = path.join(DIR, `message-${++n}.json`);
  fs.writeFileSync(file, text);
  return file;
}

const names = { signature: "FILE.sig", allowedSigners: "allowed_signers", message: "FILE" };

function pluginVerify(file: string, sig: string, allowed: string) {
  return verifySignature({ message: fs.readFileSync(file), signature: fs.readFileSync(sig), allowedSigners: fs.readFileSync(allowed), namespace: PLAN_SIGNATURE_NAMESPACE, names });
}

function pluginSign(key: string, file: string, namespace = PLAN_SIGNATURE_NAMESPACE): string {
  const sig = `${file}.sig`;
  fs.writeFileSync(sig, signMessage(fs.readFileSync(file), parsePrivateKey(fs.readFileSync(key), key), namespace));
  return sig;
}

describe.each<KeyKind>(["ed25519", "ecdsa", "ecdsa-384", "rsa"])("a %s key made by ssh-keygen", (kind) => {
  it("signs what ssh-keygen -Y verify accepts, for the principal the allowed signers name", () => {
    const key = makeKey(tool, DIR, `${kind}-a-${++n}`, kind);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice@example.com", key }]);
    const file = message();
    const sig = pluginSign(key, file);
    expect(fs.readFileSync(sig, "utf8")).toMatch(/^-----BEGIN SSH SIGNATURE-----\n([A-Za-z0-9+/=]{1,70}\n)+-----END SSH SIGNATURE-----\n$/u);
    const r = sshVerify(tool, allowed, "alice@example.com", sig, file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Good "${NAMESPACE}" signature for alice@example.com with`);
    expect(r.stdout).toContain(sshFingerprint(tool, key));
  });

  it("verifies what ssh-keygen -Y sign signed, naming the signer and the fingerprint ssh-keygen prints", () => {
    const key = makeKey(tool, DIR, `${kind}-b-${++n}`, kind);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice@example.com", key }]);
    const file = message();
    expect(sshSign(tool, key, file).status).toBe(0);
    const signer = pluginVerify(file, `${file}.sig`, allowed);
    expect(signer).toEqual({
      principals: ["alice@example.com"],
      keyType: kind === "rsa" ? "RSA" : kind === "ed25519" ? "ED25519" : "ECDSA",
      fingerprint: sshFingerprint(tool, key),
    });
  });

  it("refuses, as ssh-keygen does, the signature after one byte of the file changed", () => {
    const key = makeKey(tool, DIR, `${kind}-c-${++n}`, kind);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice@example.com", key }]);
    const file = message("0123456789\n");
    const sig = pluginSign(key, file);
    fs.writeFileSync(file, "0123456788\n");
    expect(sshVerify(tool, allowed, "alice@example.com", sig, file).status).not.toBe(0);
    expect(() => pluginVerify(file, sig, allowed)).toThrow(/^FILE\.sig is not a signature of FILE as it is now by alice@example\.com /u);
  });
});

describe("what ssh-keygen may also write", () => {
  it("verifies a signature over the sha256 of the file (ssh-keygen -Y sign -O hashalg=sha256)", () => {
    const key = makeKey(tool, DIR, `sha256-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key }]);
    const file = message();
    const r = spawnSync(tool, ["-Y", "sign", "-f", key, "-n", NAMESPACE, "-O", "hashalg=sha256", file], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(pluginVerify(file, `${file}.sig`, allowed).principals).toEqual(["alice"]);
  });

  it("names every principal the allowed signers give the key, line by line", () => {
    const key = makeKey(tool, DIR, `two-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [
      { principal: "alice@example.com,alice@corp.example", key },
      { principal: "release-bot", key, options: 'namespaces="kubectl-ptah-plan"' },
    ]);
    const file = message();
    expect(pluginVerify(file, pluginSign(key, file), allowed).principals).toEqual(["alice@example.com,alice@corp.example", "release-bot"]);
  });
});

describe("refusals", () => {
  it("refuses a key the allowed signers do not name, as ssh-keygen does", () => {
    const alice = makeKey(tool, DIR, `alice-${++n}`);
    const mallory = makeKey(tool, DIR, `mallory-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key: alice }]);
    const file = message();
    const sig = pluginSign(mallory, file);
    expect(sshVerify(tool, allowed, "alice", sig, file).status).not.toBe(0);
    expect(() => pluginVerify(file, sig, allowed)).toThrow(`the signature's key (ED25519 key ${sshFingerprint(tool, mallory)}) is not in the allowed signers file allowed_signers`);
  });

  it("refuses a signature made for another namespace (git's), as ssh-keygen does", () => {
    const key = makeKey(tool, DIR, `ns-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key }]);
    const file = message();
    expect(sshSign(tool, key, file, "git").status).toBe(0);
    expect(sshVerify(tool, allowed, "alice", `${file}.sig`, file).status).not.toBe(0);
    expect(() => pluginVerify(file, `${file}.sig`, allowed)).toThrow('FILE.sig is a signature in the namespace "git", not kubectl-ptah-plan');
  });

  it('honours namespaces="…": a key allowed only for git signs no plan, as ssh-keygen says', () => {
    const key = makeKey(tool, DIR, `only-git-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key, options: 'namespaces="git,file"' }]);
    const file = message();
    const sig = pluginSign(key, file);
    expect(sshVerify(tool, allowed, "alice", sig, file).status).not.toBe(0);
    expect(() => pluginVerify(file, sig, allowed)).toThrow(/is not allowed to sign in the namespace kubectl-ptah-plan by allowed_signers: line 3 allows namespaces="git,file"$/u);
    const both = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key, options: 'namespaces="git,kubectl-ptah-*"' }]);
    expect(sshVerify(tool, both, "alice", sig, file).status).toBe(0);
    expect(pluginVerify(file, sig, both).principals).toEqual(["alice"]);
  });

  it("refuses a key listed only as a cert-authority, which vouches for certificates, not for itself, as ssh-keygen does", () => {
    const key = makeKey(tool, DIR, `ca-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key, options: "cert-authority" }]);
    const file = message();
    const sig = pluginSign(key, file);
    expect(sshVerify(tool, allowed, "alice", sig, file).status).not.toBe(0);
    expect(() => pluginVerify(file, sig, allowed)).toThrow(`the signature's key (ED25519 key ${sshFingerprint(tool, key)}) is not in the allowed signers file allowed_signers`);
    // The same key on a plain line as well: that line alone names the signer.
    const both = writeAllowedSigners(DIR, `allowed-${++n}`, [
      { principal: "ca-admins", key, options: "cert-authority" },
      { principal: "alice", key },
    ]);
    expect(pluginVerify(file, sig, both).principals).toEqual(["alice"]);
  });

  it("refuses a signature blob with bytes after the signature, as ssh-keygen does", () => {
    const key = makeKey(tool, DIR, `trailing-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key }]);
    const file = message();
    const sig = pluginSign(key, file);
    const lines = fs.readFileSync(sig, "utf8").trim().split("\n");
    const blob = Buffer.concat([Buffer.from(lines.slice(1, -1).join(""), "base64"), Buffer.from([0, 0, 0, 0])]);
    const longer = path.join(DIR, `trailing-${++n}.sig`);
    fs.writeFileSync(longer, `${lines[0]}\n${(blob.toString("base64").match(/.{1,70}/gu) ?? []).join("\n")}\n${lines[lines.length - 1]}\n`);
    expect(sshVerify(tool, allowed, "alice", sig, file).status).toBe(0);
    expect(sshVerify(tool, allowed, "alice", longer, file).status).not.toBe(0);
    expect(() => pluginVerify(file, longer, allowed)).toThrow("FILE.sig is not an SSH signature: it has bytes after its signature");
  });

  it("refuses a principal pattern plainly, and options it does not read", () => {
    const key = makeKey(tool, DIR, `pattern-${++n}`);
    const file = message();
    const sig = pluginSign(key, file);
    const pattern = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "*@example.com", key }]);
    expect(() => pluginVerify(file, sig, pattern)).toThrow(
      'line 3 of allowed_signers names the signer by the pattern "*@example.com"; this plugin reports who signed, so it reads exact principals only',
    );
    const dated = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key, options: 'valid-after="20200101"' }]);
    expect(() => pluginVerify(file, sig, dated)).toThrow("line 3 of allowed_signers has the option valid-after, which this plugin does not read");
  });

  it("refuses what is not a signature, and a file of signers that does not read", () => {
    const key = makeKey(tool, DIR, `junk-${++n}`);
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice", key }]);
    const file = message();
    const junk = path.join(DIR, `junk-${++n}.sig`);
    fs.writeFileSync(junk, "not a signature\n");
    expect(() => pluginVerify(file, junk, allowed)).toThrow(VerificationError);
    expect(() => pluginVerify(file, junk, allowed)).toThrow(/^FILE\.sig is not an SSH signature: it is not between /u);
    const sig = pluginSign(key, file);
    const broken = path.join(DIR, `broken-${++n}`);
    fs.writeFileSync(broken, "alice ssh-ed25519\n");
    expect(() => pluginVerify(file, sig, broken)).toThrow("the allowed signers file allowed_signers does not read at line 1: it names no key type and key");
  });

  it("refuses an encrypted key, pointing at ssh-keygen -Y sign, and a key that is not openssh-key-v1", () => {
    const locked = makeKey(tool, DIR, `locked-${++n}`, "ed25519", "a passphrase");
    expect(() => parsePrivateKey(fs.readFileSync(locked), "KEY")).toThrow(RefusalError);
    expect(() => parsePrivateKey(fs.readFileSync(locked), "KEY")).toThrow(
      "KEY is encrypted (aes256-ctr); this plugin reads no passphrase: sign the export with ssh-keygen -Y sign -f KEY -n kubectl-ptah-plan FILE instead",
    );
    const pem = makeKey(tool, DIR, `pem-${++n}`, "rsa");
    fs.writeFileSync(pem, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    expect(() => parsePrivateKey(fs.readFileSync(pem), "KEY")).toThrow("KEY is a RSA PRIVATE KEY file, not an OpenSSH private key (ssh-keygen -t ed25519 writes one)");
    expect(() => parsePrivateKey(fs.readFileSync(`${pem}.pub`), "KEY")).toThrow("KEY is not a key file, not an OpenSSH private key");
  });
});
