// The approval policies as the cluster holds them: the ValidatingAdmissionPolicies labelled
// POLICY_LABEL and every binding (a binding is found by the policy it names), read as served. The
// CEL text is kept exactly as served, because it is what the API server evaluates; names are
// sanitised where they are printed, never here. Which binding applies to a request is decided here
// by Kubernetes' matching rules (resource rules, namespace selectors, the binding's actions), so
// the evaluator (policy-judge.ts) sees only the pairs the API server would evaluate.

import type { PolicySet, ServedBinding, ServedPolicy } from "../model/approval-policy.ts";

export type { PolicySet, ServedBinding, ServedPolicy } from "../model/approval-policy.ts";

const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

/**
 * Whether `labels` satisfy `selector` (an empty selector matches everything, an absent one too);
 * undefined when the labels are not known and the selector asks for any.
 */
export function selects(selector: unknown, labels: Readonly<Record<string, string>> | undefined): boolean | undefined {
  const s = record(selector);
  if (!s) return true;
  const pairs = Object.entries(record(s.matchLabels) ?? {});
  const exprs = expressionsOf(s);
  if (pairs.length === 0 && exprs.length === 0) return true;
  if (!labels) return undefined;
  for (const [k, v] of pairs) if (labels[k] !== v) return false;
  for (const e of exprs) {
    const key = typeof e.key === "string" ? e.key : "";
    const values = strings(e.values);
    const has = Object.hasOwn(labels, key);
    const ok =
      e.operator === "In"
        ? has && values.includes(labels[key]!)
        : e.operator === "NotIn"
          ? !has || !values.includes(labels[key]!)
          : e.operator === "Exists"
            ? has
            : e.operator === "DoesNotExist"
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

/** A selector's matchExpressions, each a record (anything else is left out). */
function expressionsOf(s: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(s.matchExpressions) ? s.matchExpressions.map(record).filter((e) => e !== undefined) : [];
}

/** The request's resource as admission matches it. */
export interface RequestResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  readonly namespace: string;
  /** The namespace's labels, when the reader may know them (its name label is always known). */
  readonly namespaceLabels: Readonly<Record<string, string>> | undefined;
}

const matchesList = (list: readonly string[], value: string) => list.includes("*") || list.includes(value);

/** Whether a policy's or binding's `matchResources`/`matchConstraints` covers the request. */
function covers(match: unknown, req: RequestResource, needRules: boolean): boolean | undefined {
  const m = record(match);
  if (!m) return !needRules;
  const rules = Array.isArray(m.resourceRules) ? m.resourceRules.map(record).filter((r) => r !== undefined) : [];
  if (needRules || rules.length > 0) {
    const hit = rules.some(
      (r) =>
        matchesList(strings(r.apiGroups), req.group) &&
        matchesList(strings(r.apiVersions), req.version) &&
        matchesList(strings(r.operations), req.operation) &&
        matchesList(strings(r.resources), req.resource) &&
        (r.scope === undefined || r.scope === "*" || r.scope === "Namespaced"),
    );
    if (!hit) return false;
  }
  const excluded = Array.isArray(m.excludeResourceRules) ? m.excludeResourceRules.map(record).filter((r) => r !== undefined) : [];
  if (excluded.some((r) => matchesList(strings(r.apiGroups), req.group) && matchesList(strings(r.resources), req.resource) && matchesList(strings(r.operations), req.operation))) {
    return false;
  }
  // An object selector on a create reads the new object's labels; the approvals `approve` prints carry none we choose.
  const labels = { "kubernetes.io/metadata.name": req.namespace, ...(req.namespaceLabels ?? {}) };
  return selects(m.namespaceSelector, req.namespaceLabels ? labels : onlyName(m.namespaceSelector, labels));
}

/** With the namespace's other labels unknown, a selector on its name alone can still be decided. */
function onlyName(selector: unknown, labels: Record<string, string>): Record<string, string> | undefined {
  const s = record(selector) ?? {};
  const keys = [...Object.keys(record(s.matchLabels) ?? {}), ...expressionsOf(s).map((e) => e.key)];
  return keys.every((k) => k === "kubernetes.io/metadata.name") ? labels : undefined;
}

/** A policy with a binding that applies to the request, and the binding's Deny/Warn/Audit actions. */
export interface Applicable {
  readonly policy: ServedPolicy;
  readonly binding: ServedBinding;
  readonly actions: readonly string[];
}

/** The pairs the API server evaluates for `req`; `unknown` names a binding whose match could not be decided. */
export function applicable(set: PolicySet, req: RequestResource): { pairs: Applicable[]; unknown: string[] } {
  const pairs: Applicable[] = [];
  const unknown: string[] = [];
  for (const binding of set.bindings) {
    const policy = set.policies.find((p) => p.name === binding.policyName);
    if (!policy) continue;
    const byPolicy = covers(policy.spec.matchConstraints, req, true);
    const byBinding = covers(binding.spec.matchResources, req, false);
    if (byPolicy === false || byBinding === false) continue;
    if (byPolicy === undefined || byBinding === undefined) {
      unknown.push(binding.name);
      continue;
    }
    pairs.push({ policy, binding, actions: strings(binding.spec.validationActions) });
  }
  return { pairs, unknown };
}

/** Policies no binding names, and labelled bindings whose policy is absent (doctor warns of both). */
export function unpaired(set: PolicySet): { unbound: string[]; orphaned: string[] } {
  return {
    unbound: set.policies.filter((p) => !set.bindings.some((b) => b.policyName === p.name)).map((p) => p.name),
    orphaned: set.bindings.filter((b) => b.labelled && !set.policies.some((p) => p.name === b.policyName)).map((b) => b.name),
  };
}
