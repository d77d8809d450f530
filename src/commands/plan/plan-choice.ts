// Which plan `plan` reads: the schema's current or applied record, or a retained plan by name,
// loaded and verified with every check either way.
import { loadNamedPlan, loadPlanSchema, loadVerifiedPlan, type PlanReader, type VerifiedPlan } from "../../plan/load.ts";
import type { PlanSelection } from "../../plan/select.ts";
import type { CheckLog } from "../../plan/verify.ts";

/** The schema's current or applied record, or a retained plan a person named. */
export type PlanChoice = { readonly kind: PlanSelection } | { readonly kind: "named"; readonly plan: string };

/** What the --verify verdict calls the plan: "current plan", "applied plan", or "stored plan NAME". */
export function selectionLabel(choice: PlanChoice): string {
  return choice.kind === "named" ? `stored plan ${choice.plan}` : `${choice.kind} plan`;
}

/** Loads and verifies the chosen plan: the schema's record, or a retained plan by name. */
export async function loadChosen(reader: PlanReader, namespace: string, schemaName: string, choice: PlanChoice, log: CheckLog): Promise<VerifiedPlan> {
  if (choice.kind !== "named") return loadVerifiedPlan(reader, namespace, schemaName, choice.kind, { log });
  const schema = await loadPlanSchema(reader, namespace, schemaName, log);
  return loadNamedPlan(reader, schema, choice.plan, { log });
}
