// Counterexamples the hostile-input property found (hostile-input.ts), kept as plain
// examples so that each fix stays fixed even when the generator takes another path.
import Table from "cli-table3";
import fc from "fast-check";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { formatYaml, renderMachine } from "../../../src/render/formats.ts";
import { formatTimestamp } from "../../../src/render/age.ts";
import { renderTable } from "../../../src/render/table.ts";
import { namespaceFlag, noResources } from "../../../src/commands/shared/output.ts";
import { schemaNextStep, migrationNextStep } from "../../../src/commands/shared/next-step.ts";
import { parseObject } from "../../../src/model/parse.ts";
import { aMigration, awaitingSchema, cond } from "../../support/builders.ts";
import { toGlobalOptions } from "../../../src/cli/global-flags.ts";
import { sanitize } from "../../../src/render/sanitize.ts";
import { paint } from "../../../src/render/color.ts";
import { hostileString } from "./hostile-strings.ts";

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

describe("hostile-input counterexamples", () => {
  it.each([
    { name: "a bidi override in a mapping key", value: { metadata: { annotations: { "a\u202eb": "c" } } } },
    { name: "a bidi isolate in a multi-line string", value: { message: "line one\nline \u2066two\u2069\nthree" } },
    { name: "a bidi override in a key and a value of a list item", value: { items: [{ "k\u202d": "v\u202a" }] } },
    { name: "a key longer than 1024 characters over a list of mappings", value: { spec: { ["k".repeat(1100)]: [{ a: "1", b: "2" }], x: 1 } } },
    { name: "a key of 300 escaped control characters over a list", value: { ["\u0001".repeat(300)]: [{ a: 1, b: 2 }] } },
  ])("YAML: $name is escaped and parses back to the same value", ({ value }) => {
    const text = formatYaml(value);
    expect(text).not.toMatch(UNSAFE);
    expect(yaml.load(text)).toEqual(value);
  });

  it("YAML: a string that looks like the escaping token stays itself", () => {
    const value = { a: "ptah-escaped-0", b: "x\u202ey" };
    expect(yaml.load(formatYaml(value))).toEqual(value);
  });

  it("-o name neutralises control characters in names", () => {
    const raw = { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchema", metadata: { name: "a\u001b]0;t\u0007b\f" } };
    const out = renderMachine({ kind: "name" }, [raw], false);
    expect(out).toBe("ptahschema.operator.ptah.run/a^[]0;t\\x07b\\x0c\n");
  });

  it("a timestamp that is not a time is shown neutralised", () => {
    expect(formatTimestamp("x\u001b[2J\u0085y")).toBe("x^[[2J\\x85y");
    expect(formatTimestamp("2026-11-30T11:00:00.5Z")).toBe("2026-11-30T11:00:00Z");
  });

  it("suggested commands neutralise the namespace and the object's name", () => {
    const ns = "ns\n\u001b[2K";
    const flag = namespaceFlag(toGlobalOptions({ namespace: ns }, { stdoutIsTTY: false, env: {} }, true), ns);
    expect(flag).toBe(" -n ns\\n^[[2K");
    const schema = parseObject("PtahSchema", awaitingSchema({ name: "s\u202e\u0007" })).object;
    expect(schemaNextStep(schema, flag)).not.toMatch(UNSAFE);
    const migration = parseObject("PtahMigration", aMigration({ name: "m\u009b", phase: "Bad\u001b", conditions: [cond("Ready", "False", "R\u0007", "m")] })).object;
    expect(migrationNextStep(migration, flag)).not.toMatch(UNSAFE);
  });

  it("kubectl's empty-list line stays one line whatever the namespace", () => {
    expect(noResources("a\nb\u001b")).toBe("No resources found in a\\nb^[ namespace.\n");
  });

  it("tables trim thousands of padding blanks in linear time (no \\s+$ backtracking)", () => {
    const wide = "数".repeat(3000);
    const rows = Array.from({ length: 300 }, (_, i) => [i === 0 ? wide : "x", "y"]);
    const start = performance.now();
    const text = renderTable(["A", "B"], rows);
    expect(performance.now() - start).toBeLessThan(20_000); // quadratic trimming took minutes
    expect(text.split("\n").every((l) => !/\s$/u.test(l))).toBe(true);
  });

  it("tables of sanitised hostile cells are drawn exactly as cli-table3 draws them", () => {
    const viaCliTable3 = (all: string[][]): string => {
      const chars = Object.fromEntries(
        ["top", "top-mid", "top-left", "top-right", "bottom", "bottom-mid", "bottom-left", "bottom-right", "left", "left-mid", "mid", "mid-mid", "right", "right-mid"].map((k) => [
          k,
          "",
        ]),
      );
      const table = new Table({ chars: { ...chars, middle: "   " }, style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true }, wordWrap: false });
      for (const row of all) table.push([...row]);
      return (
        table
          .toString()
          .split("\n")
          .map((l) => l.trimEnd())
          .join("\n") + "\n"
      );
    };
    const cell = fc.oneof(
      hostileString.map((x) => sanitize(x).slice(0, 60)),
      hostileString.map((x) => paint("green", sanitize(x).slice(0, 20), true)),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(fc.array(cell, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 6 })),
        (all) => {
          expect(renderTable(all[0]!, all.slice(1))).toBe(viaCliTable3(all));
        },
      ),
      { numRuns: 500 },
    );
  });
});
