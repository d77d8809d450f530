// `inbox --locks`: the LOCKS column, the strongest lock each waiting schema plan takes and what it
// blocks. Each plan is read (get plan, get each chunk) and verified as `plan` verifies it, then
// analysed: a cost per waiting schema, so only when asked for (docs/decisions.md). A plan that
// cannot be read or verified is a `<not verified>` cell and one warning line; the rest are shown.
// The plan read for LOCKS also says whether its statements carry row values (ROW VALUES).
import { loadRecordedPlan } from "../../plan/load.ts";
import { selectPlanRecord } from "../../plan/select.ts";
import { sanitize } from "../../errors.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import { analysePlan, lockCell } from "../shared/lock-impact.ts";
import { eachBounded, NOT_VERIFIED, rowValuesCell } from "../shared/plan-reads.ts";
import type { InboxItem } from "./inbox-text.ts";

const key = (namespace: string, name: string): string => `${namespace}/${name}`;

/** A waiting schema's cells from its verified plan. */
export interface PlanCells {
  readonly locks: string;
  readonly rowValues: string;
}

/** Each waiting schema's cells (keyed namespace/name), and the warning lines of the ones not shown. */
export async function lockCells(reader: ClusterReader, schemas: readonly PtahSchema[], items: readonly InboxItem[]): Promise<{ cells: Map<string, PlanCells>; warnings: string }> {
  const byKey = new Map(schemas.map((s) => [key(s.metadata.namespace ?? "", s.metadata.name), s]));
  const wanted = items.filter((i) => i.kind === "PtahSchema" && byKey.get(key(i.namespace, i.name))?.status.plan !== undefined);
  const outcomes = await eachBounded(wanted, async (item) => {
    const schema = byKey.get(key(item.namespace, item.name))!;
    const record = selectPlanRecord(schema, item.namespace, "current");
    const verified = await loadRecordedPlan(reader, { object: schema, raw: {} }, record);
    return { locks: lockCell(await analysePlan(verified)), rowValues: rowValuesCell(verified.document) };
  });
  const cells = new Map<string, PlanCells>();
  let warnings = "";
  wanted.forEach((item, i) => {
    const k = key(item.namespace, item.name);
    const o = outcomes[i]!;
    cells.set(k, o.ok ? o.value : { locks: NOT_VERIFIED, rowValues: NOT_VERIFIED });
    if (!o.ok) warnings += `Warning: ptahschema ${sanitize(k)}: lock impact not shown: ${sanitize(o.why)}\n`;
  });
  // Warnings in the inbox's order, whatever order the reads finished in.
  return { cells, warnings };
}

export { key as lockKey };
