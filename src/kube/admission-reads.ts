// The reads that tell how the operator's admission is configured and who holds a realm's lock,
// each a named GET the request guard allows and nothing broader (no watch, no other names):
// - the mutating webhook configuration `ptah-operator-admission` by name: its entries say whether
//   four-eyes is on (the two writer entries are installed exactly when it is), its annotations
//   name the coordination namespace;
// - the ValidatingAdmissionPolicies labelled as the apply-policy guard, and the bindings (a list:
//   a binding is found by the policy it names, not by a name of its own);
// - the Leases of one namespace (where the operator keeps every realm's lock);
// - the manager's Deployment by the name and namespace the admission configuration's annotations
//   give (doctor: is it Available?).
// Every string is sanitised here.
import { sanitize } from "../errors.ts";
import { okJson, type RequestDescription } from "./api-errors.ts";
import type { Transport } from "./http.ts";
import { APPROVAL_POLICY_LABEL } from "../model/api.ts";
import type { PolicySet, ServedBinding, ServedPolicy } from "../model/approval-policy.ts";

export type { PolicySet, ServedBinding, ServedPolicy };
import { ADMISSION_CONFIGURATION, APPLY_GUARD_SELECTOR, DEPLOYMENT_PATH, LEASE_PATH, POLICY_PATH, WEBHOOK_PATH } from "./request-guard.ts";

export interface AdmissionConfiguration {
  /** false: no configuration by that name (the operator is not installed, or under another name). */
  readonly found: boolean;
  readonly name: string;
  readonly webhookNames: readonly string[];
  readonly annotations: Readonly<Record<string, string>>;
}

export interface ApplyGuardPolicy {
  readonly name: string;
  /** The groups the policy's variable lists (quoted names in a CEL list); [] when none is found. */
  readonly exemptGroups: readonly string[];
  /** The bindings that name this policy, with their validationActions. */
  readonly bindings: readonly { readonly name: string; readonly actions: readonly string[] }[];
}

export interface LeaseFacts {
  readonly name: string;
  readonly holderIdentity: string;
  readonly renewTime: string | undefined;
  readonly leaseDurationSeconds: number | undefined;
}

export interface DeploymentFacts {
  readonly namespace: string;
  readonly name: string;
  /** false: no Deployment by that name. */
  readonly found: boolean;
  /** Its Available condition; undefined when it reports none. */
  readonly available: { readonly status: string; readonly reason: string | undefined; readonly message: string | undefined } | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? sanitize(v) : undefined);

/** A condition of an object's status by type: status, reason and message, sanitised. */
export function conditionOf(status: unknown, type: string): DeploymentFacts["available"] {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  const c = conditions.find((x): x is Record<string, unknown> => typeof x === "object" && x !== null && (x as { type?: unknown }).type === type);
  return c ? { status: str(c.status) ?? "Unknown", reason: str(c.reason), message: str(c.message) } : undefined;
}

export async function getDeployment(transport: Transport, namespace: string, name: string): Promise<DeploymentFacts> {
  const d: RequestDescription = { verb: "get", resource: "deployments.apps", namespace, name };
  const res = await transport.get(`${DEPLOYMENT_PATH}/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}`);
  const at = { namespace: sanitize(namespace), name: sanitize(name) };
  if (res.status === 404) return { ...at, found: false, available: undefined };
  const o = okJson(res, d) as { status?: unknown };
  return { ...at, found: true, available: conditionOf(o.status, "Available") };
}

/** Every page of a collection GET (limit/continue), each item handed to `take`. */
async function eachItem(transport: Transport, path: string, params: Record<string, string>, d: RequestDescription, take: (item: Record<string, unknown>) => void): Promise<void> {
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ ...params, limit: "500", ...(token ? { continue: token } : {}) });
    const page = okJson(await transport.get(`${path}?${q.toString()}`), d) as { items?: Record<string, unknown>[]; metadata?: { continue?: string } };
    for (const item of page.items ?? []) if (item && typeof item === "object") take(item);
    token = page.metadata?.continue || undefined;
  } while (token);
}

export async function getAdmissionConfiguration(transport: Transport): Promise<AdmissionConfiguration> {
  const name = ADMISSION_CONFIGURATION;
  const d: RequestDescription = { verb: "get", resource: "mutatingwebhookconfigurations.admissionregistration.k8s.io", namespace: undefined, name };
  const res = await transport.get(`${WEBHOOK_PATH}/mutatingwebhookconfigurations/${name}`);
  if (res.status === 404) return { found: false, name, webhookNames: [], annotations: {} };
  const o = okJson(res, d) as { metadata?: { annotations?: Record<string, unknown> }; webhooks?: { name?: unknown }[] };
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.metadata?.annotations ?? {})) if (typeof v === "string") annotations[sanitize(k)] = sanitize(v);
  return { found: true, name, webhookNames: (o.webhooks ?? []).map((w) => str(w.name) ?? "?"), annotations };
}

/** The quoted names of a CEL list literal (`['a', "b"]`); [] for anything else. */
export function celStringList(expression: string): string[] {
  const body = /^\s*\[(.*)\]\s*$/su.exec(expression)?.[1];
  if (body === undefined) return [];
  return [...body.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/gu)].map((m) => sanitize(m[1] ?? m[2] ?? ""));
}

export async function listApplyGuards(transport: Transport): Promise<ApplyGuardPolicy[]> {
  const policies: { name: string; exemptGroups: string[] }[] = [];
  const pd: RequestDescription = { verb: "list", resource: "validatingadmissionpolicies.admissionregistration.k8s.io", namespace: undefined };
  await eachItem(transport, `${POLICY_PATH}/validatingadmissionpolicies`, { labelSelector: APPLY_GUARD_SELECTOR }, pd, (p) => {
    const name = str((p.metadata as { name?: unknown } | undefined)?.name) ?? "?";
    const variables = ((p.spec as { variables?: { name?: unknown; expression?: unknown }[] } | undefined)?.variables ?? []).filter((v) => typeof v.expression === "string");
    // The exempt groups are the variable named for them; failing that, the first list of names.
    const named = variables.find((v) => typeof v.name === "string" && /exempt/iu.test(v.name));
    const lists = (named ? [named] : variables).map((v) => celStringList(v.expression as string)).filter((l) => l.length > 0);
    policies.push({ name, exemptGroups: lists[0] ?? [] });
  });
  if (policies.length === 0) return [];
  const bindings: { name: string; policy: string; actions: string[] }[] = [];
  const bd: RequestDescription = { verb: "list", resource: "validatingadmissionpolicybindings.admissionregistration.k8s.io", namespace: undefined };
  await eachItem(transport, `${POLICY_PATH}/validatingadmissionpolicybindings`, {}, bd, (b) => {
    const spec = (b.spec ?? {}) as { policyName?: unknown; validationActions?: unknown };
    const actions = Array.isArray(spec.validationActions) ? spec.validationActions.filter((a): a is string => typeof a === "string").map(sanitize) : [];
    bindings.push({ name: str((b.metadata as { name?: unknown } | undefined)?.name) ?? "?", policy: str(spec.policyName) ?? "", actions });
  });
  return policies.map((p) => ({ ...p, bindings: bindings.filter((b) => b.policy === p.name).map(({ name, actions }) => ({ name, actions })) }));
}

const metaOf = (o: Record<string, unknown>) => (o.metadata ?? {}) as { name?: unknown; labels?: Record<string, unknown> };
const specOf = (o: Record<string, unknown>): Record<string, unknown> => (o.spec && typeof o.spec === "object" && !Array.isArray(o.spec) ? (o.spec as Record<string, unknown>) : {});

/**
 * The approval policies (the ValidatingAdmissionPolicies labelled APPROVAL_POLICY_LABEL, listed by
 * that label alone) and the bindings that name one of them or carry the label (every binding is
 * listed: a binding an administrator wrote for our policy need not be labelled). Names are
 * sanitised; specs are kept as served, the CEL text the API server evaluates included.
 */
export async function listApprovalPolicies(transport: Transport): Promise<PolicySet> {
  const policies: ServedPolicy[] = [];
  const pd: RequestDescription = { verb: "list", resource: "validatingadmissionpolicies.admissionregistration.k8s.io", namespace: undefined };
  await eachItem(transport, `${POLICY_PATH}/validatingadmissionpolicies`, { labelSelector: APPROVAL_POLICY_LABEL }, pd, (p) => {
    const meta = metaOf(p);
    policies.push({ name: str(meta.name) ?? "?", part: str(meta.labels?.[APPROVAL_POLICY_LABEL]) ?? "", spec: specOf(p) });
  });
  const bindings: ServedBinding[] = [];
  const bd: RequestDescription = { verb: "list", resource: "validatingadmissionpolicybindings.admissionregistration.k8s.io", namespace: undefined };
  await eachItem(transport, `${POLICY_PATH}/validatingadmissionpolicybindings`, {}, bd, (b) => {
    const meta = metaOf(b);
    const spec = specOf(b);
    const policyName = str(spec.policyName) ?? "";
    const labelled = typeof meta.labels?.[APPROVAL_POLICY_LABEL] === "string";
    if (labelled || policies.some((p) => p.name === policyName)) bindings.push({ name: str(meta.name) ?? "?", policyName, labelled, spec });
  });
  return { policies, bindings };
}

export async function listLeases(transport: Transport, namespace: string): Promise<LeaseFacts[]> {
  const d: RequestDescription = { verb: "list", resource: "leases.coordination.k8s.io", namespace };
  const out: LeaseFacts[] = [];
  await eachItem(transport, `${LEASE_PATH}/namespaces/${encodeURIComponent(namespace)}/leases`, {}, d, (l) => {
    const spec = (l.spec ?? {}) as { holderIdentity?: unknown; renewTime?: unknown; leaseDurationSeconds?: unknown };
    out.push({
      name: str((l.metadata as { name?: unknown } | undefined)?.name) ?? "?",
      holderIdentity: str(spec.holderIdentity) ?? "",
      renewTime: str(spec.renewTime),
      leaseDurationSeconds: typeof spec.leaseDurationSeconds === "number" ? spec.leaseDurationSeconds : undefined,
    });
  });
  return out;
}
