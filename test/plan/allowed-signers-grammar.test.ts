// The allowed signers file read as OpenSSH reads it, on lines generated from its grammar rather
// than from tidy examples: principals plain, quoted whole, quoted part-way or left unclosed, with
// patterns, negations and a non-ASCII name; options in any case, quoted or not, escaped quotes,
// doubled, unknown, after a stray comma; separators, comments, CRs, and CR, VT and FF inside a key.
// For every signer asked, the plugin with that required signer never accepts what
// `ssh-keygen -Y verify -I` refuses, and refuses what it accepts only for the reasons it states by
// design: a line ssh-keygen skips (checked: without it, ssh-keygen still accepts) makes the plugin
// refuse the file, and valid-after/valid-before are refused, not read.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { PLAN_SIGNATURE_NAMESPACE } from "../../src/plan/ssh-signature.ts";
import { needTool } from "../support/machine-tools.ts";
import { makeKey, sshSign, sshVerify } from "../support/ssh-keygen.ts";
import { verdictWithSigner } from "../support/signer-verdict.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-signers-grammar-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

const NAME = fc.constantFrom("alice", "bob", "carol@example.com", "é", "?", "??", "a*", "*", "!bob", "al?ce", "");
const LIST = fc.array(NAME, { minLength: 1, maxLength: 3 }).map((names) => names.join(","));
const PRINCIPALS = fc.oneof(
  { weight: 4, arbitrary: LIST },
  fc.tuple(LIST, fc.constantFrom("", " smith", "\tx")).map(([list, tail]) => `"${list}${tail}"`),
  fc
    .tuple(fc.constantFrom("", "al", "a,", "!"), fc.constantFrom("ice", "i ce", "", "bob,carol@example.com", "?"), fc.constantFrom("", "x", ",bob", '"'))
    .map(([before, inside, after]) => `${before}"${inside}"${after}`),
  fc.constantFrom('"alice', 'al"ice', "#alice"),
);
const OPTION = fc.constantFrom(
  "cert-authority",
  "CERT-Authority",
  "cert-authorityx",
  'namespaces="kubectl-*"',
  `Namespaces="${PLAN_SIGNATURE_NAMESPACE}"`,
  `namespaces="git,${PLAN_SIGNATURE_NAMESPACE}"`,
  `namespaces=${PLAN_SIGNATURE_NAMESPACE}`,
  'namespaces="kubectl-\\"x"',
  'namespaces="kubectl ptah"',
  `namespaces="${PLAN_SIGNATURE_NAMESPACE}`,
  'valid-after="20200101"',
  'valid-before="29990101"',
  "no-touch-required",
  "",
);
const OPTIONS = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  fc.array(OPTION, { minLength: 1, maxLength: 3 }).map((options) => options.join(",")),
);
const BLANK = fc.constantFrom(" ", "\t", "  ", " \t");
const LINE = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("", "# a comment", "\t# indented", "   ", "\r") },
  {
    weight: 6,
    arbitrary: fc.record({
      lead: fc.constantFrom("", " ", "\t", "\ufeff"),
      principals: PRINCIPALS,
      options: OPTIONS,
      key: fc.constantFrom("mine", "mine", "mine", "mine-spaced", "other", "wrong-type", "none"),
      blanks: fc.tuple(BLANK, BLANK),
      comment: fc.constantFrom("", " a comment", "\tx", " # y"),
      end: fc.constantFrom("", "\r", " ", " \r"),
    }),
  },
);
const SIGNERS = ["alice", "bob", "carol@example.com", "é", "x", "al", "alice smith", "ice", "i ce", "bob,carol@example.com", '"alice'] as const;

describe("the allowed signers grammar against ssh-keygen -Y verify -I", () => {
  it("never accepts what ssh-keygen refuses; refuses what it accepts only for a stated reason (generated)", (ctx) => {
    const tool = needTool(ctx, "ssh-keygen");
    const mine = makeKey(tool, DIR, "mine");
    const other = makeKey(tool, DIR, "other");
    const message = path.join(DIR, "export.json");
    fs.writeFileSync(message, '{"an": "export"}\n');
    expect(sshSign(tool, mine, message).status).toBe(0);
    const [type, b64] = fs.readFileSync(`${mine}.pub`, "utf8").trim().split(/\s+/u) as [string, string];
    // OpenSSH's base64 decoder passes over CR, VT and FF inside a key.
    const keys = {
      mine: `${type} ${b64}`,
      "mine-spaced": `${type} ${b64.slice(0, 7)}\r${b64.slice(7, 30)}\v\f${b64.slice(30)}`,
      other: fs.readFileSync(`${other}.pub`, "utf8").trim().split(/\s+/u).slice(0, 2).join(" "),
      "wrong-type": `ssh-rsa ${b64}`,
    };
    const allowed = path.join(DIR, "allowed_signers");
    const withoutLine = path.join(DIR, "allowed_signers_without_line");
    const tally = { both: 0, neither: 0, skippedLine: 0, unread: 0 };
    fc.assert(
      fc.property(fc.array(LINE, { minLength: 1, maxLength: 3 }), (lines) => {
        const text = lines
          .map((l) => {
            if (typeof l === "string") return l;
            const key = l.key === "none" ? "" : keys[l.key];
            const head = l.options === undefined ? l.principals : `${l.principals}${l.blanks[0]}${l.options}`;
            return `${l.lead}${head}${l.blanks[1]}${key}${l.comment}${l.end}`;
          })
          .join("\n");
        fs.writeFileSync(allowed, `${text}\n`);
        for (const signer of SIGNERS) {
          const theirs = sshVerify(tool, allowed, signer, `${message}.sig`, message).status === 0;
          const verdict = verdictWithSigner({ message: fs.readFileSync(message), signature: fs.readFileSync(`${message}.sig`), allowedSigners: fs.readFileSync(allowed) }, signer);
          const refusal = verdict === "accepted" ? undefined : verdict;
          const where = `signer ${JSON.stringify(signer)}, ssh-keygen ${theirs ? "accepted" : "refused"}, the plugin ${refusal ?? "accepted"}; the file:\n${text}`;
          if (refusal === undefined) {
            expect(theirs, where).toBe(true);
            tally.both++;
          } else if (!theirs) tally.neither++;
          else if (/^the allowed signers file SIGNERS does not read at line \d+: /u.test(refusal)) {
            // Stated only if ssh-keygen skips that line too: without it, it still accepts.
            const n = Number(/at line (\d+)/u.exec(refusal)![1]);
            fs.writeFileSync(
              withoutLine,
              `${text
                .split("\n")
                .filter((_, i) => i !== n - 1)
                .join("\n")}\n`,
            );
            expect(sshVerify(tool, withoutLine, signer, `${message}.sig`, message).status, `ssh-keygen reads line ${n}, which the plugin refuses: ${where}`).toBe(0);
            tally.skippedLine++;
          } else if (/ has the option valid-(after|before), which this plugin does not read/u.test(refusal)) tally.unread++;
          else expect.fail(`refused without a stated reason: ${where}`);
        }
      }),
      // 150 files in the unit tier; 30 under npm run mutate, where every mutant runs this test.
      // A fixed seed, as the signer oracle's: the tallies below judge the generator, and a random
      // one swung the accepted share from 2 % to 7 % between runs.
      { numRuns: process.env.PTAH_UNDER_MUTATION ? 30 : 150, seed: 55 },
    );
    const cases = tally.both + tally.neither + tally.skippedLine + tally.unread;
    console.log(
      `allowed signers grammar against ssh-keygen: ${cases} cases, ${tally.both} accepted by both, ${tally.neither} refused by both, ` +
        `refused by the plugin alone: ${tally.skippedLine} for a line ssh-keygen skips, ${tally.unread} for valid-after/valid-before`,
    );
    // Both verdicts represented (accepted by both: 2 % to 7 % of the cases across random seeds).
    expect(tally.both).toBeGreaterThan(cases * 0.015);
    expect(tally.neither).toBeGreaterThan(cases * 0.5);
  });
});
