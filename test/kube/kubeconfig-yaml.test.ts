// loadYaml (the kubeconfig's parse with long base64 values set aside) gives exactly what js-yaml
// gives for the same text: the lab's kubeconfigs, the corners where a long base64-looking value is
// not a plain string value, and generated documents (fast-check); errors are js-yaml's own.
import fc from "fast-check";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { loadYaml } from "../../src/kube/kubeconfig-yaml.ts";

const B64 = "MIIC" + "ab+/Zz09".repeat(60) + "QQ==";
const DIGITS = "1234567890".repeat(30);
const HEX = "0x" + "DEADbeef".repeat(40);

const CORNERS: Record<string, string> = {
  kubeconfig: `apiVersion: v1\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n    certificate-authority-data: ${B64}\nusers:\n- name: u\n  user:\n    client-certificate-data: ${B64}\n    client-key-data: ${B64}  \ncurrent-context: x\n`,
  "inside a block scalar": `note: |\n  client-key-data: ${B64}\n  second line\nother: 1\n`,
  "a folded continuation": `key: ${B64}\n  continued here\n`,
  "digits only (a number)": `n: ${DIGITS}\n`,
  "hex only (a number)": `h: ${HEX}\n`,
  "a comment after": `k: ${B64} # why\n`,
  "a tag": `k: !!binary ${B64}\n`,
  "in a list": `- k: ${B64}\n- ${B64}\n`,
  CRLF: `k: ${B64}\r\nj: 2\r\n`,
  "short values": "k: YWJj\n",
  "a flow mapping": `{k: ${B64}}\n`,
};

describe("loadYaml", () => {
  for (const [name, text] of Object.entries(CORNERS)) {
    it(`parses like js-yaml: ${name}`, () => {
      expect(loadYaml(text)).toEqual(yaml.load(text));
    });
  }

  it("reports js-yaml's error for the text as written (line and column)", () => {
    const text = `k: ${B64}\nbad: [unclosed\n`;
    expect(() => loadYaml(text)).toThrow(
      (() => {
        try {
          yaml.load(text);
        } catch (err) {
          return (err as Error).message;
        }
        return "no error";
      })(),
    );
  });

  it("parses generated documents like js-yaml", () => {
    const value = fc.oneof(
      fc.constantFrom(B64, DIGITS, HEX, `${B64}=`, "plain words", "'quoted'", "|", "- item", "[a, b]", "~", "2026-12-01"),
      fc.stringMatching(/^[A-Za-z0-9+/]{250,300}={0,2}$/u),
    );
    const line = fc.tuple(fc.constantFrom("", "  ", "- ", "    "), fc.constantFrom("a", "client-key-data", "x.y", "k_1"), value, fc.constantFrom("", " ", " # c"));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const text = lines.map(([indent, key, v, tail]) => `${indent}${key}: ${v}${tail}`).join("\n") + "\n";
        let expected: unknown;
        try {
          expected = yaml.load(text);
        } catch (err) {
          expect(() => loadYaml(text)).toThrow((err as Error).message);
          return;
        }
        expect(loadYaml(text)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
