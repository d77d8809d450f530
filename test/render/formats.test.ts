// -o json | yaml | name | jsonpath: kubectl's machine formats over raw objects.
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { asList, formatJson, formatYaml, parseMachineFormat, renderMachine } from "../../src/render/formats.ts";
import { awaitingSchema, blockedSchema } from "../support/builders.ts";

const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "chunk-0", namespace: "app" }, data: { a: "1" } };

describe("parseMachineFormat", () => {
  it.each([
    { name: "json", output: "json", format: { kind: "json" } },
    { name: "yaml", output: "yaml", format: { kind: "yaml" } },
    { name: "name", output: "name", format: { kind: "name" } },
    { name: "jsonpath keeps everything after the first =", output: "jsonpath={.a}={.b}", format: { kind: "jsonpath", template: "{.a}={.b}" } },
    { name: "no -o is the human format", output: undefined, format: undefined },
    { name: "wide is a human format", output: "wide", format: undefined },
    { name: "jsonpath-as-json is not offered (rather than printed as plain jsonpath)", output: "jsonpath-as-json={.a}", format: undefined },
  ])("$name", ({ output, format }) => {
    expect(parseMachineFormat(output)).toEqual(format);
  });

  it.each([
    { name: "jsonpath without a template", output: "jsonpath" },
    { name: "jsonpath= with an empty template", output: "jsonpath=" },
  ])("refuses $name as a usage error", ({ output }) => {
    expect(() => parseMachineFormat(output)).toThrow(UsageError);
  });
});

describe("formatJson", () => {
  it("indents with four spaces and ends with a newline, as kubectl does", () => {
    expect(formatJson({ a: [1, { b: "c" }] })).toBe('{\n    "a": [\n        1,\n        {\n            "b": "c"\n        }\n    ]\n}\n');
  });

  it("escapes DEL, C1, bidi and line-separator characters that JSON.stringify leaves raw", () => {
    const text = formatJson({ s: "a\u007fb\u009bc\u202ed\u2028e\u001bf" });
    expect(text).toBe('{\n    "s": "a\\u007fb\\u009bc\\u202ed\\u2028e\\u001bf"\n}\n');
    expect(JSON.parse(text)).toEqual({ s: "a\u007fb\u009bc\u202ed\u2028e\u001bf" });
  });
});

describe("formatYaml", () => {
  it("sorts keys and puts list items at their key's indent, as kubectl does", () => {
    expect(formatYaml({ b: 1, a: [{ w: 2, v: 1 }], c: { e: "f", d: "g" } })).toBe("a:\n- v: 1\n  w: 2\nb: 1\nc:\n  d: g\n  e: f\n");
  });

  it("never folds long lines", () => {
    const long = "word ".repeat(60).trim();
    expect(formatYaml({ message: long })).toBe(`message: ${long}\n`);
  });

  it.each([
    { name: "an escape sequence", value: "red\u001b[31mtext" },
    { name: "a bidi override", value: "abc\u202edef" },
    { name: "a line separator", value: "one\u2028two" },
    { name: "a C1 control", value: "x\u009by" },
  ])("escapes $name and still round-trips", ({ value }) => {
    const text = formatYaml({ metadata: { name: value }, list: [value] });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u);
    expect(yaml.load(text)).toEqual({ metadata: { name: value }, list: [value] });
  });
});

describe("renderMachine", () => {
  const a = awaitingSchema();
  const b = blockedSchema();

  it("prints a single object as itself with -o json", () => {
    expect(JSON.parse(renderMachine({ kind: "json" }, [a], true))).toEqual(a);
  });

  it("wraps several objects in a kubectl List", () => {
    expect(JSON.parse(renderMachine({ kind: "json" }, [a, b], false))).toEqual({ apiVersion: "v1", kind: "List", items: [a, b], metadata: { resourceVersion: "" } });
  });

  it("wraps a list view of one object in a List too, as kubectl get does", () => {
    expect(JSON.parse(renderMachine({ kind: "json" }, [a], false))).toMatchObject({ kind: "List", items: [a] });
  });

  it("prints an empty List for no objects", () => {
    expect(JSON.parse(renderMachine({ kind: "json" }, [], false))).toEqual(asList([]));
  });

  it("prints the same List as YAML", () => {
    expect(yaml.load(renderMachine({ kind: "yaml" }, [a, b], false))).toEqual(asList([a, b]));
    expect(renderMachine({ kind: "yaml" }, [a, b], false)).toMatch(/^apiVersion: v1\nitems:\n- apiVersion: operator\.ptah\.run\/v1alpha1\n/u);
  });

  it("prints kind.group/name for each object with -o name, and kind/name for the core group", () => {
    expect(renderMachine({ kind: "name" }, [a, b, configMap], false)).toBe("ptahschema.operator.ptah.run/storefront\nptahschema.operator.ptah.run/catalog\nconfigmap/chunk-0\n");
  });

  it("runs a jsonpath template over the List", () => {
    expect(renderMachine({ kind: "jsonpath", template: "{.kind} {.items[*].metadata.name}" }, [a, b], false)).toBe("List storefront catalog");
  });

  it("runs a jsonpath template over the single object", () => {
    expect(renderMachine({ kind: "jsonpath", template: "{.metadata.name}" }, [a], true)).toBe("storefront");
  });
});
