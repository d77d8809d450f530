// The approval policies the cluster holds, read back and evaluated for the commands that show
// them: `approve` (would the API server admit this approval now?), `status SCHEMA` and `inbox`
// (how many endorsements the current plan has of how many, whether the change window is open and
// when it opens), `ledger` and `doctor`. The policies are listed once per command line; the CEL
// library loads only when at least one is found (a cluster without policies costs one list each
// of policies and bindings, and no library).
import { loadCel, type Cel } from "../../approval/policy-cel-env.ts";
import { judge, type Requester, type Verdict } from "../../approval/policy-judge.ts";
import { applicable, type PolicySet } from "../../approval/policy-set.ts";
import { endorsementOf, HORIZON_MINUTES, probeRequest, windowOf, type Endorsement, type WindowState } from "../../approval/policy-state.ts";
import { NotFoundError, ReadError } from "../../errors.ts";
import { PTAH_GROUP, PTAH_VERSION } from "../../model/api.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import { KINDS } from "../../model/parse.ts";
import type { Connection } from "../command-types.ts";

/** The policies as read: evaluable, absent, or not readable by this account (with kubectl's reason). */
export type PolicyRead =
  { readonly kind: "policies"; readonly set: PolicySet; readonly cel: Cel } | { readonly kind: "none" } | { readonly kind: "unreadable"; readonly why: string };

export async function readPolicies(c: Connection): Promise<PolicyRead> {
  if (!c.inspector) return { kind: "none" };
  let set: PolicySet;
  try {
    set = await c.inspector.approvalPolicies();
  } catch (err) {
    // A server that does not serve ValidatingAdmissionPolicies (before Kubernetes 1.30) enforces none.
    if (err instanceof NotFoundError || (err instanceof ReadError && err.httpStatus === 404)) return { kind: "none" };
    if (err instanceof ReadError && err.httpStatus === 403) return { kind: "unreadable", why: err.message };
    throw err;
  }
  if (set.policies.length === 0) return { kind: "none" };
  return { kind: "policies", set, cel: await loadCel() };
}

export type ApprovalKind = "PtahSchemaApproval" | "PtahMigrationApproval";

/** The API server's verdict on creating `approval` in `namespace` as `user` at `at`. */
export function predictApproval(
  read: Extract<PolicyRead, { kind: "policies" }>,
  o: { kind: ApprovalKind; namespace: string; approval: Readonly<Record<string, unknown>>; user: Requester; at: Date; schemas: readonly PtahSchema[] },
): Verdict {
  return judge(read.cel, read.set, {
    group: PTAH_GROUP,
    version: PTAH_VERSION,
    resource: KINDS[o.kind].plural,
    kind: o.kind,
    operation: "CREATE",
    namespace: o.namespace,
    namespaceLabels: undefined,
    object: o.approval,
    user: o.user,
    at: o.at,
    params: o.schemas as unknown as Readonly<Record<string, unknown>>[],
  });
}

/** Whether any bound policy judges approvals of this kind in this namespace (undefined: cannot tell). */
export function judged(read: Extract<PolicyRead, { kind: "policies" }>, kind: ApprovalKind, namespace: string, part?: string): boolean | undefined {
  const set = part === undefined ? read.set : { ...read.set, policies: read.set.policies.filter((p) => p.part === part) };
  const { pairs, unknown } = applicable(set, {
    group: PTAH_GROUP,
    version: PTAH_VERSION,
    resource: KINDS[kind].plural,
    operation: "CREATE",
    namespace,
    namespaceLabels: undefined,
  });
  return unknown.length > 0 ? undefined : pairs.length > 0;
}

/** "ENDORSED 1/2 (alice)"'s value: counted of needed, with who; "-" when the plan needs none. */
export function endorsedText(e: Endorsement): string {
  if (!e.risky) return "-";
  return `${e.counted.length}/${e.needed}${e.counted.length > 0 ? ` (${e.counted.join(", ")})` : ""}`;
}

/** "in 2d 11h", "in 3h 10m", "in 45m" (whole minutes, rounded up). */
export function inAbout(from: Date, to: Date): string {
  const minutes = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return `in ${d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`}`;
}

/** "Mon 09:00 Europe/Berlin": the weekday and time of `at` in `zone`. */
export function atIn(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.hour}:${parts.minute} ${zone}`;
}

/** "closed — opens Mon 09:00 Europe/Berlin (in 2d 11h)" or "open — closes …". */
export function windowText(w: WindowState, now: Date): string {
  const state = w.open ? "open" : "closed";
  if (!w.change) return `${state} — ${w.open ? "no closing" : "no opening"} within ${HORIZON_MINUTES / 1440} days`;
  return `${state} — ${w.open ? "closes" : "opens"} ${atIn(w.change, w.zone)} (${inAbout(now, w.change)})`;
}

/** What `status SCHEMA` and `inbox` print of the policies for one schema (empty: none bound to it). */
export interface SchemaPolicyView {
  /** "1/2 (alice)", "-" (the plan needs none), or undefined: no quorum policy applies. */
  readonly endorsed: string | undefined;
  readonly window: string | undefined;
  /** Why the policies were not read (403), when they were not. */
  readonly unread: string | undefined;
}

export const NO_POLICY_VIEW: SchemaPolicyView = { endorsed: undefined, window: undefined, unread: undefined };

/** The endorsement count and the window of `schema` (raw, as served) under the policies read. */
export function schemaPolicyView(read: PolicyRead, schema: Readonly<Record<string, unknown>>, now: Date): SchemaPolicyView {
  if (read.kind === "none") return NO_POLICY_VIEW;
  if (read.kind === "unreadable") return { ...NO_POLICY_VIEW, unread: read.why };
  const ns = (schema.metadata as { namespace?: unknown } | undefined)?.namespace;
  const namespace = typeof ns === "string" ? ns : "";
  const req = probeRequest({ namespace, schema, schemas: [schema], at: now });
  const e = endorsementOf(read.cel, read.set, req);
  const w = windowOf(read.cel, read.set, req);
  return { endorsed: e && endorsedText(e), window: w && windowText(w, now), unread: undefined };
}

/**
 * `approve`'s word on the policies, for stderr before the manifest is printed: a warning when the
 * API server would refuse the approval if it were created now (with its message), or when that
 * cannot be predicted; nothing when it would be admitted or no policy is bound. A warning, not a
 * refusal: the API server decides at the create, and a window may open in the meantime
 * (docs/policy.md, "approve").
 */
export async function approvalPolicyWarning(
  c: Connection,
  o: { kind: ApprovalKind; approval: Readonly<Record<string, unknown>>; schemas: readonly PtahSchema[]; now: Date },
): Promise<string | undefined> {
  const read = await readPolicies(c);
  if (read.kind === "none") return undefined;
  if (read.kind === "unreadable") return `Warning: whether the approval policies admit this approval was not checked: ${read.why}`;
  if (judged(read, o.kind, c.namespace) === false) return undefined;
  const me = await c.reader.whoAmI();
  const verdict = predictApproval(read, {
    kind: o.kind,
    namespace: c.namespace,
    approval: o.approval,
    user: { username: me.username, uid: me.uid, groups: me.groups },
    at: o.now,
    schemas: o.schemas,
  });
  if (verdict.kind === "unknown") return `Warning: whether the approval policies admit this approval cannot be predicted: ${verdict.why}`;
  if (verdict.kind === "admitted") return undefined;
  const d = verdict.denials[0]!;
  return `Warning: the API server would refuse this approval if it were created now (ValidatingAdmissionPolicy ${d.policy}): ${d.message}`;
}
