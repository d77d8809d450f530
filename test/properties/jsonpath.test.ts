// Properties of the -o jsonpath template dialect: on any string, parsing and rendering either
// succeed or throw a UsageError (exit 2), never anything else; values from the cluster never
// bring a control character to the terminal.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { parseJsonPathTemplate, renderJsonPath } from "../../src/render/jsonpath.ts";
import { isTerminalSafe } from "../../src/render/sanitize.ts";
import { asList } from "../../src/render/formats.ts";
import { awaitingSchema, blockedSchema } from "../support/builders.ts";
import { Tally, runs } from "./runs.ts";

const tally = new Tally("jsonpath");
afterAll(() => console.log(tally.summary()));

const SEGMENTS = [
  ".metadata",
  ".name",
  ".items",
  "[*]",
  "[0]",
  "[-1:]",
  "[1:3:2]",
  ".status",
  ".conditions",
  "..",
  ".type",
  ".message",
  '[?(@.type=="Ready")]',
  "[?(@.status!='False')]",
  "[?(@.x)]",
  "[?(@.observedGeneration>0)]",
  "['metadata']",
  '["name"]',
  ".constructor",
  ".__proto__",
  ".length",
  ".toString",
  "[",
  "]",
  "(",
  "?",
  "*",
  "@",
  "$",
  "'",
  '"',
  "\\",
];

/** A path: mostly the dialect's own pieces, sometimes arbitrary text. */
const path = fc
  .tuple(
    fc.constantFrom("", "$", "@", "$.", "."),
    fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) }), {
      minLength: 1,
      maxLength: 5,
    }),
  )
  .map(([prefix, parts]) => prefix + parts.join(""));

const action = fc.oneof(
  { weight: 5, arbitrary: path.map((p) => `{${p}}`) },
  { weight: 2, arbitrary: path.map((p) => `{range ${p}}`) },
  { weight: 2, arbitrary: fc.constant("{end}") },
  { weight: 2, arbitrary: fc.constantFrom('{"\\n"}', "{'\\t'}", '{"\\u00e9"}', '{"\\q"}', '{"x}', '{"}"}', "{}", "{ }") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }).map((t) => `{${t}}`) },
);

/** Templates built from actions and text, then sometimes damaged (a character dropped or a brace added). */
const template = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: action }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) }), { maxLength: 8 }),
    fc.option(fc.tuple(fc.nat(), fc.constantFrom("", "{", "}")), { freq: 3 }),
  )
  .map(([parts, damage]) => {
    const t = parts.join("");
    if (!damage || t.length === 0) return t;
    const at = damage[0] % t.length;
    return t.slice(0, at) + damage[1] + t.slice(at + 1);
  });

function onlyUsageErrors(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (err) {
    if (err instanceof UsageError) return true;
    throw err; // fast-check reports the counterexample with this error
  }
}

const data = asList([awaitingSchema(), blockedSchema()]);

describe("jsonpath templates (property)", () => {
  const n = runs(10_000);

  it("parsing any string either succeeds or throws a UsageError", () =>
    tally.check(
      "parse: UsageError or a template",
      fc.property(fc.oneof(template, fc.string({ unit: "binary" })), (t) => onlyUsageErrors(() => parseJsonPathTemplate(t))),
      n,
    ));

  it("rendering any template over a real List either succeeds or throws a UsageError", () =>
    tally.check(
      "render: UsageError or text",
      fc.property(template, (t) => onlyUsageErrors(() => renderJsonPath(t, data))),
      n,
    ));

  it("rendering over arbitrary JSON data either succeeds or throws a UsageError", () =>
    tally.check(
      "render over any JSON",
      fc.property(template, fc.jsonValue({ maxDepth: 4 }), (t, d) => onlyUsageErrors(() => renderJsonPath(t, d))),
      n,
    ));

  it("values from the cluster never print a control character, whatever the path", () => {
    const hostile = fc.string({ unit: "binary", maxLength: 20 }).map((s) => `${s}\u001b[2J\u202e\u0085`);
    const path = fc
      .array(fc.constantFrom(".metadata.name", ".metadata.labels", ".status.message", ".items[*]", "..message", ".status", "[*]", ".spec.list[*]"), { minLength: 1, maxLength: 3 })
      .map((p) => `{${p.join("")}}`);
    const object = fc.record({
      metadata: fc.record({ name: hostile, labels: fc.dictionary(hostile, hostile, { maxKeys: 3 }) }),
      status: fc.record({ message: hostile, nested: fc.record({ message: hostile }) }),
      spec: fc.record({ list: fc.array(hostile, { maxLength: 3 }) }),
    });
    return tally.check(
      "cluster values terminal-safe",
      fc.property(path, object, (p, o) => {
        let out: string;
        try {
          out = renderJsonPath(p, { ...o, items: [o] });
        } catch (err) {
          if (err instanceof UsageError) return true;
          throw err;
        }
        return isTerminalSafe(out);
      }),
      n,
    );
  });

  it("text outside braces is printed exactly as given", () =>
    tally.check(
      "literal text kept",
      fc.property(
        fc.string({ unit: "binary" }).filter((s) => !s.includes("{")),
        (s) => renderJsonPath(s, data) === s,
      ),
      n,
    ));

  it("a UsageError from a bad template is one line", () => {
    expect(() => renderJsonPath("{.a\n{", data)).toThrow(UsageError);
  });
});
