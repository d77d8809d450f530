// kubectl's list printing options over served objects: -o custom-columns (and its file form),
// --sort-by, -L/--label-columns and --show-labels. Messages are kubectl's.
import { UsageError } from "../errors.ts";
import { jsonPathResults, parseJsonPathTemplate, relaxedJsonPath } from "./jsonpath.ts";
import { sanitize } from "./sanitize.ts";
import { renderTable } from "./table.ts";

export interface CustomColumn {
  readonly header: string;
  /** A template in kubectl's relaxed form, already braced: `{.metadata.name}`. */
  readonly template: string;
}

function column(header: string, path: string, spec: string): CustomColumn {
  if (!header || !path) throw new UsageError(`unexpected custom-columns spec: ${spec}, expected <header>:<json-path-expr>`);
  const template = relaxedJsonPath(path);
  parseJsonPathTemplate(template); // a malformed expression is refused before anything is read
  return { header, template };
}

/** `-o custom-columns=NAME:.metadata.name,PHASE:.status.phase`. */
export function parseCustomColumns(spec: string): CustomColumn[] {
  if (spec === "") throw new UsageError("custom-columns format specified but no custom columns given");
  return spec.split(",").map((part) => {
    const colon = part.indexOf(":");
    return colon < 0 ? column("", "", part) : column(part.slice(0, colon), part.slice(colon + 1), part);
  });
}

/** The file of `-o custom-columns-file=FILE`: one line of headers, one line of paths, space-separated. */
export function parseCustomColumnsFile(text: string): CustomColumn[] {
  const lines = text
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length < 2) {
    throw new UsageError("invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.");
  }
  const headers = lines[0]!.split(/\s+/u);
  const paths = lines[1]!.split(/\s+/u);
  if (headers.length !== paths.length) throw new UsageError(`invalid template, expected ${headers.length} column specs, got ${paths.length}`);
  return headers.map((h, i) => column(h, paths[i]!, `${h}:${paths[i]!}`));
}

/** A value as Go's fmt prints it in kubectl's custom columns: `map[k:v]`, `[a b]`, `<nil>`. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return sanitize(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(" ")}]`;
  if (typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${sanitize(k)}:${goValue((value as Record<string, unknown>)[k])}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(value as number | boolean | bigint);
}

export function renderCustomColumns(columns: readonly CustomColumn[], objects: readonly Record<string, unknown>[], noHeaders: boolean): string {
  const rows = objects.map((o) =>
    columns.map((c) => {
      const results = jsonPathResults(c.template, o);
      if (results.length === 0 || results[0]!.length === 0) return "<none>";
      return results.flat().map(goValue).join(",");
    }),
  );
  return renderTable(
    columns.map((c) => c.header),
    rows,
    { noHeaders },
  );
}

type SortKey =
  { readonly kind: "none" } | { readonly kind: "number"; readonly n: number } | { readonly kind: "string"; readonly s: string } | { readonly kind: "boolean"; readonly b: boolean };

function sortKey(template: string, raw: Record<string, unknown>): SortKey {
  const first = jsonPathResults(template, raw)[0] ?? [];
  if (first.length === 0 || first[0] === undefined || first[0] === null) return { kind: "none" };
  const v = first[0];
  if (typeof v === "number") return { kind: "number", n: v };
  if (typeof v === "string") return { kind: "string", s: v };
  if (typeof v === "boolean") return { kind: "boolean", b: v };
  throw new UsageError(`--sort-by: the field ${template} is ${Array.isArray(v) ? "a list" : "an object"}, which cannot be sorted by`);
}

function compare(a: SortKey, b: SortKey): number {
  // Objects without the field come first, as kubectl sorts them.
  if (a.kind === "none" || b.kind === "none") return a.kind === b.kind ? 0 : a.kind === "none" ? -1 : 1;
  if (a.kind === "number" && b.kind === "number") return a.n - b.n;
  if (a.kind === "boolean" && b.kind === "boolean") return Number(a.b) - Number(b.b);
  const x = a.kind === "string" ? a.s : String(a.kind === "number" ? a.n : a.kind === "boolean" ? a.b : "");
  const y = b.kind === "string" ? b.s : String(b.kind === "number" ? b.n : b.kind === "boolean" ? b.b : "");
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Parses `--sort-by`; throws kubectl's message for an expression it cannot read. */
export function parseSortBy(expression: string): string {
  if (expression.trim() === "") throw new UsageError("--sort-by needs a field, e.g. --sort-by=.metadata.name");
  const template = relaxedJsonPath(expression);
  parseJsonPathTemplate(template);
  return template;
}

/**
 * Stable sort by the first value the template finds in each served object. When no object has
 * the field at all, that is a mistyped path: refused (newer kubectl prints nothing instead).
 */
export function sortByField<T>(items: readonly T[], rawOf: (item: T) => Record<string, unknown>, template: string): T[] {
  const keyed = items.map((item) => ({ item, key: sortKey(template, rawOf(item)) }));
  if (keyed.length > 0 && keyed.every((k) => k.key.kind === "none")) {
    throw new UsageError(`couldn't find any field with path "${template}" in the list of objects`);
  }
  return keyed.sort((a, b) => compare(a.key, b.key)).map((k) => k.item);
}

/** -L's headers: the last path segment of each key, upper-cased; --show-labels adds LABELS. */
export function labelHeaders(labelColumns: readonly string[], showLabels: boolean): string[] {
  return [...labelColumns.map((k) => k.split("/").pop()!.toUpperCase()), ...(showLabels ? ["LABELS"] : [])];
}

/** The cells for labelHeaders: each key's value (empty when absent), then `k=v,…` or `<none>`. */
export function labelCells(labels: Readonly<Record<string, string>> | undefined, labelColumns: readonly string[], showLabels: boolean): string[] {
  const l = labels ?? {};
  // Own keys only: `-L constructor` names a label, not what every object inherits.
  const cells = labelColumns.map((k) => sanitize(Object.hasOwn(l, k) ? (l[k] ?? "") : ""));
  if (showLabels) {
    // kubectl sorts the `k=v` pairs as strings (so `app.kubernetes.io/name=…` before `app=…`).
    const pairs = Object.keys(l)
      .map((k) => `${k}=${l[k]}`)
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    cells.push(pairs.length === 0 ? "<none>" : sanitize(pairs.join(",")));
  }
  return cells;
}
