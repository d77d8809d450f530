// Tolerance, one rule for every list and watch (docs/output.md, "Tolerance"), and one word for it:
// what is tolerated is "not shown". An object that does not fit the model is not shown, with one
// warning line naming it and the field, the rest is shown, exit 0; machine output of the served
// objects still prints every one; a section whose read the caller may not make is not shown, named
// in place, instead of failing the command. The code says "not shown" too: NotShownItem,
// notShownWarnings, MaybeShown's notShown.
import { sanitize } from "../../render/sanitize.ts";
import { ReadError } from "../../errors.ts";
import type { ListResult, NotShownItem } from "../../kube/types.ts";

/**
 * The served objects in the server's order, the ones that did not fit the model included, but
 * not those that cannot be printed as served (NotShownItem.unprintable): machineNotShownWarnings names them.
 */
export function servedObjects(list: ListResult<unknown>): Record<string, unknown>[] {
  const out = list.items.map((i) => i.raw);
  for (const r of list.notShown) out.splice(r.index, 0, r.raw);
  const left = new Set(list.notShown.filter((r) => r.unprintable).map((r) => r.raw));
  return left.size === 0 ? out : out.filter((o) => !left.has(o));
}

/** One `Warning:` line per object machine output leaves out (NotShownItem.unprintable). */
export function machineNotShownWarnings(lists: readonly Pick<ListResult<unknown>, "notShown">[]): string {
  let out = "";
  for (const list of lists) for (const r of list.notShown) if (r.unprintable) out += notShownWarning(r);
  return out;
}

/** The `Warning:` line for one object left out (one line, whatever the names hold). */
export function notShownWarning(r: NotShownItem): string {
  return `Warning: not shown: ${sanitize(r.problem)}\n`;
}

/** One `Warning:` line per object left out of a human view. */
export function notShownWarnings(lists: readonly Pick<ListResult<unknown>, "notShown">[]): string {
  let out = "";
  for (const list of lists) for (const r of list.notShown) out += notShownWarning(r);
  return out;
}

/** A secondary read that may be forbidden: its value, or why it is missing (one line). */
export type MaybeShown<T> = { readonly value: T; readonly notShown?: undefined } | { readonly value?: undefined; readonly notShown: string };

/**
 * Reads something a view shows beside its primary object. 403 Forbidden is not a failure of the
 * command: the view prints what was read and names the missing section and permission in place.
 */
export async function readMaybeShown<T>(read: Promise<T>): Promise<MaybeShown<T>> {
  try {
    return { value: await read };
  } catch (err) {
    if (err instanceof ReadError && err.httpStatus === 403) return { notShown: err.message };
    throw err;
  }
}

/** The stderr line for a section left out because its read was forbidden. */
export function sectionNotShownWarning(section: string, why: string): string {
  return `Warning: ${section} not shown: ${why}\n`;
}
