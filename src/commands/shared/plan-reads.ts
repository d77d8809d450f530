// Many stored plans read and verified at once, as `plan` verifies each (get the plan, get every
// chunk, every check of plan/load.ts): a bounded number at a time, each failure kept as its
// message so a list shows the rest (`inbox --locks`, `plans -o wide`). And the ROW VALUES cell a
// verified document gives: a declarative-data plan's statements carry the rows' values.
import { rowValueTables, type PlanDocument } from "../../plan/document.ts";

/** Plans read at once: each is a get of the plan and of every chunk. */
export const PLAN_CONCURRENCY = 4;

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

/** Each item's read, at most `limit` at a time, in the items' order whatever order they finished in. */
export async function eachBounded<I, T>(items: readonly I[], read: (item: I) => Promise<T>, limit = PLAN_CONCURRENCY): Promise<Outcome<T>[]> {
  const out: Outcome<T>[] = new Array<Outcome<T>>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        out[i] = { ok: true, value: await read(items[i]!) };
      } catch (err) {
        out[i] = { ok: false, why: err instanceof Error ? err.message : String(err) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The cell of a plan read and verified: `no`, or `yes: ` and the tables whose rows its statements carry. */
export function rowValuesCell(doc: Pick<PlanDocument, "managedRows">): string {
  const tables = rowValueTables(doc);
  return tables.length === 0 ? "no" : `yes: ${tables.join(", ")}`;
}

/** What a plan that could not be read or verified shows in its cell (the reason is a warning line). */
export const NOT_VERIFIED = "<not verified>";
