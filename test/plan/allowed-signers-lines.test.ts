// Single lines of an allowed signers file at the edges of OpenSSH's grammar, each with the plugin's
// exact verdict and ssh-keygen's for the same line: a CR as the principals' separator, an empty
// quoted principal, quotes and escaped quotes in options, an unclosed quote, a doubled or unknown
// option, and the 1023-byte sub-pattern limit. Then ssh's pattern match against an oracle written
// from its rule (* any run of bytes, ? one byte) on generated patterns.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { matchesPatternList, parseAllowedSigners } from "../../src/plan/allowed-signers.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, sshSign, sshVerify } from "../support/ssh-keygen.ts";
import { verdictWithSigner } from "../support/signer-verdict.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-signers-lines-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let tool = "";
let key = "";
const message = path.join(DIR, "export.json");
beforeEach((ctx) => {
  tool = needTool(ctx, "ssh-keygen");
  if (key !== "") return;
  key = makeKey(tool, DIR, "signer");
  fs.writeFileSync(message, '{"an": "export"}\n');
  expect(sshSign(tool, key, message).status).toBe(0);
});
const pub = (): string => fs.readFileSync(`${key}.pub`, "utf8").trim().split(/\s+/u).slice(0, 2).join(" ");

/** The plugin's verdict for `signer` with this file: accepted, or its refusal's message. */
function plugin(text: string, signer: string): string {
  return verdictWithSigner({ message: fs.readFileSync(message), signature: fs.readFileSync(`${message}.sig`), allowedSigners: Buffer.from(text) }, signer);
}

function ssh(text: string, signer: string): boolean {
  const file = path.join(DIR, "allowed_signers");
  fs.writeFileSync(file, text);
  return sshVerify(tool, file, signer, `${message}.sig`, message).status === 0;
}

const unread = (why: string): string => `the allowed signers file SIGNERS does not read at line 1: ${why}`;

describe("a line at the grammar's edges, with ssh-keygen's verdict beside the plugin's", () => {
  const cases: { name: string; line: () => string; plugin: () => string }[] = [
    { name: "a CR between the principals and the key", line: () => `alice\r${pub()}`, plugin: () => "accepted" },
    { name: "an empty quoted principal", line: () => `"" ${pub()}`, plugin: () => unread("it names no principals") },
    {
      name: "a namespace with a blank inside its quotes",
      line: () => `alice namespaces="a b" ${pub()}`,
      plugin: () => expect.stringMatching(/ is not allowed to sign in the namespace kubectl-ptah-plan by SIGNERS: line 1 allows namespaces="a b"$/u) as unknown as string,
    },
    {
      name: "an escaped quote inside a namespace",
      line: () => `alice namespaces="kubectl-ptah-plan\\"" ${pub()}`,
      plugin: () => expect.stringMatching(/: line 1 allows namespaces="kubectl-ptah-plan""$/u) as unknown as string,
    },
    { name: "a backslash before a blank after an option", line: () => `alice cert-authority\\ ${pub()}`, plugin: () => unread('its option "\\\\" is not one ssh-keygen knows') },
    { name: "an option's quote left open", line: () => `alice namespaces="git ${pub()}`, plugin: () => unread("a quote in its options is not closed") },
    { name: "two namespaces options", line: () => `alice namespaces="git",namespaces="kubectl-*" ${pub()}`, plugin: () => unread("it has two namespaces options") },
    { name: "text run on after a flag option", line: () => `alice cert-authorityx ${pub()}`, plugin: () => unread('its option "x" is not one ssh-keygen knows') },
    { name: "a namespaces value without quotes", line: () => `alice namespaces=git ${pub()}`, plugin: () => unread("its namespaces option's value is not quoted") },
    {
      name: "a byte-order mark before the first principal, part of its name to OpenSSH",
      line: () => `\ufeffalice ${pub()}`,
      plugin: () => expect.stringContaining("is not listed for alice in SIGNERS") as unknown as string,
    },
    { name: "a pattern of 1022 bytes", line: () => `${"*".repeat(1022)} ${pub()}`, plugin: () => "accepted" },
    {
      name: "a pattern of 1023 bytes, which OpenSSH matches to nothing",
      line: () => `${"*".repeat(1023)} ${pub()}`,
      plugin: () => expect.stringContaining("is not listed for alice in SIGNERS") as unknown as string,
    },
  ];

  it.each(cases)("$name", (c) => {
    const text = `${c.line()}\n`;
    const ours = plugin(text, "alice");
    expect(ours).toEqual(c.plugin());
    expect(ssh(text, "alice"), `ssh-keygen on ${JSON.stringify(text)}`).toBe(ours === "accepted");
  });

  it("reads an escaped quote in a namespace as a quote", () => {
    const [line] = parseAllowedSigners(`alice namespaces="a\\"b,c" ${pub()}\n`, "SIGNERS");
    expect(line!.namespaces).toEqual(['a"b', "c"]);
  });
});

/** ssh's match_pattern written from its rule, on ASCII (one byte a character): a regular expression. */
const oracle = (pattern: string, text: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/gu, "\\$&")
      .replaceAll("*", "[\\s\\S]*")
      .replaceAll("?", "[\\s\\S]")}$`,
    "u",
  ).test(text);

describe("ssh's pattern list", () => {
  it("matches as OpenSSH's rule says, on generated ASCII patterns and names", () => {
    const sub = fc.array(fc.constantFrom("a", "b", "*", "?"), { maxLength: 6 }).map((cs) => cs.join(""));
    const pattern = fc.record({ negated: fc.boolean(), sub });
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[ab]{0,5}$/u), (patterns, text) => {
        const list = patterns.map((p) => (p.negated ? `!${p.sub}` : p.sub));
        const denied = patterns.some((p) => p.negated && oracle(p.sub, text));
        const allowed = patterns.some((p) => !p.negated && oracle(p.sub, text));
        expect(matchesPatternList(list, text), `${list.join(",")} against ${JSON.stringify(text)}`).toBe(!denied && allowed);
      }),
      { numRuns: 2000 },
    );
  });

  it("matches a byte, not a character: ? is one byte of a name's UTF-8", () => {
    expect(matchesPatternList(["?"], "é")).toBe(false);
    expect(matchesPatternList(["??"], "é")).toBe(true);
    expect(matchesPatternList(["*"], "é")).toBe(true);
  });
});
