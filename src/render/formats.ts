// -o json | yaml | name | jsonpath=… over objects exactly as the server sent them.
// Several objects are wrapped in a kubectl List. JSON and YAML escape every control
// character, so machine output is terminal-safe too.
import yaml from "js-yaml";
import { JSON_UNSAFE, UsageError, escapeJsonText } from "../errors.ts";
import { parseCustomColumns, renderCustomColumns, type CustomColumn } from "./columns.ts";
import { renderJsonPath } from "./jsonpath.ts";
import { sanitize } from "./sanitize.ts";

export type MachineFormat =
  | { readonly kind: "json" }
  | { readonly kind: "yaml" }
  | { readonly kind: "name" }
  | { readonly kind: "jsonpath"; readonly template: string }
  | { readonly kind: "custom-columns"; readonly columns: readonly CustomColumn[]; readonly spec: string };

/** Parses the machine-readable part of -o; undefined for a human format. */
export function parseMachineFormat(output: string | undefined): MachineFormat | undefined {
  if (output === undefined) return undefined;
  if (output === "json") return { kind: "json" };
  if (output === "yaml") return { kind: "yaml" };
  if (output === "name") return { kind: "name" };
  // kubectl's jsonpath-as-json prints a JSON array; it is not offered rather than printed as plain jsonpath.
  const m = /^jsonpath=(.*)$/su.exec(output);
  if (m) {
    if (m[1] === "") throw new UsageError("template format specified but no template given");
    return { kind: "jsonpath", template: m[1]! };
  }
  if (output === "jsonpath") throw new UsageError("template format specified but no template given");
  const cc = /^custom-columns=(.*)$/su.exec(output);
  if (cc) return { kind: "custom-columns", columns: parseCustomColumns(cc[1]!), spec: output };
  if (output === "custom-columns") throw new UsageError("custom-columns format specified but no custom columns given");
  return undefined;
}

// DEL, C1 controls, bidi controls and line separators, which JSON.stringify leaves raw: escaped
// by escapeJsonText (errors.ts, beside the terminal sanitiser).
export { escapeJsonText };

/** kubectl's JSON: four-space indent, trailing newline, every control character escaped. */
export function formatJson(value: unknown, indent = 4): string {
  return JSON.stringify(value, null, indent).replace(JSON_UNSAFE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`) + "\n";
}

// Go's encoding/json escapes these even with an indent (HTML-safe output, the default).
const GO_HTML_ESCAPED = /[<>&\u2028\u2029]/gu;

/**
 * Go's json.Encoder with SetIndent("", "  "): two-space indent, `<`, `>`, `&`, U+2028 and U+2029
 * as \uXXXX, a trailing newline; DEL, C1 and bidi controls are escaped too (the same JSON value,
 * safe on a terminal). These characters only ever occur inside strings, so escaping the text is
 * escaping the strings.
 */
export function formatGoJson(value: unknown): string {
  return formatJson(value, 2).replace(GO_HTML_ESCAPED, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

/** kubectl-like YAML: sorted keys, lists at their key's indent, no line folding. */
export function formatYaml(value: unknown): string {
  // js-yaml escapes C0/C1 controls itself, but treats bidi controls and separators as printable
  // and may print them raw: in a plain or single-quoted scalar, a mapping key or a block literal.
  // Every string (key or value) holding one is swapped for a plain-scalar token before dumping
  // and put back as an escaped JSON string, which is a valid YAML double-quoted scalar.
  const swapped: string[] = [];
  let prefix = "ptah-escaped-";
  const everything = JSON.stringify(value) ?? "";
  while (everything.includes(prefix)) prefix += "x";
  const swap = (s: string): string => {
    JSON_UNSAFE.lastIndex = 0;
    if (!JSON_UNSAFE.test(s)) return s;
    swapped.push(s);
    return `${prefix}${swapped.length - 1}`;
  };
  // js-yaml writes a key longer than 1024 characters as an explicit `? key`, and then misindents
  // a list under it when lists sit at their key's indent: such objects get indented lists.
  let explicitKey = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return swap(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const key = swap(k);
        if (key.length > 150 && !explicitKey) explicitKey = yaml.dump(key, { lineWidth: -1 }).length > 1024;
        Object.defineProperty(out, key, { value: walk(x), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  };
  const walked = walk(value);
  const text = yaml.dump(walked, { sortKeys: true, noArrayIndent: !explicitKey, lineWidth: -1, noRefs: true });
  if (swapped.length === 0) return text;
  const token = new RegExp(`${prefix}(\\d+)`, "gu");
  return text.replace(token, (_, i: string) => JSON.stringify(swapped[Number(i)]!).replace(JSON_UNSAFE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`));
}

/** A kubectl List around several objects. */
export function asList(items: readonly Record<string, unknown>[]): Record<string, unknown> {
  return { apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } };
}

function nameOf(raw: Record<string, unknown>): string {
  const kind = typeof raw.kind === "string" ? raw.kind.toLowerCase() : "object";
  const apiVersion = typeof raw.apiVersion === "string" ? raw.apiVersion : "";
  const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
  const name = (raw.metadata as { name?: unknown } | undefined)?.name;
  // kubectl prints names raw; cluster strings are neutralised like everywhere else.
  return sanitize(`${kind}${group ? `.${group}` : ""}/${typeof name === "string" ? name : ""}`);
}

/**
 * Renders raw objects in a machine format. `single` prints one object as itself (kubectl
 * does this for `get KIND NAME`); otherwise the objects are wrapped in a List.
 */
export function renderMachine(format: MachineFormat, objects: readonly Record<string, unknown>[], single: boolean, options: { readonly noHeaders?: boolean } = {}): string {
  const data = single && objects.length === 1 ? objects[0]! : asList(objects);
  switch (format.kind) {
    case "json":
      return formatJson(data);
    case "yaml":
      return formatYaml(data);
    case "name":
      return objects.map((o) => `${nameOf(o)}\n`).join("");
    case "jsonpath":
      return renderJsonPath(format.template, data);
    case "custom-columns":
      return renderCustomColumns(format.columns, objects, options.noHeaders === true);
  }
}
