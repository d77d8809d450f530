// kubectl's borderless table: UPPER-CASE headers, columns separated by three spaces,
// the last column not padded. Built on cli-table3 with every border character blanked.
import Table from "cli-table3";
// cli-table3's own measure (colour codes stripped, string-width, widest line), so that the
// direct drawing below pads every cell exactly as cli-table3 would.
import tableUtils from "cli-table3/src/utils.js";

export interface TableOptions {
  readonly noHeaders?: boolean;
  /** Left indent for every line (used inside detail views). */
  readonly indent?: string;
  /**
   * A terminal's width: the last column's cells are cut to fit it, ending in `…` (the other
   * columns keep their width; at least 8 characters of the last column are always shown). 0 or
   * absent: no limit (piped output is never cut).
   */
  readonly maxWidth?: number;
}

/** Cuts the last cell of each row (not the header) so that the lines fit in `maxWidth`. */
function fitLastColumn(headers: readonly string[], rows: readonly (readonly string[])[], maxWidth: number, indent: string): (readonly string[])[] {
  const last = headers.length - 1;
  if (last < 0) return [...rows];
  let prefix = indent.length;
  for (let i = 0; i < last; i++) {
    let w = visibleWidth(headers[i]!);
    for (const row of rows) w = Math.max(w, visibleWidth(String(row[i] ?? "")));
    prefix += w + NO_BORDERS.middle.length;
  }
  const budget = Math.max(maxWidth - prefix, 8);
  return rows.map((row) => {
    const cell = String(row[last] ?? "");
    if (visibleWidth(cell) <= budget) return row;
    return [...row.slice(0, last), `${[...cell].slice(0, budget - 1).join("")}…`];
  });
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

// What cli-table3 strips before measuring a cell (utils.strlen), and the cells whose width is
// then simply their length: printable ASCII is one column per character in string-width too.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[(?:\d*;){0,5}\d*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

function cellWidth(cell: string): number | undefined {
  if (cell.includes("\n")) return undefined;
  const bare = cell.includes("\u001b") ? cell.replace(SGR, "") : cell;
  return PRINTABLE_ASCII.test(bare) ? bare.length : tableUtils.strlen(cell);
}

/**
 * The same lines cli-table3 draws with these options, in linear time: its layout checks every
 * earlier row for row spans, which is quadratic (seconds at 5,000 rows, minutes at 15,000), and
 * it truncates every cell wider than ten columns for a debug message one character at a time,
 * re-measuring each time, which is quadratic in a cell's length when it holds wide, combining or
 * zero-width characters (seconds for an 8,000-character cluster string, hours for a megabyte).
 * Undefined when a cell holds a line break or the rows are ragged: cli-table3 then draws them.
 */
function renderDirect(all: readonly (readonly string[])[], indent: string): string | undefined {
  const columns = all[0]!.length;
  if (columns === 0) return undefined;
  // cli-table3 never makes a column narrower than one character, even when every cell is empty.
  const widths = new Array<number>(columns).fill(1);
  const cellWidths: number[][] = [];
  for (const row of all) {
    if (row.length !== columns) return undefined;
    const ws: number[] = [];
    for (let i = 0; i < columns; i++) {
      const w = cellWidth(String(row[i]));
      if (w === undefined) return undefined;
      ws.push(w);
      if (w > widths[i]!) widths[i] = w;
    }
    cellWidths.push(ws);
  }
  const lines: string[] = [];
  for (let r = 0; r < all.length; r++) {
    const row = all[r]!;
    const ws = cellWidths[r]!;
    let line = "";
    for (let i = 0; i < columns; i++) {
      if (i > 0) line += NO_BORDERS.middle;
      line += String(row[i]) + " ".repeat(widths[i]! - ws[i]!);
    }
    lines.push(indent + line.trimEnd());
  }
  return lines.join("\n") + "\n";
}

export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  if (options.maxWidth) rows = fitLastColumn(headers, rows, options.maxWidth, options.indent ?? "");
  const all = options.noHeaders ? rows : [headers, ...rows];
  if (all.length === 0) return "";
  const indent = options.indent ?? "";
  const fast = renderDirect(all, indent);
  if (fast !== undefined) return fast;
  const table = new Table({
    chars: NO_BORDERS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
    wordWrap: false,
  });
  for (const row of all) table.push(row.map((c) => c));
  // cli-table3 pads the last column too; kubectl does not. Trim trailing blanks per line.
  return (
    table
      .toString()
      .split("\n")
      .map((line) => indent + line.trimEnd())
      .join("\n") + "\n"
  );
}

export { visibleWidth };
