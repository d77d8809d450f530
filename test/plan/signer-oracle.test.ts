// Who may have signed, with a required signer (plan --verify --signer, ssh-keygen -Y verify's -I),
// against OpenSSH's ssh-keygen: generated allowed signers files — principals as exact names,
// patterns and negations, the same key under several names, namespaces="…" and cert-authority
// lines — and a signature by one of three keys; the plugin accepts exactly when
// `ssh-keygen -Y verify -I SIGNER` does.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { PLAN_SIGNATURE_NAMESPACE } from "../../src/plan/ssh-signature.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, sshSign, sshVerify } from "../support/ssh-keygen.ts";
import { verdictWithSigner } from "../support/signer-verdict.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-signer-oracle-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

const PRINCIPALS = ["alice", "bob", "carol", "a*", "*", "!bob,*", "alice,bob", "?ob", "ops,!alice"] as const;
const OPTIONS = [undefined, `namespaces="${PLAN_SIGNATURE_NAMESPACE}"`, 'namespaces="git"', 'namespaces="kubectl-*,!git"', "cert-authority"] as const;
const SIGNERS = ["alice", "bob", "carol", "ops", "dave"] as const;

const lines = fc.array(fc.record({ principals: fc.constantFrom(...PRINCIPALS), key: fc.integer({ min: 0, max: 2 }), option: fc.constantFrom(...OPTIONS) }), {
  minLength: 1,
  maxLength: 4,
});

describe("--signer against ssh-keygen -Y verify -I", () => {
  it("accepts exactly what ssh-keygen accepts, for generated allowed signers files", (ctx) => {
    const tool = needTool(ctx, "ssh-keygen");
    const keys = [0, 1, 2].map((i) => makeKey(tool, DIR, `key-${i}`));
    const message = path.join(DIR, "export.json");
    fs.writeFileSync(message, '{"an": "export"}\n');
    const signatures = keys.map((key, i) => {
      const file = path.join(DIR, `export-${i}.json`);
      fs.copyFileSync(message, file);
      expect(sshSign(tool, key, file).status).toBe(0);
      return `${file}.sig`;
    });
    const publics = keys.map((k) => fs.readFileSync(`${k}.pub`, "utf8").trim().split(/\s+/u).slice(0, 2).join(" "));
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(lines, fc.integer({ min: 0, max: 2 }), fc.constantFrom(...SIGNERS), (entries, by, signer) => {
        const allowed = path.join(DIR, "allowed_signers");
        fs.writeFileSync(allowed, entries.map((e) => [e.principals, ...(e.option ? [e.option] : []), publics[e.key]].join(" ")).join("\n") + "\n");
        const theirs = sshVerify(tool, allowed, signer, signatures[by]!, message).status === 0;
        const ours =
          verdictWithSigner({ message: fs.readFileSync(message), signature: fs.readFileSync(signatures[by]!), allowedSigners: fs.readFileSync(allowed) }, signer) === "accepted";
        expect(ours, `ssh-keygen ${theirs ? "accepted" : "refused"} key ${by} for ${signer} with:\n${fs.readFileSync(allowed, "utf8")}`).toBe(theirs);
        if (ours) accepted++;
        else refused++;
      }),
      { numRuns: 150, seed: 55 },
    );
    console.log(`--signer against ssh-keygen -Y verify -I: ${accepted + refused} generated files, ${accepted} accepted by both, ${refused} refused by both`);
    expect(accepted).toBeGreaterThan(15);
    expect(refused).toBeGreaterThan(15);
  });
});
