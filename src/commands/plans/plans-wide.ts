// `plans -o wide`: the ROW VALUES column. The plan document lives only in the chunks, so each
// listed schema plan is read (get the plan, get every chunk) and verified as `plan` verifies it,
// against the schema it names: a cost per stored plan, so only when asked for (docs/decisions.md).
// A plan that cannot be read or verified is a `<not verified>` cell and one warning line; the rest
// are shown. A migration plan holds no SQL, so it carries no row values and is not read.
import { sanitize } from "../../errors.ts";
import { loadNamedPlan } from "../../plan/load.ts";
import type { StoredPlan } from "../../plan/pins.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import type { ClusterReader } from "../../kube/types.ts";
import { eachBounded, NOT_VERIFIED, rowValuesCell } from "../shared/plan-reads.ts";
import { planKey } from "./plans-text.ts";

/** Each listed plan's ROW VALUES cell (keyed by planKey), and the warning lines of the ones not verified, in the rows' order. */
export async function rowValueCells(
  reader: ClusterReader,
  plans: readonly StoredPlan[],
  schemas: readonly PtahSchema[],
): Promise<{ cells: Map<string, string>; warnings: string }> {
  const schemaOf = new Map(schemas.map((s) => [`${s.metadata.namespace ?? ""}/${s.metadata.name}`, s]));
  const read = plans.filter((p) => p.kind === "PtahSchemaPlan");
  const outcomes = await eachBounded(read, async (p) => {
    const schema = schemaOf.get(`${p.namespace}/${p.owner}`);
    // `plan` checks a plan against its schema (UID, owner); without it there is nothing to verify against.
    if (!schema) throw new Error(`its schema ${p.owner || "(none named)"} is not in the namespace, so it cannot be verified`);
    return rowValuesCell((await loadNamedPlan(reader, { object: schema, raw: {} }, p.name)).document);
  });
  const cells = new Map<string, string>(plans.filter((p) => p.kind === "PtahMigrationPlan").map((p) => [planKey(p), "-"]));
  let warnings = "";
  read.forEach((p, i) => {
    const o = outcomes[i]!;
    cells.set(planKey(p), o.ok ? o.value : NOT_VERIFIED);
    if (!o.ok) warnings += `Warning: ptahschemaplan ${sanitize(`${p.namespace}/${p.name}`)}: row values not shown: ${sanitize(o.why)}\n`;
  });
  return { cells, warnings };
}
