// Upstream's `kubectl ptah schema` view: labels padded to 18 columns,
// drift summary, reference-data line, True/Ready conditions, applied record, plan block.
// The view model; its text and JSON are commands/schema/schema-text.ts.
import { rowChangeOf } from "../../model/drift-rows.ts";
import type { PtahSchema } from "../../model/kinds.ts";

/**
 * The view, with upstream's JSON keys in upstream's order. Keys that are
 * optional here are left out of the JSON when empty; `createdAt`/`completedAt` are written as
 * `null` when the record has no time, as Go writes a zero metav1.Time.
 */
export interface SchemaView {
  namespace: string;
  schema: string;
  phase?: string;
  suspended?: boolean;
  source?: { reference?: string; digest?: string; verified?: boolean };
  observation?: {
    observedAt?: string;
    drift: boolean;
    highestSeverity?: string;
    findingCount?: number;
    findingsTruncated?: boolean;
    findings?: { category: string; count: number; severity: string }[];
    referenceData?: { inserts: number; updates: number; deletes: number };
  };
  plan?: {
    name: string;
    fingerprint?: string;
    statementCount: number;
    destructive?: boolean;
    privilegeChanges?: string[];
    createdAt: string | null;
    approved: boolean;
    approvedAt?: string;
    approvalName?: string;
    approvalApprover?: string;
  };
  applied?: { planName?: string; planFingerprint: string; ptahVersion?: string; completedAt: string | null };
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
}

/**
 * Drops keys whose value is undefined, "", false or an empty list (Go's omitempty), except the
 * `always` keys, which upstream writes even when zero or empty. Key order is kept.
 */
function omitEmpty<T extends Record<string, unknown>>(o: T, always: readonly (keyof T)[] = []): T {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (always.includes(k)) continue;
    if (v === undefined || v === "" || v === false || (Array.isArray(v) && v.length === 0)) delete o[k];
  }
  return o;
}

/** Go's strings.Compare: by code unit, not by locale. */
const byCategory = (a: { category: string }, b: { category: string }): number => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0);

function observationOf(t: PtahSchema["status"]["target"]): SchemaView["observation"] {
  const findings = (t?.driftFindings ?? []).map((f) => ({ category: f.category, count: f.count ?? 0, severity: f.severity ?? "" })).sort(byCategory);
  if (!t?.lastObservedAt && findings.length === 0) return undefined;
  let referenceData: { inserts: number; updates: number; deletes: number } | undefined;
  for (const f of findings) {
    const change = rowChangeOf(f.category);
    if (change) (referenceData ??= { inserts: 0, updates: 0, deletes: 0 })[`${change}s`] = f.count;
  }
  // Drift is the highest severity being set, not the findings: grant drift has no category.
  const drift = Boolean(t?.highestDriftSeverity);
  return omitEmpty(
    {
      observedAt: t?.lastObservedAt,
      drift,
      highestSeverity: t?.highestDriftSeverity,
      findingCount: t?.driftFindingCount || undefined,
      findingsTruncated: t?.driftFindingsTruncated,
      findings,
      referenceData,
    },
    ["drift"],
  );
}

export function buildSchemaView(schema: PtahSchema): SchemaView {
  const s = schema.status;
  const view: SchemaView = { namespace: schema.metadata.namespace ?? "", schema: schema.metadata.name };
  if (s.phase) view.phase = s.phase;
  if (schema.spec.suspend) view.suspended = true;
  if (s.source?.resolvedReference || s.source?.digest) {
    view.source = omitEmpty({ reference: s.source.resolvedReference, digest: s.source.digest, verified: s.source.verified });
  }
  const observation = observationOf(s.target);
  if (observation) view.observation = observation;
  const p = s.plan;
  if (p) {
    const approval = p.approval;
    view.plan = omitEmpty(
      {
        name: p.name ?? "",
        fingerprint: p.fingerprint,
        statementCount: p.statementCount ?? 0,
        destructive: p.destructive,
        privilegeChanges: p.privilegeChanges,
        createdAt: p.createdAt || null,
        approved: approval !== undefined,
        approvedAt: approval?.approvedAt,
        approvalName: approval?.name,
        approvalApprover: approval?.approver?.username,
      },
      ["name", "statementCount", "createdAt", "approved"],
    );
  }
  const a = s.applied;
  if (a) {
    view.applied = omitEmpty({ planName: a.planRef?.name, planFingerprint: a.planFingerprint ?? "", ptahVersion: a.ptahVersion, completedAt: a.completedAt || null }, [
      "planFingerprint",
      "completedAt",
    ]);
  }
  if (s.conditions.length > 0) {
    view.conditions = s.conditions.map((c) => omitEmpty({ type: c.type, status: c.status, reason: c.reason, message: c.message }, ["type", "status"]));
  }
  return view;
}
