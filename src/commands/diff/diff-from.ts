// The default `--from` of `diff`: the plan of the newest approval bound to this schema that is
// stale or consumed (what a person approved before), else the applied plan. Reads: one list of
// the namespace's approvals (approvals carry no schema label to select on).
import { deriveSchemaApprovalState, newestUsedApproval } from "../../approval/state.ts";
import type { ClusterReader } from "../../kube/types.ts";
import type { PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { DiffSource } from "../shared/diff-view.ts";
import { notShownWarnings } from "../shared/tolerance.ts";

export interface ChosenFrom {
  readonly source: DiffSource;
  /** Said in the header: how the side was chosen. */
  readonly why: string;
  /** The approval as listed (not read again). */
  readonly approval?: PtahSchemaApproval;
  /** One line per approval that does not fit the model (left out of the choice). */
  readonly warnings: string;
}

export async function chooseFromApproval(reader: ClusterReader, schema: PtahSchema): Promise<ChosenFrom> {
  const listed = await reader.list("PtahSchemaApproval", { namespace: schema.metadata.namespace ?? "" });
  const { items } = listed;
  const warnings = notShownWarnings([listed]);
  const newest = newestUsedApproval(
    schema,
    items.map((i) => i.object as PtahSchemaApproval),
  );
  if (newest) {
    const d = deriveSchemaApprovalState(newest, schema);
    const state = d.state === "Consumed" && d.alsoStale ? "consumed, stale" : d.state.toLowerCase();
    return {
      source: { kind: "approval", name: newest.metadata.name },
      approval: newest,
      why: `approval ${sanitize(newest.metadata.name)} (${state}) is the newest approval of this schema that is stale or consumed`,
      warnings,
    };
  }
  return { source: { kind: "applied" }, why: "no approval of this schema is stale or consumed, so the applied plan", warnings };
}
