// A list's served items as the model reads them, and those the caller is not shown (docs/output.md,
// "Tolerance") as RejectedItems: one that does not fit the model, or one that is not an object.
import { TooDeepError, type ModelError } from "../errors.ts";
import { KINDS, parseListItem, type KindName, type ObjectOf, type Parsed } from "../model/parse.ts";
import { jsonKind } from "./list-page.ts";
import type { ListOptions, NotShownItem } from "./types.ts";

/** An object the model refused; one nested too deep is marked unprintable (printing it recurses as deep). */
export function notShownItem(err: ModelError, raw: Record<string, unknown>, index: number): NotShownItem {
  return err instanceof TooDeepError ? { raw, problem: err.message, index, unprintable: true } : { raw, problem: err.message, index };
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const NOTHING: Record<string, unknown> = Object.freeze({});

/**
 * An item of a list (or a watch event's object) that is not an object: never turned into one
 * (spreading a number into an object invents `{}`, a string its characters), but left out with
 * its warning; machine output has no object to print for it.
 */
export function notAnObject(what: string, value: unknown, index: number): NotShownItem {
  return { raw: NOTHING, problem: `${what} is ${jsonKind(value)}, not an object`, index, unprintable: true };
}

/** `raw` of list items whose caller asked not to keep the served JSON (ListOptions.keepRaw). */
const NOT_KEPT: Record<string, unknown> = Object.freeze({});

/**
 * A list's served items as they arrive, across its pages: `take` reads each one, and it lands in
 * `items` (fits the model) or `notShown` (with its position among all served items).
 */
export function listItems<K extends KindName>(kind: K, options: ListOptions, resource: string) {
  const items: Parsed<ObjectOf<K>>[] = [];
  const notShown: NotShownItem[] = [];
  const info = KINDS[kind];
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  // Equal strings of the list's items are held once while it is read (model/validators.ts).
  const pool = new Map<string, string>();
  let served = 0;
  const take = (raw: unknown): void => {
    const index = served++;
    if (!isJsonObject(raw)) {
      notShown.push(notAnObject(`item ${index} of the list of ${resource}`, raw, index));
      return;
    }
    if (options.select && !options.select(raw)) return;
    // List items omit kind/apiVersion; restore them so -o json/yaml print complete objects.
    const complete = { apiVersion, kind: info.kind, ...raw };
    const parsed = parseListItem(kind, complete, pool);
    if (parsed instanceof Error) notShown.push(notShownItem(parsed, complete, index));
    else items.push(options.keepRaw === false ? { object: parsed.object, raw: NOT_KEPT } : parsed);
  };
  return { items, notShown, take };
}
