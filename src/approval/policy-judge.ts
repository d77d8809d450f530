// The API server's verdict on an approval create, predicted from the policies it holds: for every
// binding that applies (policy-set.ts), its parameters are resolved as the binding says, the match
// conditions decide whether the policy speaks, the variables are evaluated lazily in order, and
// every validation is evaluated with the CEL text as served (policy-cel-env.ts). A validation that
// fails on a Deny binding refuses, with the message the API server sends; on a Warn binding it
// warns. test/e2e/policy-differential.e2e.test.ts compares this with a real API server's answers.
import type { Cel } from "./policy-cel-env.ts";
import { applicable, selects, type Applicable, type PolicySet, type RequestResource } from "./policy-set.ts";

export interface Requester {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
}

export interface AdmissionRequest extends RequestResource {
  readonly kind: string;
  /** The object as sent; the evaluator sets its creationTimestamp from `at`, as the API server does. */
  readonly object: Readonly<Record<string, unknown>>;
  readonly oldObject?: Readonly<Record<string, unknown>>;
  readonly user: Requester;
  /** The API server's clock at the request (second precision, as creationTimestamp keeps it). */
  readonly at: Date;
  /** Every object of the policies' parameter kind the binding may select from (the namespace's PtahSchemas). */
  readonly params: readonly Readonly<Record<string, unknown>>[];
}

export interface Denial {
  readonly policy: string;
  readonly binding: string;
  /** The text after "denied request: " in the API server's answer. */
  readonly message: string;
  /** The validation did not evaluate (the policy's failurePolicy Fail refuses then). */
  readonly error: boolean;
}

export type Verdict =
  | { readonly kind: "admitted"; readonly warnings: readonly string[]; readonly audits: readonly { readonly policy: string; readonly value: string }[] }
  | { readonly kind: "refused"; readonly denials: readonly Denial[]; readonly warnings: readonly string[] }
  | { readonly kind: "unknown"; readonly why: string };

/** The line the API server answers a denial with (kubectl prints it after "Error from server (Forbidden): …"). */
export function denialLine(d: Denial): string {
  return `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
}

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(rec) : []);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const errText = (e: unknown): string => (e instanceof Error ? e.message.split("\n")[0]! : String(e));

/** The creation time as the API server stores it: whole seconds, RFC 3339 in UTC. */
export function creationTimestamp(at: Date): string {
  return `${new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The parameters a binding selects, or "none" (with what the binding says to do then). */
function paramsOf(pair: Applicable, req: AdmissionRequest): (Record<string, unknown> | null)[] | "deny" {
  if (pair.policy.spec.paramKind === undefined) return [null];
  const ref = rec(pair.binding.spec.paramRef);
  const ns = str(ref.namespace) ?? req.namespace;
  const candidates = req.params.filter((p) => (str(rec(p.metadata).namespace) ?? req.namespace) === ns);
  const name = str(ref.name);
  const chosen = name !== undefined ? candidates.filter((p) => rec(p.metadata).name === name) : candidates.filter((p) => selects(ref.selector, labelsOf(p)) === true);
  if (chosen.length > 0) return chosen.map((p) => p as Record<string, unknown>);
  return ref.parameterNotFoundAction === "Deny" ? "deny" : [];
}

function labelsOf(o: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec(rec(o.metadata).labels))) if (typeof v === "string") out[k] = v;
  return out;
}

/** The CEL `request` of an admission review, for what the plugin's policies read. */
function requestOf(req: AdmissionRequest): Record<string, unknown> {
  const kind = { group: req.group, version: req.version, kind: req.kind };
  const resource = { group: req.group, version: req.version, resource: req.resource };
  return {
    kind,
    resource,
    requestKind: kind,
    requestResource: resource,
    subResource: "",
    name: str(rec(req.object.metadata).name) ?? "",
    namespace: req.namespace,
    operation: req.operation,
    userInfo: { username: req.user.username, uid: req.user.uid ?? "", groups: [...req.user.groups], extra: {} },
    dryRun: false,
  };
}

/** Lazily evaluated variables, in declaration order, each at most once (as Kubernetes does). */
function variablesOf(cel: Cel, specVariables: unknown, base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of list(specVariables)) {
    const name = str(v.name);
    const expression = str(v.expression);
    if (name === undefined || expression === undefined) continue;
    let done = false;
    let value: unknown;
    let failed: Error | undefined;
    Object.defineProperty(out, name, {
      enumerable: true,
      get() {
        if (!done) {
          done = true;
          try {
            value = cel.compile(expression)({ ...base, variables: out });
          } catch (e) {
            failed = e instanceof Error ? e : new Error(String(e));
          }
        }
        if (failed !== undefined) throw failed;
        return value;
      },
    });
  }
  return out;
}

/** What one policy says about one parameter: its denial messages (none: it admits) and audit values. */
function judgeOne(cel: Cel, pair: Applicable, context: Record<string, unknown>): { denials: { message: string; error: boolean }[]; audits: string[] } | "silent" {
  const spec = pair.policy.spec;
  const fail = spec.failurePolicy !== "Ignore";
  const denials: { message: string; error: boolean }[] = [];
  const ctx = { ...context, variables: variablesOf(cel, spec.variables, context) };
  for (const m of list(spec.matchConditions)) {
    try {
      if (cel.compile(str(m.expression) ?? "")(ctx) !== true) return "silent";
    } catch (e) {
      if (!fail) return "silent";
      return { denials: [{ message: `failed to evaluate match condition ${str(m.name) ?? ""}: ${errText(e)}`, error: true }], audits: [] };
    }
  }
  for (const v of list(spec.validations)) {
    const expression = str(v.expression) ?? "";
    let ok: unknown;
    try {
      ok = cel.compile(expression)(ctx);
    } catch (e) {
      if (fail) denials.push({ message: `expression '${expression}' resulted in error: ${errText(e)}`, error: true });
      continue;
    }
    if (ok === true) continue;
    denials.push({ message: messageOf(cel, v, expression, ctx), error: false });
  }
  const audits: string[] = [];
  if (denials.length === 0)
    for (const a of list(spec.auditAnnotations)) {
      try {
        const value = cel.compile(str(a.valueExpression) ?? "''")(ctx);
        if (typeof value === "string" && value !== "") audits.push(value);
      } catch {
        // An audit annotation that does not evaluate is left out by the API server too.
      }
    }
  return { denials, audits };
}

function messageOf(cel: Cel, v: Record<string, unknown>, expression: string, ctx: Record<string, unknown>): string {
  const me = str(v.messageExpression);
  if (me !== undefined) {
    try {
      const text = cel.compile(me)(ctx);
      if (typeof text === "string" && text.trim() !== "" && !text.includes("\n")) return text.trim();
    } catch {
      // Kubernetes falls back to `message`, then to the expression, when the message expression fails.
    }
  }
  return str(v.message) ?? `failed expression: ${expression}`;
}

/** The CEL context every evaluation of `req` shares (the object as the API server stamps it). */
function baseOf(req: AdmissionRequest): Record<string, unknown> {
  const object = { ...req.object, metadata: { ...rec(req.object.metadata), namespace: req.namespace, creationTimestamp: creationTimestamp(req.at) } };
  return { object, oldObject: req.oldObject ?? null, request: requestOf(req), namespaceObject: null };
}

/**
 * The variables a policy's CEL sees for `req` and one parameter, evaluated lazily: what
 * `status` and `inbox` read the endorsement count from (policy-state.ts).
 */
export function variablesFor(cel: Cel, pair: Applicable, req: AdmissionRequest, param: Readonly<Record<string, unknown>> | null): Record<string, unknown> {
  const context = { ...baseOf(req), params: param };
  return variablesOf(cel, pair.policy.spec.variables, context);
}

/** The verdict on `req` of every applicable policy in `set`. */
export function judge(cel: Cel, set: PolicySet, req: AdmissionRequest): Verdict {
  const { pairs, unknown } = applicable(set, req);
  if (unknown.length > 0) return { kind: "unknown", why: `whether binding ${unknown.join(", ")} applies to namespace ${req.namespace} depends on labels the plugin cannot read` };
  const base = baseOf(req);
  const denials: Denial[] = [];
  const warnings: string[] = [];
  const audits: { policy: string; value: string }[] = [];
  for (const pair of pairs) {
    const params = paramsOf(pair, req);
    const found =
      params === "deny"
        ? [{ denials: [{ message: "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction", error: true }], audits: [] }]
        : params.map((p) => judgeOne(cel, pair, { ...base, params: p }));
    for (const r of found) {
      if (r === "silent") continue;
      for (const d of r.denials) {
        if (pair.actions.includes("Deny")) denials.push({ policy: pair.policy.name, binding: pair.binding.name, ...d });
        if (pair.actions.includes("Warn")) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${pair.policy.name}' with binding '${pair.binding.name}': ${d.message}`);
      }
      for (const value of r.audits) audits.push({ policy: pair.policy.name, value });
    }
  }
  return denials.length > 0 ? { kind: "refused", denials, warnings } : { kind: "admitted", warnings, audits };
}
