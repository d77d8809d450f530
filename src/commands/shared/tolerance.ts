// Tolerance, one rule for every list and watch (docs/output.md, "Tolerance"), and one word for it:
// what is tolerated is "not shown". An object that does not fit the model is not shown, with one
// warning line naming it and the field, the rest is shown, exit 0; machine output of the served
// objects still prints every one; a section whose read the caller may not make is not shown, named
// in place, instead of failing the command. (RejectedItem, "unprinted", Secondary and its gap are
// this module's older names for the same thing.)
import { sanitize } from "../../render/sanitize.ts";
import { ReadError } from "../../errors.ts";
import type { ListResult, RejectedItem } from "../../kube/types.ts";

/**
 * The served objects in the server's order, the ones that did not fit the model included, but
 * not those that cannot be printed as served (RejectedItem.unprintable): unprintedWarnings names them.
 */
export function servedObjects(list: ListResult<unknown>): Record<string, unknown>[] {
  const out = list.items.map((i) => i.raw);
  for (const r of list.rejected) out.splice(r.index, 0, r.raw);
  const left = new Set(list.rejected.filter((r) => r.unprintable).map((r) => r.raw));
  return left.size === 0 ? out : out.filter((o) => !left.has(o));
}

/** One `Warning:` line per object machine output leaves out (RejectedItem.unprintable). */
export function unprintedWarnings(lists: readonly Pick<ListResult<unknown>, "rejected">[]): string {
  let out = "";
  for (const list of lists) for (const r of list.rejected) if (r.unprintable) out += rejectedWarning(r);
  return out;
}

/** The `Warning:` line for one object left out (one line, whatever the names hold). */
export function rejectedWarning(r: RejectedItem): string {
  return `Warning: not shown: ${sanitize(r.problem)}\n`;
}

/** One `Warning:` line per object left out of a human view. */
export function rejectedWarnings(lists: readonly Pick<ListResult<unknown>, "rejected">[]): string {
  let out = "";
  for (const list of lists) for (const r of list.rejected) out += rejectedWarning(r);
  return out;
}

/** A secondary read that may be forbidden: its value, or why it is missing (one line). */
export type Secondary<T> = { readonly value: T; readonly gap?: undefined } | { readonly value?: undefined; readonly gap: string };

/**
 * Reads something a view shows beside its primary object. 403 Forbidden is not a failure of the
 * command: the view prints what was read and names the missing section and permission in place.
 */
export async function readSecondary<T>(read: Promise<T>): Promise<Secondary<T>> {
  try {
    return { value: await read };
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403) return { gap: err.message };
    throw err;
  }
}

/** The stderr line for a section left out because its read was forbidden. */
export function gapWarning(section: string, gap: string): string {
  return `Warning: ${section} not shown: ${gap}\n`;
}
