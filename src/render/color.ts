// Colour behind a flag. Colour only ever repeats what the words already say.
import { sanitize } from "./sanitize.ts";

export type Color = "green" | "yellow" | "red" | "gray" | "bold" | "cyan";

const CODES: Record<Color, [number, number]> = {
  green: [32, 39],
  yellow: [33, 39],
  red: [31, 39],
  gray: [90, 39],
  cyan: [36, 39],
  bold: [1, 22],
};

export function paint(color: Color, text: string, enabled: boolean): string {
  if (!enabled || text === "") return text;
  const [open, close] = CODES[color];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/** The colour that repeats a condition status or phase word. */
export function colorForStatus(word: string): Color | undefined {
  switch (word) {
    case "True":
    case "InSync":
    case "Consumed":
    case "Applied":
    case "UpToDate":
      return "green";
    case "False":
    case "Failed":
    case "Blocked":
    case "Stale":
    case "Partial":
      return "red";
    case "Unknown":
    case "AwaitingApproval":
    case "Pending":
    case "Reserved":
      return "yellow";
    default:
      return undefined;
  }
}

/** A status, phase or state word from the cluster: sanitised, and coloured when it has a colour. */
export function paintWord(text: string, enabled: boolean): string {
  const c = colorForStatus(text);
  return c ? paint(c, sanitize(text), enabled) : sanitize(text);
}
