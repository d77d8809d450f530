// The read-only proof's allowlist: every request the plugin is meant to send, as
// (verb, apiGroup, resource, subresource) for resource requests and (verb, path) for the
// non-resource ones. test/support/audit.ts's readOnlyViolation names every request not in it.
// A closed list, not a list of known bad things: a proxied GET (services/…/proxy,
// nodes/…/proxy), pods/exec, pods/attach, pods/portforward and pods/log are reads by verb and
// can still change a workload; none is here, so each is named.
//
// The reads of the Ptah kinds, ConfigMaps (older installs' plan chunks) and core Events come from
// the reader's own table (src/model/parse.ts KINDS), so they cannot drift from what the reader
// builds; PtahResultRecord and PtahRealm are not in it. What doctor/version read beyond it (src/kube/inspect.ts,
// src/kube/reader.ts serverInfo) is written here; test/support/audit.test.ts checks every path
// the transport is asked to GET against this list, so a new one fails the unit tier.
import { PTAH_API_VERSION } from "../../src/model/api.ts";
import { KINDS } from "../../src/model/parse.ts";

export interface AllowedRead {
  readonly verbs: readonly string[];
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
  /** Who sends it (for the failure message and docs/testing.md). */
  readonly by: string;
}

const READS = ["get", "list", "watch"] as const;

/** Reads of whole objects (no subresource: the plugin reads none, not even status). */
export const ALLOWED_READS: readonly AllowedRead[] = [
  ...Object.values(KINDS).map((k) => ({ verbs: READS, group: k.group, resource: k.plural, by: "the reader (src/model/parse.ts KINDS)" })),
  { verbs: ["get"], group: "apiextensions.k8s.io", resource: "customresourcedefinitions", by: "doctor (src/kube/inspect.ts getCrd)" },
  {
    verbs: ["get", "list"],
    group: "admissionregistration.k8s.io",
    resource: "mutatingwebhookconfigurations",
    by: "doctor (src/kube/inspect.ts listWebhooks); doctor, approve, inbox, explain get ptah-operator-admission (src/kube/admission-reads.ts)",
  },
  {
    verbs: ["list"],
    group: "admissionregistration.k8s.io",
    resource: "validatingadmissionpolicies",
    by: "doctor: the apply-policy guard; status, inbox, approve, doctor: the approval policies (src/kube/admission-reads.ts)",
  },
  {
    verbs: ["list"],
    group: "admissionregistration.k8s.io",
    resource: "validatingadmissionpolicybindings",
    by: "the guard's and the approval policies' bindings (src/kube/admission-reads.ts)",
  },
  { verbs: ["list"], group: "coordination.k8s.io", resource: "leases", by: "explain SCHEMA: the realm's lock holder (src/kube/admission-reads.ts)" },
  { verbs: ["get"], group: "operator.ptah.run", resource: "ptahrealms", by: "explain SCHEMA, status SCHEMA: one realm's sharing and namespaces, by name (src/kube/realm-read.ts)" },
  { verbs: ["get"], group: "apps", resource: "deployments", by: "doctor: the manager Deployment ptah-operator-admission names (src/kube/admission-reads.ts)" },
  { verbs: ["list"], group: "admissionregistration.k8s.io", resource: "validatingwebhookconfigurations", by: "doctor (src/kube/inspect.ts listWebhooks)" },
];

/**
 * The non-resource URLs the plugin GETs (an audit event without objectRef): /version (version,
 * doctor) and discovery of the Ptah group version (version's serverInfo, doctor's discoverGroup).
 */
export const NON_RESOURCE_PATHS: ReadonlySet<string> = new Set(["/version", `/apis/${PTAH_API_VERSION}`]);

/**
 * The one query parameter a non-resource GET may carry: kubectl adds `?timeout=5s` to the GET
 * /version it sends before running a plugin (seen in the lab's audit log, user agent
 * kubectl-dispatcher, with the plugin's kubeconfig). It bounds the wait and changes nothing.
 */
export const NON_RESOURCE_QUERY: ReadonlySet<string> = new Set(["timeout"]);

/** Why a read (get, list, watch) is not one the plugin sends, or undefined when it is. */
export function readViolation(verb: string, ref: { apiGroup?: string; resource?: string; subresource?: string }): string | undefined {
  const group = ref.apiGroup ?? "";
  const resource = ref.resource ?? "";
  const named = `${resource}${ref.subresource ? `/${ref.subresource}` : ""}${group ? ` (${group})` : ""}`;
  if (ref.subresource) return `a ${verb} of ${named}: the plugin reads no subresource`;
  const row = ALLOWED_READS.find((r) => r.group === group && r.resource === resource);
  if (!row) return `a ${verb} of ${named}: not a resource the plugin reads`;
  return row.verbs.includes(verb) ? undefined : `a ${verb} of ${named}: the plugin sends only ${row.verbs.join("/")} of it`;
}

/** Why a request without objectRef (a non-resource URL) is not one the plugin sends, or undefined. */
export function nonResourceViolation(verb: string, requestURI: string): string | undefined {
  const q = requestURI.indexOf("?");
  const path = q < 0 ? requestURI : requestURI.slice(0, q);
  const params = q < 0 ? [] : [...new URLSearchParams(requestURI.slice(q + 1)).keys()];
  if (verb !== "get" || !NON_RESOURCE_PATHS.has(path)) return `a ${verb} of the non-resource URL ${path}, which the plugin does not send`;
  const extra = params.filter((p) => !NON_RESOURCE_QUERY.has(p));
  return extra.length ? `a get of the non-resource URL ${path} with ${extra.join(", ")}, which the plugin does not send` : undefined;
}
