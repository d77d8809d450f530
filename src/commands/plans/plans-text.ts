// `plans`' views: the table (one row per stored plan, every reference that pins it named) and
// the rows as data for -o json|yaml. Which object pins a plan, and through which field, is what
// a person reads before deleting anything, so the PINNED BY cell is never cut.
import type { DanglingPin, PlanPin, StoredPlan } from "../../plan/pins.ts";
import { formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { shortFingerprint } from "../shared/ledger-text.ts";

export interface PlansRenderOptions {
  readonly noHeaders: boolean;
  readonly allNamespaces: boolean;
  /** -o wide: each plan's ROW VALUES cell, keyed by planKey (the column is absent without it). */
  readonly rowValues?: ReadonlyMap<string, string>;
}

/** A stored plan's key among the rows: kind, namespace and name. */
export const planKey = (p: Pick<StoredPlan, "kind" | "namespace" | "name">): string => `${p.kind}/${p.namespace}/${p.name}`;

/** `ptahschemaapproval/storefront-v1 spec.planRef`; `(other UID)` when it names an earlier plan of that name. */
export function pinCell(pin: PlanPin, planUID?: string): string {
  const other = pin.uid && planUID && pin.uid !== planUID ? " (other UID)" : "";
  return `${pin.kind.toLowerCase()}/${pin.name} ${pin.field}${other}`;
}

const PROBLEM: Record<DanglingPin["problem"], string> = {
  missing: "names a plan that does not exist",
  replaced: "names a plan that was replaced (same name, another UID)",
  deleting: "names a plan that is being deleted",
};

/** The DANGLING PINS section: one line per pin that reaches no live plan. */
export function renderDangling(pins: readonly DanglingPin[]): string {
  if (pins.length === 0) return "";
  return `Dangling pins (${pins.length}):\n${danglingLines(pins)
    .map((l) => `  ${l}\n`)
    .join("")}`;
}

/** One phrase per dangling pin: `app/ptahschema/storefront status.plan names a plan that does not exist: ptahschemaplan/x`. */
export function danglingLines(pins: readonly DanglingPin[]): string[] {
  return pins.map((d) => `${sanitize(d.namespace)}/${sanitize(pinCell(d.pin))} ${PROBLEM[d.problem]}: ${d.family.toLowerCase()}/${sanitize(d.plan)}`);
}

function ownerCell(p: StoredPlan): string {
  return p.kind === "PtahMigrationPlan" ? `migration/${p.owner}` : p.owner;
}

export function renderPlansTable(plans: readonly StoredPlan[], o: PlansRenderOptions): string {
  const mixed = new Set(plans.map((p) => p.kind)).size > 1;
  const headers = [...(o.allNamespaces ? ["NAMESPACE"] : []), "NAME", "SCHEMA", "FINGERPRINT", "STATEMENTS", "CREATED", "PINNED BY", ...(o.rowValues ? ["ROW VALUES"] : [])];
  const rows = plans.map((p) => [
    ...(o.allNamespaces ? [sanitize(p.namespace)] : []),
    (mixed ? `${p.kind.toLowerCase()}/` : "") + sanitize(p.name),
    sanitize(ownerCell(p) || "-"),
    sanitize(shortFingerprint(p.fingerprint) || "-"),
    p.statements === undefined ? "-" : String(p.statements),
    p.createdAt ? formatTimestamp(p.createdAt) : "-",
    p.pinnedBy.length === 0 ? "-" : sanitize(p.pinnedBy.map((pin) => pinCell(pin, p.uid)).join(", ")),
    ...(o.rowValues ? [sanitize(o.rowValues.get(planKey(p)) ?? "-")] : []),
  ]);
  return renderTable(headers, rows, { noHeaders: o.noHeaders });
}

/** -o json|yaml: the rows as data, in a kubectl-style List (they are views, not the served objects). */
export function plansDocument(plans: readonly StoredPlan[], dangling: readonly DanglingPin[] = []): Record<string, unknown> {
  const bare = ({ owner: _owner, ...pin }: PlanPin) => pin;
  return {
    apiVersion: "v1",
    kind: "List",
    items: plans.map((p) => ({ ...p, pinned: p.pinnedBy.length > 0, pinnedBy: p.pinnedBy.map(bare) })),
    // Beside the rows: pins that reach no live plan (the rows are plans, these have none).
    ...(dangling.length > 0 ? { danglingPins: dangling.map((d) => ({ ...d, pin: bare(d.pin) })) } : {}),
  };
}

/** -o name: `ptahschemaplan.operator.ptah.run/NAME`, as kubectl get -o name writes it (for kubectl delete). */
export function renderPlanNames(plans: readonly StoredPlan[]): string {
  return plans.map((p) => `${sanitize(`${p.kind.toLowerCase()}.operator.ptah.run/${p.name}`)}\n`).join("");
}
