// What a command may need of the authorizer, as data: each command declares, per form of its
// command line, every namespaced request it sends (verb and resource). doctor's permission
// check, docs/rbac.md's table (test/docs/rbac-page.test.ts) and the RBAC tests (one-shell:
// test/commands/shared/permissions.test.ts runs each form and compares what it sent; e2e: the lab's
// identities) all read these declarations, and nothing else says what a command needs.
import type { PermissionForm, Rule, Verb } from "../../kube/types.ts";
import { PTAH_GROUP } from "../../model/api.ts";

export type { PermissionForm, Rule, Verb };

export const ptah = (verb: Verb, ...resources: string[]): Rule[] => resources.map((resource) => ({ verb, group: PTAH_GROUP, resource }));
export const events = (...verbs: Verb[]): Rule[] => verbs.map((verb) => ({ verb, group: "", resource: "events" }));
/** SelfSubjectAccessReview: Kubernetes' default system:basic-user grants it to every authenticated user. */
export const ACCESS_REVIEW: Rule = { verb: "create", group: "authorization.k8s.io", resource: "selfsubjectaccessreviews" };
/** Four-eyes: one SelfSubjectReview, sent only when the object records a last spec writer. */
export const WHO_AM_I =
  "create `selfsubjectreviews.authentication.k8s.io` (who you are) when the object records a last spec writer; every authenticated user may, by `system:basic-user`";
/** Four-eyes read exactly: one cluster-scoped get, optional (without it the switch is inferred, and said to be). */
export const FOUR_EYES_SWITCH =
  "optionally get `mutatingwebhookconfigurations` `ptah-operator-admission` (cluster scope: whether four-eyes is on; without it, inferred from annotations and said so)";
/** Who holds the realm: what explain SCHEMA and status SCHEMA read for an object refused for its realm or waiting to Apply; each optional. */
export const REALM_READS =
  "when it is refused for its realm or waits to Apply: list `ptahschemas`, `ptahmigrations` (a `spec.target.realmRef` realm's in every namespace, else its own; a `coordinationKey`'s in its own), get the `ptahrealms` it names (cluster scope; tenants are usually refused, and told who can tell), get `mutatingwebhookconfigurations` `ptah-operator-admission` (cluster scope) and list `leases.coordination.k8s.io` in the coordination namespace it names (each skipped with one line without the permission)";
/** The approval policies read back (commands/shared/policy-readback.ts): cluster scope, optional. */
export const APPROVAL_POLICIES =
  "list `validatingadmissionpolicies` (by the label `ptah.run/approval-policy`) and `validatingadmissionpolicybindings` (cluster scope: the approval policies; without them, said in one line)";
/** A form without the cluster. */
export const OFFLINE = "no cluster";

const READS: readonly Verb[] = ["get", "list", "watch"];
const KINDS = [
  "ptahschemas",
  "ptahschemaplans",
  "ptahschemaplanchunks",
  "ptahschemaapprovals",
  "ptahmigrations",
  "ptahmigrationplans",
  "ptahmigrationapprovals",
  "ptahmigrationrunacknowledgments",
  "ptahrealms",
];
const ADMISSION = "admissionregistration.k8s.io";
/**
 * The operator's own configuration, read by doctor, explain and status (get and list only): its
 * admission configuration (four-eyes and the coordination namespace; the YAML narrows it to
 * `ptah-operator-admission` by resourceNames, which a Rule does not carry), the apply-policy guard
 * and its bindings, and the realm Leases.
 */
const OPERATOR_CONFIGURATION: readonly Rule[] = [
  { verb: "get", group: ADMISSION, resource: "mutatingwebhookconfigurations" },
  ...(["get", "list"] as const).flatMap((verb) => [
    { verb, group: ADMISSION, resource: "validatingadmissionpolicies" },
    { verb, group: ADMISSION, resource: "validatingadmissionpolicybindings" },
    { verb, group: "coordination.k8s.io", resource: "leases" },
  ]),
];
const VIEWER: readonly Rule[] = [
  ...READS.flatMap((v) => ptah(v, ...KINDS)),
  ...events(...READS),
  ...READS.map((verb) => ({ verb, group: "events.k8s.io", resource: "events" })),
  ...OPERATOR_CONFIGURATION,
];

/** The recommended ClusterRoles of rbac/ as rules (test/commands/doctor/doctor-checks.test.ts compares them with the YAML). */
export const RECOMMENDED_ROLES: Readonly<Record<"ptah-viewer" | "ptah-approver", readonly Rule[]>> = {
  "ptah-viewer": VIEWER,
  "ptah-approver": [...VIEWER, ...ptah("create", "ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments")],
};

/** What every authenticated user may do by Kubernetes' defaults (system:basic-user). */
export const EVERY_USER: readonly Rule[] = [ACCESS_REVIEW];

export function ruleKey(r: Rule): string {
  return `${r.verb} ${r.group === "" ? "" : `${r.group}/`}${r.resource}`;
}

export function grants(role: readonly Rule[], rule: Rule): boolean {
  return role.some((r) => ruleKey(r) === ruleKey(rule));
}

/** Rules by verb, in first-seen order, each with its resources: "get `a`, `b`; list `c`" (quote "`") or plain. */
export function describeRules(rules: readonly Rule[], quote = "`"): string {
  const byVerb = new Map<string, string[]>();
  for (const r of rules) {
    const name = `${quote}${r.resource}${r.group === "" || r.group === PTAH_GROUP ? "" : `.${r.group}`}${quote}`;
    const list = byVerb.get(r.verb) ?? [];
    if (!list.includes(name)) list.push(name);
    byVerb.set(r.verb, list);
  }
  return [...byVerb].map(([verb, names]) => `${verb} ${names.join(", ")}`).join("; ");
}
