// kubectl get's printing flags for the list views (status, approvals): --sort-by,
// -L/--label-columns, --show-labels and the server-side --field-selector.
import { UsageError } from "../../errors.ts";
import { parseSortBy } from "../../render/columns.ts";
import type { ViewOutput } from "./output.ts";
import type { FlagSpec } from "../command-types.ts";

/** The -o formats of the list views (status, approvals), as their usage lines write them. */
export const VIEW_OUTPUTS = ["wide", "json", "yaml", "name", "jsonpath=TEMPLATE", "custom-columns=SPEC", "custom-columns-file=FILE"] as const;

export const PRINT_FLAGS: readonly FlagSpec[] = [
  { name: "sort-by", type: "string", value: "JSONPATH", describe: "Sort rows (and -o json|yaml|name items) by a field, e.g. .metadata.creationTimestamp" },
  { name: "label-columns", alias: "L", type: "string", repeatable: true, value: "KEY,…", describe: "Add a column per label key (repeatable, comma-separated)" },
  { name: "show-labels", type: "boolean", describe: "Add a LABELS column with every label" },
  {
    name: "field-selector",
    type: "string",
    value: "SELECTOR",
    describe: "Server-side field selector; the Ptah kinds serve metadata.name and metadata.namespace, e.g. metadata.name=shop",
  },
];

export interface PrintOptions {
  /** The braced template of --sort-by. */
  readonly sortBy: string | undefined;
  readonly labelColumns: readonly string[];
  readonly showLabels: boolean;
  readonly fieldSelector: string | undefined;
}

function single(v: unknown, name: string, command: string): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new UsageError(`flag --${name} given more than once`, command);
  return String(v as string);
}

export function toPrintOptions(flags: Readonly<Record<string, unknown>>, output: ViewOutput, command: string): PrintOptions {
  const sortBy = single(flags["sort-by"], "sort-by", command);
  const labels = flags["label-columns"];
  const labelColumns = (Array.isArray(labels) ? labels : labels === undefined ? [] : [labels])
    .flatMap((v) => String(v).split(","))
    .map((k) => k.trim())
    .filter((k) => k !== "");
  const showLabels = flags["show-labels"] === true;
  // kubectl: labels are columns of its own table; a template or custom-columns printer refuses them.
  if (showLabels && (output.kind === "jsonpath" || output.kind === "custom-columns" || output.kind === "custom-columns-file")) {
    const spec = output.kind === "jsonpath" ? `jsonpath=${output.template}` : output.spec;
    throw new UsageError(`--show-labels option cannot be used with ${spec} printer`, command);
  }
  let template: string | undefined;
  try {
    template = sortBy === undefined ? undefined : parseSortBy(sortBy);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(err.message, command);
    throw err;
  }
  return { sortBy: template, labelColumns, showLabels, fieldSelector: single(flags["field-selector"], "field-selector", command) || undefined };
}

/** Whether a human view needs the served objects (sorting reads the served JSON). */
export function needsRaw(print: PrintOptions): boolean {
  return print.sortBy !== undefined;
}
