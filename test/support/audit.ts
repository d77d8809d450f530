// Reading the lab's kube-apiserver audit log (JSON lines, level Metadata; see lab/audit-policy.yaml).
//
// The e2e tier uses this to prove the plugin is read-only (readOnlyVerdict, applied after the tier
// by test/e2e/read-only-reporter.ts): every request by the plugin's identities (the lab's
// certificates of PLUGIN_GROUP, and system:anonymous), whatever its user agent, and every request
// whose user agent starts with `kubectl-ptah/` (the second check), must be one the plugin is meant
// to send — an allowlist (test/support/wire-allowlist.ts): a get, list or watch of a resource the
// plugin reads, with no subresource, or a GET of /version or the Ptah group's discovery; a
// `dryRun=All` create of one of the three approval kinds; a create of a SelfSubjectAccessReview or
// a SelfSubjectReview (who am I; four-eyes): the API server stores neither. Anything else is named.
import fs from "node:fs";
import { nonResourceViolation, readViolation } from "./wire-allowlist.ts";

export const PLUGIN_USER_AGENT_PREFIX = "kubectl-ptah/";
export const READ_VERBS: ReadonlySet<string> = new Set(["get", "list", "watch"]);

/** The fields of an audit.k8s.io/v1 Event that the lab's Metadata-level policy writes. */
export interface AuditEvent {
  kind?: string;
  apiVersion?: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  impersonatedUser?: { username?: string; groups?: string[] };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: {
    resource?: string;
    namespace?: string;
    name?: string;
    uid?: string;
    apiGroup?: string;
    apiVersion?: string;
    resourceVersion?: string;
    subresource?: string;
  };
  responseStatus?: { code?: number; status?: string; reason?: string; message?: string };
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
  annotations?: Record<string, string>;
}

const STAGE_ORDER: Record<string, number> = { RequestReceived: 0, ResponseStarted: 1, ResponseComplete: 2, Panic: 3 };

/**
 * Parses audit JSON lines. Every request is logged once per stage (RequestReceived,
 * ResponseStarted for watches, ResponseComplete); this returns one event per auditID — its most
 * advanced stage — in the order the requests were first seen. Blank and partial lines (a line
 * being written while we read) are skipped.
 */
export function parseAuditLog(text: string): AuditEvent[] {
  const byId = new Map<string, AuditEvent>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let ev: AuditEvent;
    try {
      ev = JSON.parse(line) as AuditEvent;
    } catch {
      continue;
    }
    if (!ev || typeof ev.auditID !== "string" || typeof ev.verb !== "string") continue;
    const prev = byId.get(ev.auditID);
    if (!prev || (STAGE_ORDER[ev.stage] ?? 0) >= (STAGE_ORDER[prev.stage] ?? 0)) byId.set(ev.auditID, ev);
  }
  return [...byId.values()];
}

/** The audit log's current size in bytes: a mark to read only the events written after it. */
export function auditLogSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Reads and parses the audit log, optionally only the bytes after `fromOffset` (see auditLogSize). */
export function readAuditLog(file: string, fromOffset = 0): AuditEvent[] {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.min(Math.max(0, fromOffset), size);
    const buf = Buffer.alloc(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return parseAuditLog(buf.subarray(0, read).toString("utf8"));
  } finally {
    fs.closeSync(fd);
  }
}

/** True when the request asked for a server-side dry run: `dryRun=All`, the only value the API server defines. */
export function isDryRun(ev: AuditEvent): boolean {
  const q = ev.requestURI.indexOf("?");
  if (q < 0) return false;
  const values = new URLSearchParams(ev.requestURI.slice(q + 1)).getAll("dryRun");
  return values.length > 0 && values.every((v) => v === "All");
}

export function isPluginRequest(ev: AuditEvent, userAgentPrefix = PLUGIN_USER_AGENT_PREFIX): boolean {
  return (ev.userAgent ?? "").startsWith(userAgentPrefix);
}

export interface WriteCheckOptions {
  /** Accept `create` requests that carry dryRun (what `approve --dry-run=server` sends). Default false. */
  allowDryRunCreate?: boolean;
  /** Accept the reviews of REVIEW_RESOURCES (access reviews, who am I: `doctor`, `inbox`, `approve`; they store nothing). Default false. */
  allowAccessReviews?: boolean;
  /** User-agent prefix that identifies the plugin. Default `kubectl-ptah/`. */
  userAgentPrefix?: string;
}

/** A SelfSubjectAccessReview create: a question to the authorizer, nothing is stored. */
export function isAccessReview(ev: AuditEvent): boolean {
  return ev.verb === "create" && ev.objectRef?.apiGroup === "authorization.k8s.io" && ev.objectRef.resource === "selfsubjectaccessreviews";
}

/**
 * Every plugin request (user agent starting with `kubectl-ptah/`) whose verb is not get, list or
 * watch. A create with dryRun is returned too unless `allowDryRunCreate` is set. An empty result
 * means the plugin did not write.
 */
export function pluginWrites(events: readonly AuditEvent[], opts: WriteCheckOptions = {}): AuditEvent[] {
  const prefix = opts.userAgentPrefix ?? PLUGIN_USER_AGENT_PREFIX;
  return events.filter((ev) => {
    if (!isPluginRequest(ev, prefix)) return false;
    if (READ_VERBS.has(ev.verb)) return false;
    if (opts.allowDryRunCreate && ev.verb === "create" && isDryRun(ev)) return false;
    if (opts.allowAccessReviews && isReview(ev)) return false;
    return true;
  });
}

/** One line per event, for assertion messages: `verb URI user=… ua=… code=…`. */
export function formatAuditEvent(ev: AuditEvent): string {
  const code = ev.responseStatus?.code;
  return `${ev.verb} ${ev.requestURI} user=${ev.user?.username ?? "?"} ua=${ev.userAgent ?? "?"}${code ? ` code=${code}` : ""}`;
}

/** The approval kinds `approve`/`acknowledge --dry-run=server` may create with dryRun=All. */
export const DRY_RUN_CREATE_RESOURCES: ReadonlySet<string> = new Set(["ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"]);
/**
 * The reviews the plugin sends, as `group/resource` (the API server answers them without storing
 * anything): exactly what the code sends. Allowing another (say SelfSubjectReview) is one line here.
 */
export const REVIEW_RESOURCES: ReadonlySet<string> = new Set([
  "authorization.k8s.io/selfsubjectaccessreviews", // inbox, doctor
  "authentication.k8s.io/selfsubjectreviews", // approve, inbox: who am I (four-eyes)
]);

/** A create of one of REVIEW_RESOURCES. */
export function isReview(ev: AuditEvent): boolean {
  return ev.verb === "create" && !ev.objectRef?.subresource && REVIEW_RESOURCES.has(`${ev.objectRef?.apiGroup ?? ""}/${ev.objectRef?.resource ?? ""}`);
}
/** Never read, not even listed: they may hold credentials, SQL or key material (the allowlist has neither; named first). */
export const FORBIDDEN_READ_RESOURCES: ReadonlySet<string> = new Set(["secrets", "ptahresultrecords"]);

/** Why a plugin request breaks the read-only promise, or undefined when the allowlist names it. */
export function readOnlyViolation(ev: AuditEvent): string | undefined {
  if (!ev.objectRef) return nonResourceViolation(ev.verb, ev.requestURI);
  const ref = ev.objectRef;
  const resource = ref.resource ?? "";
  if (READ_VERBS.has(ev.verb)) {
    return FORBIDDEN_READ_RESOURCES.has(resource) ? `a ${ev.verb} of ${resource}` : readViolation(ev.verb, ref);
  }
  if (ev.verb === "create" && !ref.subresource) {
    if (ref.apiGroup === "operator.ptah.run" && DRY_RUN_CREATE_RESOURCES.has(resource)) {
      return isDryRun(ev) ? undefined : `a create of ${resource} without dryRun=All`;
    }
    if (isReview(ev)) return undefined;
    return isDryRun(ev) ? `a dry-run create of ${resource || ev.requestURI}, which is not an approval kind` : `a create of ${resource || ev.requestURI}`;
  }
  return `a ${ev.verb}${resource ? ` of ${resource}${ref.subresource ? `/${ref.subresource}` : ""}` : ""}`;
}

/** The group the lab's plugin certificates carry (lab/config.ts PLUGIN_GROUP). */
export const PLUGIN_GROUP = "ptah:plugin-under-test";
/** The user the read-only proof's own probes are sent as (lab/config.ts SENTINEL_USER). */
export const SENTINEL_USER = "lab-sentinel";
export const ANONYMOUS = "system:anonymous";

/** Sent by one of the plugin's own identities: a certificate of PLUGIN_GROUP, or nobody (system:anonymous). */
export function isPluginIdentity(ev: AuditEvent): boolean {
  const user = ev.user ?? {};
  return user.username === ANONYMOUS || (user.groups ?? []).includes(PLUGIN_GROUP);
}

export interface ReadOnlyVerdict {
  /**
   * The requests judged: every one by the plugin's identities (isPluginIdentity) whatever its
   * user agent, and every one with the plugin's user agent whoever sent it; the sentinel's left out.
   */
  readonly requests: readonly AuditEvent[];
  /** Of those, how many carried the plugin's user agent. */
  readonly byAgent: number;
  readonly offending: readonly { readonly event: AuditEvent; readonly why: string }[];
  readonly dryRunCreates: number;
  readonly reviews: number;
  /** Problems with the run as a whole (too few requests, the plugin run as a person); empty when none. */
  readonly problems: readonly string[];
}

export interface VerdictOptions {
  /** The tier must have sent at least this many plugin requests (0: no floor). */
  readonly floor?: number;
  /**
   * The user whose requests are left out (default SENTINEL_USER, the proof's own probes); null
   * leaves out nobody, to judge the probes as if the plugin had sent them.
   */
  readonly exemptUser?: string | null;
}

/**
 * The read-only proof over a stretch of the audit log: every request by the plugin's identities
 * or with its user agent judged by readOnlyViolation; a plugin user agent from another identity
 * (the tier ran the plugin as a person, so the identity rule could not see it); the floor on
 * their number (a tier whose plugin sent nothing proves nothing).
 */
export function readOnlyVerdict(events: readonly AuditEvent[], opts: VerdictOptions = {}): ReadOnlyVerdict {
  const exempt = opts.exemptUser === undefined ? SENTINEL_USER : opts.exemptUser;
  const requests = events.filter((e) => e.user?.username !== exempt && (isPluginIdentity(e) || isPluginRequest(e)));
  const offending = requests.flatMap((event) => {
    const why = readOnlyViolation(event);
    return why ? [{ event, why }] : [];
  });
  const problems: string[] = [];
  const asPerson = requests.filter((e) => isPluginRequest(e) && !isPluginIdentity(e));
  if (asPerson.length > 0) {
    problems.push(
      `${asPerson.length} requests with the plugin's user agent came from identities not reserved for it (the tier ran the plugin as a person), e.g. ${formatAuditEvent(asPerson[0]!)}`,
    );
  }
  const floor = opts.floor ?? 0;
  if (requests.length < floor) {
    problems.push(`the plugin sent ${requests.length} requests, fewer than the ${floor} the end-to-end tier is known to send: the tier did not exercise the plugin`);
  }
  const dryRunCreates = requests.filter((e) => e.verb === "create" && DRY_RUN_CREATE_RESOURCES.has(e.objectRef?.resource ?? "") && isDryRun(e)).length;
  const reviews = requests.filter(isReview).length;
  return { requests, byAgent: requests.filter((e) => isPluginRequest(e)).length, offending, dryRunCreates, reviews, problems };
}

/** The lines a failed proof prints: one per offending request, then the run's problems. */
export function verdictFailures(v: ReadOnlyVerdict): string[] {
  return [...v.offending.map((o) => `read-only proof: forbidden plugin request (${o.why}): ${formatAuditEvent(o.event)}`), ...v.problems.map((p) => `read-only proof: ${p}`)];
}

/** The one summary line of a verdict. */
export function verdictSummary(v: ReadOnlyVerdict): string {
  return `read-only proof: ${v.requests.length} requests by the plugin's identities in the audit log (${v.byAgent} with its user agent), ${v.offending.length} forbidden, ${v.dryRunCreates} dry-run approval creates, ${v.reviews} access reviews`;
}

/**
 * The user agent of requests that prove the checker itself (test/e2e/read-only-proof.e2e.test.ts,
 * lab.e2e.test.ts), sent as SENTINEL_USER, which the real verdict leaves out: it starts like the
 * plugin's, so the user-agent rule sees them too.
 */
export const SENTINEL_AGENT = "kubectl-ptah/0.0.0-e2e";
