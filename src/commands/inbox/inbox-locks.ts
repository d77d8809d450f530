// `inbox --locks`: the LOCKS column, the strongest lock each waiting schema plan takes and what it
// blocks. Each plan is read (get plan, get each chunk) and verified as `plan` verifies it, then
// analysed: a cost per waiting schema, so only when asked for (docs/decisions.md). A plan that
// cannot be read or verified is a `<not verified>` cell and one warning line; the rest are shown.
import { loadRecordedPlan } from "../../plan/load.ts";
import { selectPlanRecord } from "../../plan/select.ts";
import { sanitize } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import { analysePlan, lockCell } from "../shared/lock-impact.ts";
import type { InboxItem } from "./inbox-text.ts";

/** Plans read at once: each is a get of the plan and of every chunk. */
const PLAN_CONCURRENCY = 4;

const key = (namespace: string, name: string): string => `${namespace}/${name}`;

/** Each waiting schema's LOCKS cell (keyed namespace/name), and the warning lines of the ones not shown. */
export async function lockCells(reader: ClusterReader, schemas: readonly PtahSchema[], items: readonly InboxItem[]): Promise<{ cells: Map<string, string>; warnings: string }> {
  const byKey = new Map(schemas.map((s) => [key(s.metadata.namespace ?? "", s.metadata.name), s]));
  const wanted = items.filter((i) => i.kind === "PtahSchema" && byKey.get(key(i.namespace, i.name))?.status.plan !== undefined);
  const cells = new Map<string, string>();
  const warned = new Map<string, string>();
  const queue = [...wanted];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const k = key(item.namespace, item.name);
      const schema = byKey.get(k)!;
      try {
        const record = selectPlanRecord(schema, item.namespace, "current");
        const verified = await loadRecordedPlan(reader, { object: schema, raw: {} }, record);
        cells.set(k, lockCell(await analysePlan(verified)));
      } catch (err) {
        cells.set(k, "<not verified>");
        warned.set(k, `Warning: ptahschema ${sanitize(k)}: lock impact not shown: ${sanitize(err instanceof Error ? err.message : String(err))}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PLAN_CONCURRENCY, queue.length) }, worker));
  // Warnings in the inbox's order, whatever order the reads finished in.
  return { cells, warnings: wanted.map((i) => warned.get(key(i.namespace, i.name)) ?? "").join("") };
}

export { key as lockKey };
