// kubectl's borderless table: UPPER-CASE headers, columns separated by three spaces,
// the last column not padded. Built on cli-table3 with every border character blanked.
import Table from "cli-table3";

export interface TableOptions {
  readonly noHeaders?: boolean;
  /** Left indent for every line (used inside detail views). */
  readonly indent?: string;
}

const NO_BORDERS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "   ",
};

/** Visible width of a cell: colour escapes (added by us, never by the cluster) do not count. */
function visibleWidth(text: string): number {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/\u001b\[[0-9;]*m/g, "")].length;
}

export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const all = options.noHeaders ? rows : [headers, ...rows];
  if (all.length === 0) return "";
  const table = new Table({
    chars: NO_BORDERS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
    wordWrap: false,
  });
  for (const row of all) table.push(row.map((c) => c));
  const indent = options.indent ?? "";
  // cli-table3 pads the last column too; kubectl does not. Trim trailing blanks per line.
  return (
    table
      .toString()
      .split("\n")
      .map((line) => indent + line.replace(/\s+$/u, ""))
      .join("\n") + "\n"
  );
}

export { visibleWidth };
