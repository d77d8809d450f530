// `plan SCHEMA --export FILE --sign KEY` and `plan --verify -f FILE --allowed-signers SIGNERS`
// through the real shell and file system, with OpenSSH's ssh-keygen as the oracle: what the plugin
// signs ssh-keygen verifies, what ssh-keygen signs the plugin verifies. The forged export — the
// plan's SQL made `DROP TABLE "customers" CASCADE;` marked safe, approved by alice, every digest,
// fingerprint and the seal recomputed (published and exported as the operator and this plugin
// would) — passes the seal and every check, so only a signature tells it from the real one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { needTool } from "../../support/machine-tools.ts";
import { makeKey, sshFingerprint, sshSign, sshVerify, writeAllowedSigners } from "../../support/ssh-keygen.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, publishApplied, SCHEMA } from "../../plan/fixtures.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-sign-test-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let tool = "";
/** Every test but the usage errors asks ssh-keygen; without it they are named as not run. */
const withSshKeygen = (ctx: { skip(note: string): never }): void => {
  tool = needTool(ctx, "ssh-keygen");
};

let n = 0;
const fresh = (): string => path.join(DIR, `plan-${++n}.json`);

const FORGED_SQL = 'DROP TABLE "customers" CASCADE;';

/** The fixtures' schema with its applied plan approved by alice; `forged`: that plan's SQL is the forger's. */
function state(forged = false) {
  const applied = forged ? publishApplied({ statements: [{ sql: FORGED_SQL, severity: "safe", reason: "table customers added" }] }) : undefined;
  const base = clusterState(applied ? { applied } : {});
  return clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
}

async function exportTo(file: string, extra: string[] = [], forged = false) {
  const s = state(forged);
  return runCliWith(["plan", SCHEMA, "--plan", s.applied.name, "--export", file, ...extra], s.reader, { namespace: NS, now: FIXTURES_NOW });
}

const verifyFile = (file: string, extra: string[] = []) => runCliWith(["plan", "--verify", "-f", file, ...extra], undefined);

/** alice's key, and an allowed signers file naming her by it. */
function alice(): { key: string; allowed: string } {
  const key = makeKey(tool, DIR, `alice-${++n}`);
  return { key, allowed: writeAllowedSigners(DIR, `allowed-${++n}`, [{ principal: "alice@example.com", key }]) };
}

describe("plan --export FILE --sign KEY", () => {
  beforeEach(withSshKeygen);

  it("writes FILE.sig, which ssh-keygen -Y verify accepts for alice, and says so in its one line", async () => {
    const { key, allowed } = alice();
    const file = fresh();
    const r = await exportTo(file, ["--sign", key]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^ptahschemaplan/\\S+ exported to ${file} \\([^)]*\\), signed in ${file}\\.sig with ED25519 key ${sshFingerprint(tool, key).replace(/[+/]/gu, "\\$&")}\\n$`, "u"),
    );
    const v = sshVerify(tool, allowed, "alice@example.com", `${file}.sig`, file);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain('Good "kubectl-ptah-plan" signature for alice@example.com with ED25519 key');
  });

  it("verifies its own signature with --allowed-signers: a signature row naming alice and the key, exit 0", async () => {
    const { key, allowed } = alice();
    const file = fresh();
    await exportTo(file, ["--sign", key]);
    const r = await verifyFile(file, ["--allowed-signers", allowed]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.connects).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^signature +ok +signed by alice@example\\.com with ED25519 key ${sshFingerprint(tool, key).replace(/[+/]/gu, "\\$&")} \\(`, "mu"));
    expect(r.stdout).toContain("verified: 15 checks held.");
    expect(r.stdout).not.toContain("origin is unproven");
  });

  it("verifies a signature ssh-keygen -Y sign made of an unsigned export, with --signature naming it", async () => {
    const { key, allowed } = alice();
    const file = fresh();
    await exportTo(file);
    expect(sshSign(tool, key, file).status).toBe(0);
    const moved = path.join(DIR, `moved-${++n}.sig`);
    fs.renameSync(`${file}.sig`, moved);
    const r = await verifyFile(file, ["--allowed-signers", allowed, "--signature", moved]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^signature +ok +signed by alice@example\.com with ED25519 key SHA256:/mu);
  });

  it("refuses a key it cannot sign with, before connecting or writing anything", async () => {
    const locked = makeKey(tool, DIR, `locked-${++n}`, "ed25519", "secret");
    const dsa = makeKey(tool, DIR, `dsa-${++n}`, "dsa");
    for (const [key, message] of [
      [
        locked,
        `error: ${locked} is encrypted (aes256-ctr); this plugin reads no passphrase: sign the export with ssh-keygen -Y sign -f ${locked} -n kubectl-ptah-plan FILE instead\n`,
      ],
      [dsa, `error: ${dsa} is a ssh-dss key; this plugin signs with ssh-ed25519, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, ssh-rsa keys\n`],
    ]) {
      const file = fresh();
      const r = await exportTo(file, ["--sign", key!]);
      expect(r).toMatchObject({ status: 1, stdout: "", stderr: message, connects: 0 });
      expect(fs.existsSync(file)).toBe(false);
    }
  });

  it("never replaces an existing FILE.sig, and then writes no FILE either", async () => {
    const { key } = alice();
    const file = fresh();
    fs.writeFileSync(`${file}.sig`, "earlier signature\n");
    const r = await exportTo(file, ["--sign", key]);
    expect(r).toMatchObject({ status: 1, stdout: "", stderr: `error: ${file}.sig already exists; an export never replaces a file\n` });
    expect(fs.readFileSync(`${file}.sig`, "utf8")).toBe("earlier signature\n");
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe("the forged export", () => {
  beforeEach(withSshKeygen);

  /** alice's real export, signed; and the forged one beside it, with the real signature copied over. */
  async function forgery() {
    const { key, allowed } = alice();
    const real = fresh();
    await exportTo(real, ["--sign", key]);
    const forged = fresh();
    expect((await exportTo(forged, [], true)).status).toBe(0);
    const doc = JSON.parse(fs.readFileSync(forged, "utf8")) as { document: { base64: string }; objects: { approvals: { spec: { approver: { username: string } } }[] } };
    const statements = (JSON.parse(Buffer.from(doc.document.base64, "base64").toString()) as { statements: unknown[] }).statements;
    expect(statements).toEqual([{ sql: FORGED_SQL, severity: "safe", reason: "table customers added" }]);
    expect(doc.objects.approvals[0]!.spec.approver.username).toBe("alice@example.com");
    return { key, allowed, real, forged };
  }

  it("passes the seal and every check without --allowed-signers, and the report says its origin is unproven", async () => {
    const { forged } = await forgery();
    const r = await verifyFile(forged);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("verified: 14 checks held.\nIts origin is unproven: no signature was checked (--allowed-signers FILE checks one).");
    expect(r.stdout).toContain("The seal shows only that the file is internally consistent; anyone who changes the file can recompute it.\n");
  });

  it("is refused with --allowed-signers: unsigned, with alice's real signature, or signed by the forger's own key", async () => {
    const { allowed, real, forged } = await forgery();
    const unsigned = await verifyFile(forged, ["--allowed-signers", allowed]);
    expect(unsigned).toMatchObject({ status: 1, stderr: `error: the export is not signed: the path "${forged}.sig" does not exist\n` });
    expect(unsigned.stdout).toMatch(/^signature +FAILED +the export is not signed/mu);
    expect(unsigned.stdout).toContain("did not verify; nothing from it was printed.");

    fs.copyFileSync(`${real}.sig`, `${forged}.sig`);
    expect(sshVerify(tool, allowed, "alice@example.com", `${forged}.sig`, forged).status).not.toBe(0);
    const copied = await verifyFile(forged, ["--allowed-signers", allowed]);
    expect(copied.status).toBe(1);
    expect(copied.stderr).toMatch(new RegExp(`^error: ${forged}\\.sig is not a signature of ${forged} as it is now by alice@example\\.com \\(ED25519 key SHA256:`, "u"));
    expect(copied.stdout).toMatch(/^signature +FAILED /mu);

    fs.rmSync(`${forged}.sig`);
    const mallory = makeKey(tool, DIR, `mallory-${++n}`);
    expect(sshSign(tool, mallory, forged).status).toBe(0);
    expect(sshVerify(tool, allowed, "alice@example.com", `${forged}.sig`, forged).status).not.toBe(0);
    const own = await verifyFile(forged, ["--allowed-signers", allowed]);
    expect(own).toMatchObject({ status: 1, stderr: `error: the signature's key (ED25519 key ${sshFingerprint(tool, mallory)}) is not in the allowed signers file ${allowed}\n` });
  });
});

describe("other refusals", () => {
  beforeEach(withSshKeygen);

  it("refuses a signature in another namespace, and a file changed by one byte after signing", async () => {
    const { key, allowed } = alice();
    const file = fresh();
    await exportTo(file);
    expect(sshSign(tool, key, file, "git").status).toBe(0);
    const git = await verifyFile(file, ["--allowed-signers", allowed]);
    expect(git).toMatchObject({ status: 1, stderr: `error: ${file}.sig is a signature in the namespace "git", not kubectl-ptah-plan: it was made for another use\n` });

    const signed = fresh();
    await exportTo(signed, ["--sign", key]);
    const bytes = fs.readFileSync(signed);
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1;
    fs.writeFileSync(signed, bytes);
    expect(sshVerify(tool, allowed, "alice@example.com", `${signed}.sig`, signed).status).not.toBe(0);
    const changed = await verifyFile(signed, ["--allowed-signers", allowed]);
    expect(changed.status).toBe(1);
    expect(changed.stderr).toMatch(/^error: [^\n]+\n$/u);
    expect(changed.stdout).not.toContain("verified:");
  });

  it("--signer PRINCIPAL: exit 0 only when the key is listed for that principal, as ssh-keygen -Y verify -I says", async () => {
    const { key } = alice();
    const bob = makeKey(tool, DIR, `bob-${++n}`);
    // bob's key listed under bob and under "ops" (another name for him), alice's under alice.
    const allowed = writeAllowedSigners(DIR, `allowed-${++n}`, [
      { principal: "alice@example.com", key },
      { principal: "bob@example.com", key: bob },
      { principal: "ops@example.com", key: bob },
    ]);
    const file = fresh();
    await exportTo(file, ["--sign", key]);
    const good = await verifyFile(file, ["--allowed-signers", allowed, "--signer", "alice@example.com"]);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^signature +ok +signed by alice@example\.com with ED25519 key /mu);
    expect(sshVerify(tool, allowed, "alice@example.com", `${file}.sig`, file).status).toBe(0);
    for (const other of ["bob@example.com", "ops@example.com", "mallory@example.com"]) {
      const r = await verifyFile(file, ["--allowed-signers", allowed, "--signer", other]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: the signature's key \\(ED25519 key SHA256:\\S+\\) is not listed for ${other.replace(".", "\\.")} in ${allowed}, only for "alice@example\\.com" \\(line 3\\)\\n$`,
          "u",
        ),
      );
      expect(r.stdout).toMatch(/^signature +FAILED /mu);
      expect(sshVerify(tool, allowed, other, `${file}.sig`, file).status).not.toBe(0);
    }
    // bob's signature is bob's, and ops': the key is listed for both, so each may be required.
    const bobs = fresh();
    await exportTo(bobs, ["--sign", bob]);
    for (const name of ["bob@example.com", "ops@example.com"]) {
      expect((await verifyFile(bobs, ["--allowed-signers", allowed, "--signer", name])).status).toBe(0);
      expect(sshVerify(tool, allowed, name, `${bobs}.sig`, bobs).status).toBe(0);
    }
    expect((await verifyFile(bobs, ["--allowed-signers", allowed, "--signer", "alice@example.com"])).status).toBe(1);
  });

  it("refuses an allowed signers file that is not there as kubectl does (exit 2), before any check", async () => {
    const file = fresh();
    await exportTo(file);
    const r = await verifyFile(file, ["--allowed-signers", path.join(DIR, "nope")]);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain(`the path "${path.join(DIR, "nope")}" does not exist`);
  });
});

describe("usage errors", () => {
  it.each<[string, string[], string]>([
    ["--sign without --export", ["plan", "s", "--sign", "k"], "--sign signs an export; add --export FILE"],
    ["--sign with --verify -f", ["plan", "--verify", "-f", "f", "--sign", "k"], "--verify -f checks an export file and takes no --sign"],
    ["--allowed-signers without -f", ["plan", "s", "--allowed-signers", "a"], "--allowed-signers checks the signature of an export; it belongs with --verify -f FILE"],
    [
      "--signature without --allowed-signers",
      ["plan", "--verify", "-f", "f", "--signature", "s"],
      "--signature is checked against an allowed signers file; add --allowed-signers FILE",
    ],
    ["--signer without --allowed-signers", ["plan", "--verify", "-f", "f", "--signer", "alice"], "--signer is checked against an allowed signers file; add --allowed-signers FILE"],
    ["--signer without -f", ["plan", "s", "--signer", "alice"], "--signer checks the signature of an export; it belongs with --verify -f FILE"],
    ["an empty --signer", ["plan", "--verify", "-f", "f", "--allowed-signers", "a", "--signer="], "--signer needs the principal that must have signed"],
  ])("refuses %s as a usage error, before connecting", async (_name, argv, message) => {
    const r = await runCliWith(argv, clusterState().reader);
    expect(r).toMatchObject({ status: 2, stdout: "", connects: 0 });
    expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
    expect(r.stderr).toContain(message);
  });
});
