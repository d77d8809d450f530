// Helpers for end-to-end tests against the lab (`npm run lab`, lab/lab.mjs): the lab's
// description and the real `kubectl` as one of its identities (./lab-kubectl.ts, re-exported),
// create and update objects and their status subresource, make unique namespaces, read the
// audit log.
//
// Everything here is synchronous (spawnSync) on purpose: tests set up fixtures step by step and
// need the UID of one object to write the next. Fixtures are written as lab-admin
// (system:masters) unless a test asks for another identity.
//
// The lab has no controller-manager: deleted namespaces stay Terminating forever and owner
// references are not garbage-collected. Use createNamespace() (unique names) per test file.
import fs from "node:fs";
import https from "node:https";
import { API_VERSION, GROUP } from "../../lab/config.ts";
import { SENTINEL_AGENT, auditLogSize, readAuditLog, type AuditEvent } from "./audit.ts";
import { kubectl, kubectlJson, labEnv, type KubeObject, type LabUser } from "./lab-kubectl.ts";

export * from "./lab-kubectl.ts";
export { API_VERSION, GROUP };

// ---------------------------------------------------------------------------------------------
// kinds and objects

/** The operator's kinds as the lab CRDs declare them . */
export const LAB_KINDS = {
  PtahSchema: { plural: "ptahschemas", shortName: "ptahs", namespaced: true, status: true },
  PtahSchemaPlan: { plural: "ptahschemaplans", shortName: "ptahplan", namespaced: true, status: true },
  PtahSchemaPlanChunk: { plural: "ptahschemaplanchunks", shortName: "ptahchunk", namespaced: true, status: false },
  PtahSchemaApproval: { plural: "ptahschemaapprovals", shortName: "ptahapprove", namespaced: true, status: true },
  PtahMigration: { plural: "ptahmigrations", shortName: "ptahm", namespaced: true, status: true },
  PtahMigrationPlan: { plural: "ptahmigrationplans", shortName: "ptahmplan", namespaced: true, status: true },
  PtahMigrationApproval: { plural: "ptahmigrationapprovals", shortName: "ptahmapprove", namespaced: true, status: true },
  PtahMigrationRunAcknowledgment: { plural: "ptahmigrationrunacknowledgments", shortName: "ptahmack", namespaced: true, status: true },
  PtahRealm: { plural: "ptahrealms", shortName: "ptahr", namespaced: false, status: false },
  PtahResultRecord: { plural: "ptahresultrecords", shortName: "ptahresult", namespaced: true, status: false },
} as const;
export type LabKind = keyof typeof LAB_KINDS;

/** A metav1.Condition as the CRDs require it (type, status, reason, message, lastTransitionTime). */
export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export function condition(
  type: string,
  status: Condition["status"],
  reason: string,
  message = "",
  extra: { lastTransitionTime?: string; observedGeneration?: number } = {},
): Condition {
  return {
    type,
    status,
    reason,
    message,
    lastTransitionTime: extra.lastTransitionTime ?? new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    ...(extra.observedGeneration !== undefined ? { observedGeneration: extra.observedGeneration } : {}),
  };
}

/** kubectl resource argument for a kind: "ptahschemas.operator.ptah.run"; other strings pass through ("configmaps"). */
export function resourceOf(kind: LabKind | string): string {
  const info = (LAB_KINDS as Record<string, { plural: string }>)[kind];
  return info ? `${info.plural}.${GROUP}` : kind;
}

function hasStatusSubresource(kind: string): boolean {
  const info = (LAB_KINDS as Record<string, { status: boolean }>)[kind];
  return info?.status ?? false;
}

function nsArgs(namespace: string | undefined): string[] {
  return namespace ? ["--namespace", namespace] : [];
}

function withoutStatus(obj: KubeObject): KubeObject {
  const { status: _status, ...rest } = obj;
  return { ...rest, metadata: { ...obj.metadata } };
}

export interface WriteOptions {
  /** Identity (default "admin"). */
  as?: LabUser;
}

/**
 * Creates an object (`kubectl create -f -`). If it carries `status` and its kind has a status
 * subresource, the status is then written through that subresource (a create ignores it).
 * Returns the object as stored.
 */
export function createObject<T extends KubeObject = KubeObject>(obj: KubeObject, opts: WriteOptions = {}): T {
  const created = kubectlJson<T>(["create", "-f", "-"], { as: opts.as, input: JSON.stringify(withoutStatus(obj)) });
  if (obj.status && hasStatusSubresource(obj.kind)) {
    return setStatus(created, obj.status, opts) as T;
  }
  return created;
}

/**
 * Creates or updates an object with server-side apply (field manager `ptah-e2e`, conflicts
 * forced), then writes `status` through the status subresource like createObject.
 */
export function applyObject<T extends KubeObject = KubeObject>(obj: KubeObject, opts: WriteOptions = {}): T {
  const body = withoutStatus(obj);
  delete body.metadata.resourceVersion;
  const applied = kubectlJson<T>(["apply", "--server-side", "--force-conflicts", "--field-manager=ptah-e2e", "-f", "-"], {
    as: opts.as,
    input: JSON.stringify(body),
  });
  if (obj.status && hasStatusSubresource(obj.kind)) {
    return setStatus(applied, obj.status, opts) as T;
  }
  return applied;
}

/**
 * Merges `status` into the object's status through the status subresource (JSON merge patch:
 * objects merge, arrays such as conditions are replaced whole, null removes a field).
 */
export function setStatus(obj: KubeObject, status: Record<string, unknown>, opts: WriteOptions = {}): KubeObject {
  return kubectlJson(
    ["patch", resourceOf(obj.kind), obj.metadata.name, ...nsArgs(obj.metadata.namespace), "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })],
    { as: opts.as },
  );
}

/** Replaces the whole status (`kubectl replace --subresource=status`), e.g. to drop fields. */
export function replaceStatus(obj: KubeObject, status: Record<string, unknown>, opts: WriteOptions = {}): KubeObject {
  const current = getObject(obj.kind, obj.metadata.name, obj.metadata.namespace);
  if (!current) throw new Error(`${obj.kind} ${obj.metadata.namespace ?? ""}/${obj.metadata.name} does not exist`);
  return kubectlJson(["replace", "--subresource=status", "-f", "-"], { as: opts.as, input: JSON.stringify({ ...current, status }) });
}

/** JSON merge patch of the object itself (spec, metadata). Throws on failure; use kubectl() with check:false to inspect errors. */
export function patchObject(obj: KubeObject, patch: Record<string, unknown>, opts: WriteOptions = {}): KubeObject {
  return kubectlJson(["patch", resourceOf(obj.kind), obj.metadata.name, ...nsArgs(obj.metadata.namespace), "--type=merge", "-p", JSON.stringify(patch)], { as: opts.as });
}

/** The stored object, or undefined when it does not exist. */
export function getObject<T extends KubeObject = KubeObject>(kind: LabKind | string, name: string, namespace?: string, opts: WriteOptions = {}): T | undefined {
  const r = kubectl(["get", resourceOf(kind), name, ...nsArgs(namespace), "-o", "json"], { as: opts.as, check: false });
  if (r.code !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return undefined;
    throw new Error(`kubectl get ${resourceOf(kind)} ${name}: ${r.stderr.trim()}`);
  }
  return JSON.parse(r.stdout) as T;
}

/** Deletes an object (no error when it is already gone). The lab has no garbage collector. */
export function deleteObject(kind: LabKind | string, name: string, namespace?: string, opts: WriteOptions = {}): void {
  kubectl(["delete", resourceOf(kind), name, ...nsArgs(namespace), "--ignore-not-found", "--wait=false"], { as: opts.as });
}

// ---------------------------------------------------------------------------------------------
// names and namespaces

let counter = 0;

/** A DNS-1123 label unique to this process and moment: `<prefix>-<time>-<n><random>`. */
export function uniqueName(prefix = "e2e"): string {
  const suffix = `${Date.now().toString(36)}-${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const base =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .replace(/^-+|-+$/g, "") || "e2e";
  return `${base.slice(0, 62 - suffix.length)}-${suffix}`;
}

/**
 * Creates a namespace with a unique name and returns the name. Namespaces cannot really be
 * deleted in the lab (no namespace controller), so every test should use its own.
 */
export function createNamespace(prefix = "e2e"): string {
  const name = uniqueName(prefix);
  kubectl(["create", "namespace", name, "-o", "name"]);
  return name;
}

/** Requests deletion; the namespace stays Terminating in the lab, which is harmless. */
export function deleteNamespace(name: string): void {
  kubectl(["delete", "namespace", name, "--ignore-not-found", "--wait=false"]);
}

// ---------------------------------------------------------------------------------------------
// audit log

/** A mark in the audit log (its size now); pass it to auditEventsSince to scope a check. */
export function auditMark(): number {
  return auditLogSize(labEnv().auditLog);
}

/** Audit events written after `mark` (default: all), one per request (see parseAuditLog). */
export function auditEventsSince(mark = 0): AuditEvent[] {
  return readAuditLog(labEnv().auditLog, mark);
}

/**
 * Sends one raw request to the lab as the read-only proof's sentinel (lab-sentinel: a plugin
 * certificate, group ptah:plugin-under-test, bound to ptah-approver; the real verdict leaves its
 * requests out), under the sentinel user agent (the plugin's) or `userAgent`, to prove the audit
 * checker names what it must; resolves with the HTTP status.
 */
export function sendAsSentinel(method: string, requestPath: string, body?: unknown, userAgent = `${SENTINEL_AGENT} (linux/amd64)`): Promise<number> {
  const env = labEnv();
  const user = env.sentinel;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        method,
        host: "127.0.0.1",
        port: env.ports.apiserver,
        path: requestPath,
        ca: fs.readFileSync(env.caFile),
        cert: fs.readFileSync(user.cert),
        key: fs.readFileSync(user.key),
        headers: { "User-Agent": userAgent, "Content-Type": method === "PATCH" ? "application/merge-patch+json" : "application/json" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
