// src/plan/allowed-signers.ts against OpenSSH's ssh-keygen -Y verify, on generated files: for each
// generated allowed signers file (comments, blank lines, tabs, CRLF, trailing comments, principal
// lists, namespaces="…" pattern lists with negations, cert-authority lines, other keys), every
// principal ssh-keygen accepts is among those the plugin reports, and none other; for each
// generated namespaces="…" pattern list, the plugin allows the namespace exactly when ssh-keygen does.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { VerificationError } from "../../src/errors.ts";
import { matchesPatternList, parseAllowedSigners } from "../../src/plan/allowed-signers.ts";
import { verifySignature } from "../../src/plan/ssh-signature.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, sshSign, sshVerify } from "../support/ssh-keygen.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-allowed-signers-test-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let tool = "";
beforeEach((ctx) => {
  tool = needTool(ctx, "ssh-keygen");
});

/** The namespaces the cases sign in: a "." in a pattern is a literal dot to ssh, never any character. */
const NAMESPACES = ["kubectl-ptah-plan", "kubectl.ptah.plan", "kubectlxptahxplan"] as const;

interface Setup {
  readonly key: string;
  readonly other: string;
  /** The message and its signature by `key`, per namespace. */
  readonly signed: ReadonlyMap<string, { file: string; sig: string }>;
}

let setup: Setup | undefined;
/** One key (and another) and one signature per namespace, made by ssh-keygen once, inside the first test. */
function keys(): Setup {
  if (setup) return setup;
  const key = makeKey(tool, DIR, "signer");
  const other = makeKey(tool, DIR, "other");
  const signed = new Map<string, { file: string; sig: string }>();
  for (const ns of NAMESPACES) {
    const file = path.join(DIR, `message-${ns}`);
    fs.writeFileSync(file, `an export for ${ns}\n`);
    expect(sshSign(tool, key, file, ns).status).toBe(0);
    signed.set(ns, { file, sig: `${file}.sig` });
  }
  setup = { key, other, signed };
  return setup;
}

const publicOf = (key: string) => fs.readFileSync(`${key}.pub`, "utf8").trim().split(/\s+/u).slice(0, 2).join(" ");

/** The principals the plugin reports for the signature in `ns`, or the refusal's message. */
function pluginPrincipals(allowed: string, ns: string): string[] | string {
  const { file, sig } = keys().signed.get(ns)!;
  const names = { signature: "FILE.sig", allowedSigners: "allowed_signers", message: "FILE" };
  try {
    return [...verifySignature({ message: fs.readFileSync(file), signature: fs.readFileSync(sig), allowedSigners: fs.readFileSync(allowed), namespace: ns, names }).principals];
  } catch (err) {
    expect(err).toBeInstanceOf(VerificationError);
    return (err as Error).message;
  }
}

const sshAccepts = (allowed: string, principal: string, ns: string): boolean => {
  const { file, sig } = keys().signed.get(ns)!;
  return sshVerify(tool, allowed, principal, sig, file, ns).status === 0;
};

let files = 0;
function writeFile(text: string): string {
  const file = path.join(DIR, `allowed-${++files}`);
  fs.writeFileSync(file, text);
  return file;
}

const PATTERN = fc.constantFrom(
  "kubectl-ptah-plan",
  "kubectl-*",
  "*-plan",
  "kubectl?ptah?plan",
  "k*n",
  "git",
  "kubectl.ptah.plan",
  "kubectl-ptah-pla?",
  "?",
  "*",
  "!kubectl-ptah-plan",
  "!git",
  "!*.*",
  "!*x*",
);

describe("the allowed signers file, against ssh-keygen -Y verify", () => {
  it('allows a namespace by a namespaces="…" pattern list exactly when ssh-keygen does (generated)', () => {
    const { key } = keys();
    fc.assert(
      fc.property(fc.array(PATTERN, { minLength: 1, maxLength: 4 }), fc.constantFrom(...NAMESPACES), (patterns, ns) => {
        const allowed = writeFile(`alice namespaces="${patterns.join(",")}" ${publicOf(key)}\n`);
        const ssh = sshAccepts(allowed, "alice", ns);
        expect(matchesPatternList(patterns, ns), `${patterns.join(",")} for ${ns}`).toBe(ssh);
        expect(pluginPrincipals(allowed, ns), `${patterns.join(",")} for ${ns}`).toEqual(
          ssh ? ["alice"] : expect.stringContaining(`is not allowed to sign in the namespace ${ns}`),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("names the principals ssh-keygen accepts, and only those, whatever the file's layout (generated)", () => {
    const { key, other } = keys();
    const principal = fc.constantFrom("alice", "bob", "carol@example.com", "dave,erin");
    const space = fc.constantFrom(" ", "\t", "  ", " \t ");
    const line = fc.oneof(
      fc.constantFrom("# a comment", "", "   ", "\t# indented comment"),
      fc.record({
        principal,
        quoted: fc.boolean(),
        options: fc.constantFrom("", 'namespaces="kubectl-*"', 'namespaces="git"', "cert-authority", 'namespaces="git,kubectl-ptah-plan"'),
        mine: fc.boolean(),
        comment: fc.constantFrom("", " a comment", " alice@laptop"),
        sep: space,
        cr: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines
          .map((l) => {
            if (typeof l === "string") return l;
            const who = l.quoted ? `"${l.principal}"` : l.principal;
            const fields = [who, ...(l.options ? [l.options] : []), publicOf(l.mine ? key : other)];
            return `${fields.join(l.sep)}${l.comment}${l.cr ? "\r" : ""}`;
          })
          .join("\n");
        const allowed = writeFile(`${text}\n`);
        const ns = "kubectl-ptah-plan";
        const reported = pluginPrincipals(allowed, ns);
        for (const p of ["alice", "bob", "carol@example.com", "dave", "erin", "dave,erin"]) {
          const byPlugin = Array.isArray(reported) && reported.some((r) => r.split(",").includes(p));
          expect(byPlugin, `${JSON.stringify(text)}: principal ${p}`).toBe(sshAccepts(allowed, p, ns));
        }
        if (!Array.isArray(reported)) expect(reported).toMatch(/^the signature's key \(ED25519 key SHA256:\S+\) is not /u);
      }),
      { numRuns: 40 },
    );
  });
});

describe("a line that does not read", () => {
  it("is refused with its number and what is wrong, as ssh-keygen refuses it", () => {
    const { key, other } = keys();
    const [type, b64] = publicOf(key).split(" ") as [string, string];
    const cases: [string, string][] = [
      [`"alice ${type} ${b64}`, "a quote is not closed"],
      [`alice ${type} ${b64.slice(0, -4)}!AAA`, "its key is not base64"],
      [`alice ${type}`, "it names no key type and key"],
      [`alice ssh-rsa ${b64}`, "its key is not a ssh-rsa key"],
      [`alice namespaces="git" ${publicOf(other).split(" ")[1]}`, "it names no key type and key"],
    ];
    for (const [line, why] of cases) {
      const allowed = writeFile(`# signers\n${line}\n`);
      expect(sshAccepts(allowed, "alice", "kubectl-ptah-plan"), line).toBe(false);
      expect(() => parseAllowedSigners(fs.readFileSync(allowed, "utf8"), "allowed_signers")).toThrow(`the allowed signers file allowed_signers does not read at line 2: ${why}`);
    }
  });

  it("reads a quoted principal with spaces as one principal, its quotes dropped", () => {
    const { key } = keys();
    const allowed = writeFile(`"alice smith" ${publicOf(key)}\n`);
    expect(parseAllowedSigners(fs.readFileSync(allowed, "utf8"), "allowed_signers").map((s) => s.principals)).toEqual(["alice smith"]);
  });
});
