// -o json | yaml | name | jsonpath=… over objects exactly as the server sent them.
// Several objects are wrapped in a kubectl List. JSON and YAML escape every control
// character, so machine output is terminal-safe too.
import yaml from "js-yaml";
import { UsageError } from "../errors.ts";
import { renderJsonPath } from "./jsonpath.ts";

export type MachineFormat =
  | { readonly kind: "json" }
  | { readonly kind: "yaml" }
  | { readonly kind: "name" }
  | { readonly kind: "jsonpath"; readonly template: string };

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
  return undefined;
}

// Escapes JSON.stringify leaves raw: DEL, C1 controls, bidi controls, line separators.
// eslint-disable-next-line no-control-regex
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/** kubectl's JSON: four-space indent, trailing newline, every control character escaped. */
export function formatJson(value: unknown, indent = 4): string {
  return (
    JSON.stringify(value, null, indent).replace(JSON_UNSAFE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`) +
    "\n"
  );
}

/** kubectl-like YAML: sorted keys, lists at their key's indent, no line folding. */
export function formatYaml(value: unknown): string {
  const text = yaml.dump(value, { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true });
  // js-yaml escapes C0/C1 controls itself; bidi and separator characters it treats as
  // printable, so such a scalar is re-emitted as an escaped JSON string (valid YAML).
  return text.replace(/^(.*)$/gmu, (line) => (JSON_UNSAFE.test(line) ? reQuote(line) : line));
}

function reQuote(line: string): string {
  JSON_UNSAFE.lastIndex = 0;
  const m = /^(\s*(?:- )?(?:[^:]+: )?)(.*)$/u.exec(line);
  if (!m) return line;
  let scalar = m[2]!;
  if (scalar.startsWith('"') || scalar.startsWith("'")) {
    try {
      scalar = yaml.load(scalar) as string;
    } catch {
      /* keep as is */
    }
  }
  return m[1]! + JSON.stringify(scalar).replace(JSON_UNSAFE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`);
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
  return `${kind}${group ? `.${group}` : ""}/${typeof name === "string" ? name : ""}`;
}

/**
 * Renders raw objects in a machine format. `single` prints one object as itself (kubectl
 * does this for `get KIND NAME`); otherwise the objects are wrapped in a List.
 */
export function renderMachine(format: MachineFormat, objects: readonly Record<string, unknown>[], single: boolean): string {
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
  }
}
