// The read-only rule at run time: every request the transport is about to send, its method and
// its URL, is checked against the closed list of what the plugin sends, before a byte leaves
// (kube/http.ts's send, and kube/proxy-tunnel.ts for the CONNECT to a proxy). The lint rules
// (eslint.read-only.js) and the type proof (test/guarantees/read-only.test.ts) show that no code sends
// anything else; this refuses it if some code ever does. The list is derived from the tables the
// requests are built from (model/parse.ts's KINDS and the ones below), so it cannot drift:
// - GET of a kind the plugin reads, at /api[s]/GROUP/VERSION/[namespaces/NS/]PLURAL[/NAME], with
//   only the list or the watch parameters the reader sends, never a subresource;
// - GET of /version, of the discovery of a group the plugin reads, of a Ptah kind's CRD and of the
//   admission webhook configurations (doctor, kube/inspect.ts);
// - GET of the operator's mutating webhook configuration by its name, of the apply-policy guard's
//   ValidatingAdmissionPolicies (by its label only) and of the policy bindings, and of the Leases
//   of a namespace (kube/admission-reads.ts): pages only, never a watch or another name;
// - GET of one Deployment by namespace and name (the operator's manager, doctor), never a list;
// - GET of one PtahRealm by name (kube/realm-read.ts: its sharing and namespaces), never a list
//   or a watch: the plugin does not enumerate realms;
// - POST of an approval kind with dryRun=All (nothing stored), and of the two reviews;
// - CONNECT to a proxy for the API server's host and port only.
// Anything else is a ReadOnlyError naming the method and the target; nothing is sent.
import { ReadOnlyError, sanitize } from "../errors.ts";
import { APPROVAL_POLICY_LABEL, PTAH_API_VERSION } from "../model/api.ts";
import { KINDS, type KindName } from "../model/parse.ts";

/** The kinds the plugin creates, only ever as a dry run (the transport adds dryRun=All itself). */
export const DRY_RUN_KINDS = ["PtahSchemaApproval", "PtahMigrationApproval", "PtahMigrationRunAcknowledgment"] as const satisfies readonly KindName[];
export type DryRunKind = (typeof DRY_RUN_KINDS)[number];

/**
 * The reviews the plugin creates, which store nothing: exactly those the code sends
 * (test/guarantees/read-only.test.ts). Another review is one line here (its kind and path), one in
 * test/support/transport-proof.ts's REVIEW_KINDS and one in test/support/audit.ts's REVIEW_RESOURCES.
 */
export const REVIEW_PATHS = {
  SelfSubjectAccessReview: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
  SelfSubjectReview: "/apis/authentication.k8s.io/v1/selfsubjectreviews", // who the caller is (four-eyes)
} as const;

/** The admission webhook configurations doctor lists (kube/inspect.ts). */
export const WEBHOOK_PLURAL = { mutating: "mutatingwebhookconfigurations", validating: "validatingwebhookconfigurations" } as const;
export const WEBHOOK_PATH = "/apis/admissionregistration.k8s.io/v1";
export const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** The operator's mutating webhook configuration: its entries say whether four-eyes is on. */
export const ADMISSION_CONFIGURATION = "ptah-operator-admission";
/** The apply-policy guard's label, the only selector its policies are listed with. */
export const APPLY_GUARD_SELECTOR = "app.kubernetes.io/component=apply-policy-guard";
export const POLICY_PATH = WEBHOOK_PATH;
/** Policies are listed by one of two labels only: the apply-policy guard's, or the approval policies' (the label's existence). */
const POLICY_SELECTORS = new Set([APPLY_GUARD_SELECTOR, APPROVAL_POLICY_LABEL]);
export const LEASE_PATH = "/apis/coordination.k8s.io/v1";
export const DEPLOYMENT_PATH = "/apis/apps/v1";
/** PtahRealms, read one by name only (kube/realm-read.ts). */
export const REALM_PATH = `/apis/${PTAH_API_VERSION}/ptahrealms`;
const ADMISSION_CONFIGURATION_PATH = `${WEBHOOK_PATH}/${WEBHOOK_PLURAL.mutating}/${ADMISSION_CONFIGURATION}`;
const POLICIES = `${POLICY_PATH}/validatingadmissionpolicies`;
const POLICY_BINDINGS = `${POLICY_PATH}/validatingadmissionpolicybindings`;
const LEASES = new RegExp(`^${LEASE_PATH.replaceAll(".", "\\.")}/namespaces/([^/]+)/leases$`, "u");
const REALM = new RegExp(`^${REALM_PATH.replaceAll(".", "\\.")}/([^/]+)$`, "u");
const DEPLOYMENT = new RegExp(`^${DEPLOYMENT_PATH}/namespaces/([^/]+)/deployments/([^/]+)$`, "u");

const WHY = "the plugin only reads (and dry-runs approvals)";

const prefixOf = (group: string, version: string): string => (group ? `/apis/${group}/${version}` : `/api/${version}`);
const KIND_LIST = Object.values(KINDS);
/** API prefix → the plurals the plugin reads under it. */
const READ = new Map<string, Set<string>>();
for (const k of KIND_LIST) READ.set(prefixOf(k.group, k.version), (READ.get(prefixOf(k.group, k.version)) ?? new Set()).add(k.plural));
/** The dry-run creates: API prefix → plurals. */
const DRY_RUN = new Map<string, Set<string>>();
for (const k of DRY_RUN_KINDS.map((n) => KINDS[n])) DRY_RUN.set(prefixOf(k.group, k.version), (DRY_RUN.get(prefixOf(k.group, k.version)) ?? new Set()).add(k.plural));
const DISCOVERY = new Set(KIND_LIST.filter((k) => k.group).map((k) => prefixOf(k.group, k.version)));
const CRDS = new Set(KIND_LIST.filter((k) => k.group).map((k) => `${CRD_PATH}/${k.plural}.${k.group}`));
const WEBHOOKS = new Set(Object.values(WEBHOOK_PLURAL).map((p) => `${WEBHOOK_PATH}/${p}`));
const REVIEWS = new Set<string>(Object.values(REVIEW_PATHS));

const LIST_PARAMS = new Set(["limit", "continue", "labelSelector", "fieldSelector"]);
const WATCH_PARAMS = new Set(["watch", "allowWatchBookmarks", "resourceVersion", "labelSelector", "fieldSelector", "timeoutSeconds"]);
const PAGE_PARAMS = new Set(["limit", "continue"]);

function only(params: URLSearchParams, allowed: ReadonlySet<string>): boolean {
  for (const key of params.keys()) if (!allowed.has(key)) return false;
  return true;
}

/** A namespace or name as one path segment: never empty, never a dot segment, never holding a slash (a subresource). */
function isName(segment: string | undefined): boolean {
  if (!segment) return false;
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return name !== "." && name !== ".." && !name.includes("/") && !name.includes("\\");
}

/** The API prefix a path starts with (one of `table`'s), and the segments after it. */
function split(path: string, table: ReadonlyMap<string, unknown>): { prefix: string; rest: string[] } | undefined {
  for (const prefix of table.keys()) if (path.startsWith(`${prefix}/`)) return { prefix, rest: path.slice(prefix.length + 1).split("/") };
  return undefined;
}

/** [namespaces/NS/]PLURAL[/NAME] → the plural and whether a name follows; undefined for any other shape. */
function resource(rest: readonly string[], named: boolean | "either"): string | undefined {
  const scoped = rest[0] === "namespaces" && rest.length >= 3 ? rest.slice(2) : rest;
  if (scoped !== rest && !isName(rest[1])) return undefined;
  if (scoped.length === 2 && named !== false && isName(scoped[1])) return scoped[0];
  if (scoped.length === 1 && named !== true) return scoped[0];
  return undefined;
}

function allowedGet(path: string, params: URLSearchParams): boolean {
  if (path === "/version" || DISCOVERY.has(path) || CRDS.has(path)) return params.size === 0;
  if (WEBHOOKS.has(path) || path === POLICY_BINDINGS) return only(params, PAGE_PARAMS);
  if (path === ADMISSION_CONFIGURATION_PATH) return params.size === 0;
  if (path === POLICIES) return POLICY_SELECTORS.has(params.get("labelSelector") ?? "") && only(params, new Set([...PAGE_PARAMS, "labelSelector"]));
  const lease = LEASES.exec(path);
  if (lease) return isName(lease[1]) && only(params, PAGE_PARAMS);
  const realm = REALM.exec(path);
  if (realm) return isName(realm[1]) && params.size === 0;
  const deployment = DEPLOYMENT.exec(path);
  if (deployment) return isName(deployment[1]) && isName(deployment[2]) && params.size === 0;
  const at = split(path, READ);
  if (!at) return false;
  const plural = resource(at.rest, "either");
  if (plural === undefined || !READ.get(at.prefix)!.has(plural)) return false;
  const named = at.rest.length === 2 || at.rest.length === 4;
  if (named) return params.size === 0;
  return params.has("watch") ? params.get("watch") === "true" && only(params, WATCH_PARAMS) : only(params, LIST_PARAMS);
}

function allowedPost(path: string, params: URLSearchParams): boolean {
  if (REVIEWS.has(path)) return params.size === 0;
  const at = split(path, DRY_RUN);
  if (!at || at.rest[0] !== "namespaces") return false;
  const plural = resource(at.rest, false);
  return plural !== undefined && DRY_RUN.get(at.prefix)!.has(plural) && params.size === 1 && params.get("dryRun") === "All";
}

/**
 * Throws a ReadOnlyError unless the plugin may send `method` to `url`: a request to the API server
 * (`server`'s scheme, host and port) that the list above allows.
 */
export function guardRequest(method: string, url: URL, server: URL): void {
  const sameServer = url.protocol === server.protocol && url.host === server.host && !url.username && !url.password && !url.hash;
  const path = url.pathname;
  const allowed = sameServer && (method === "GET" ? allowedGet(path, url.searchParams) : method === "POST" && allowedPost(path, url.searchParams));
  if (!allowed) throw new ReadOnlyError(`refused to send ${sanitize(method)} ${sanitize(sameServer ? `${path}${url.search}` : `${url.origin}${path}${url.search}`)}: ${WHY}`);
}

/** Throws a ReadOnlyError unless a CONNECT through a proxy goes to the API server's host and port. */
export function guardTunnel(target: string, server: URL): void {
  const host = server.hostname.replace(/^\[(.*)\]$/u, "$1");
  const port = server.port || (server.protocol === "https:" ? "443" : "80");
  if (target !== `${host}:${port}`) throw new ReadOnlyError(`refused to send CONNECT ${sanitize(target)}: the plugin only tunnels to the API server ${sanitize(server.host)}`);
}
