// Reading the lab's kube-apiserver audit log (JSON lines, level Metadata; see lab/audit-policy.yaml).
//
// The e2e tier uses this to prove the plugin is read-only: every request whose user agent starts
// with `kubectl-ptah/` must be a get, list or watch — except a create with `dryRun`, which only
// `approve --dry-run=server` may send and which a caller allows explicitly.
import fs from "node:fs";

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

/** True when the request asked for a server-side dry run (`?dryRun=All`). */
export function isDryRun(ev: AuditEvent): boolean {
  const q = ev.requestURI.indexOf("?");
  if (q < 0) return false;
  return new URLSearchParams(ev.requestURI.slice(q + 1)).getAll("dryRun").some((v) => v !== "");
}

export function isPluginRequest(ev: AuditEvent, userAgentPrefix = PLUGIN_USER_AGENT_PREFIX): boolean {
  return (ev.userAgent ?? "").startsWith(userAgentPrefix);
}

export interface WriteCheckOptions {
  /** Accept `create` requests that carry dryRun (what `approve --dry-run=server` sends). Default false. */
  allowDryRunCreate?: boolean;
  /** Accept SelfSubjectAccessReview creates (what `doctor` sends; they store nothing). Default false. */
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
    if (opts.allowAccessReviews && isAccessReview(ev)) return false;
    return true;
  });
}

/** One line per event, for assertion messages: `verb URI user=… ua=… code=…`. */
export function formatAuditEvent(ev: AuditEvent): string {
  const code = ev.responseStatus?.code;
  return `${ev.verb} ${ev.requestURI} user=${ev.user?.username ?? "?"} ua=${ev.userAgent ?? "?"}${code ? ` code=${code}` : ""}`;
}
