// The reads `doctor` needs beyond the Ptah kinds, each one named GET: /version (with the
// server's Date header), discovery of one group version, a CRD by name and the admission
// webhook configurations, all through the transport's GET; plus the access reviews, which it
// asks through the reader's one reviewAccess. Every string is sanitised here.
import { okJson, type RequestDescription } from "./api-errors.ts";
import type { AccessAnswer, AccessCheck } from "./access.ts";
import type { Transport } from "./http.ts";
import { sanitize } from "../errors.ts";
import { CRD_PATH, WEBHOOK_PATH, WEBHOOK_PLURAL } from "./request-guard.ts";
import type { ClusterReader } from "./types.ts";
import {
  conditionOf,
  getAdmissionConfiguration,
  getDeployment,
  listApplyGuards,
  listApprovalPolicies,
  listLeases,
  type AdmissionConfiguration,
  type ApplyGuardPolicy,
  type DeploymentFacts,
  type LeaseFacts,
  type PolicySet,
} from "./admission-reads.ts";
import { getRealm, type RealmFacts } from "./realm-read.ts";

export type { AdmissionConfiguration, ApplyGuardPolicy, DeploymentFacts, LeaseFacts } from "./admission-reads.ts";
export type { RealmFacts } from "./realm-read.ts";

export interface ServerVersion {
  readonly gitVersion: string;
  readonly minor: number | undefined;
  readonly major: number | undefined;
  /** The response's Date header, as sent (clock skew). */
  readonly date: string | undefined;
}

export interface GroupDiscovery {
  /** false when the server answers 404: no CRD of the group is installed. */
  readonly served: boolean;
  /** Kinds of the top-level resources (no subresources). */
  readonly kinds: readonly string[];
}

/** One condition as doctor reports it (a CRD's Established, a Deployment's Available). */
export interface ConditionFacts {
  readonly status: string;
  readonly reason: string | undefined;
  readonly message: string | undefined;
}

export interface CrdAnnotations {
  readonly name: string;
  /** false: the server has no CRD by that name. */
  readonly found: boolean;
  readonly annotations: Readonly<Record<string, string>>;
  /** Its Established condition; undefined when the server reports none. */
  readonly established?: ConditionFacts | undefined;
}

export interface WebhookRule {
  readonly groups: readonly string[];
  readonly resources: readonly string[];
  readonly operations: readonly string[];
}

export interface WebhookEntry {
  readonly configuration: string;
  readonly name: string;
  /** "service NS/NAME[:PORT][PATH]" or the URL; undefined when it names neither. */
  readonly target: string | undefined;
  readonly rules: readonly WebhookRule[];
}

export type WebhookKind = keyof typeof WEBHOOK_PLURAL;

export interface ClusterInspector {
  serverVersion(): Promise<ServerVersion>;
  discoverGroup(groupVersion: string): Promise<GroupDiscovery>;
  /** Throws ReadError (403) when the account may not get customresourcedefinitions. */
  getCrd(name: string): Promise<CrdAnnotations>;
  /** Throws ReadError (403) when the account may not list them. */
  listWebhooks(kind: WebhookKind): Promise<WebhookEntry[]>;
  reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]>;
  /** The operator's mutating webhook configuration (found: false on 404); ReadError 403 without get. */
  admissionConfiguration(): Promise<AdmissionConfiguration>;
  /** The apply-policy guard's policies with their bindings; ReadError 403 without list. */
  applyGuards(): Promise<ApplyGuardPolicy[]>;
  /** The Leases of one namespace; ReadError 403 without list. */
  leases(namespace: string): Promise<LeaseFacts[]>;
  /** One PtahRealm by name (found: false on 404); ReadError 403 without get, as tenants usually are. */
  realm(name: string): Promise<RealmFacts>;
  /** The approval policies and their bindings, specs as served; ReadError 403 without list. */
  approvalPolicies(): Promise<PolicySet>;
  /** One Deployment by name (the operator's manager; found: false on 404); ReadError 403 without get. */
  deployment(namespace: string, name: string): Promise<DeploymentFacts>;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").map(sanitize) : [];
}

function minorOf(text: unknown): number | undefined {
  // "32+" (vendor builds) counts as 32.
  const m = typeof text === "string" ? /^(\d+)/u.exec(text) : null;
  return m ? Number(m[1]) : undefined;
}

function targetOf(clientConfig: unknown): string | undefined {
  const c = (clientConfig ?? {}) as { url?: unknown; service?: { namespace?: unknown; name?: unknown; port?: unknown; path?: unknown } };
  if (typeof c.url === "string" && c.url !== "") return sanitize(c.url);
  const s = c.service;
  if (s && typeof s.name === "string" && s.name !== "") {
    const port = typeof s.port === "number" ? `:${s.port}` : "";
    const p = typeof s.path === "string" ? s.path : "";
    return sanitize(`service ${typeof s.namespace === "string" ? s.namespace : "?"}/${s.name}${port}${p}`);
  }
  return undefined;
}

export class HttpClusterInspector implements ClusterInspector {
  private readonly transport: Transport;
  private readonly reader: Pick<ClusterReader, "reviewAccess">;

  constructor(transport: Transport, reader: Pick<ClusterReader, "reviewAccess">) {
    this.transport = transport;
    this.reader = reader;
  }

  async serverVersion(): Promise<ServerVersion> {
    const d: RequestDescription = { verb: "get", resource: "/version", namespace: undefined };
    const res = await this.transport.get("/version");
    const v = okJson(res, d) as { gitVersion?: unknown; major?: unknown; minor?: unknown };
    const date = res.headers.date;
    return {
      gitVersion: typeof v.gitVersion === "string" ? sanitize(v.gitVersion) : "unknown",
      major: minorOf(v.major),
      minor: minorOf(v.minor),
      date: typeof date === "string" ? date : undefined,
    };
  }

  async discoverGroup(groupVersion: string): Promise<GroupDiscovery> {
    const res = await this.transport.get(`/apis/${groupVersion}`);
    if (res.status === 404) return { served: false, kinds: [] };
    const list = okJson(res, { verb: "get", resource: `/apis/${groupVersion}`, namespace: undefined }) as { resources?: { kind?: unknown; name?: unknown }[] };
    const kinds = (list.resources ?? []).filter((r) => typeof r.name === "string" && !r.name.includes("/") && typeof r.kind === "string").map((r) => sanitize(r.kind as string));
    return { served: true, kinds: [...new Set(kinds)].sort() };
  }

  async getCrd(name: string): Promise<CrdAnnotations> {
    const res = await this.transport.get(`${CRD_PATH}/${encodeURIComponent(name)}`);
    if (res.status === 404) return { name, found: false, annotations: {} };
    const crd = okJson(res, { verb: "get", resource: "customresourcedefinitions.apiextensions.k8s.io", namespace: undefined, name }) as {
      metadata?: { annotations?: Record<string, unknown> };
      status?: unknown;
    };
    const annotations: Record<string, string> = {};
    for (const [k, v] of Object.entries(crd.metadata?.annotations ?? {})) if (typeof v === "string") annotations[sanitize(k)] = sanitize(v);
    return { name, found: true, annotations, established: conditionOf(crd.status, "Established") };
  }

  async listWebhooks(kind: WebhookKind): Promise<WebhookEntry[]> {
    const plural = WEBHOOK_PLURAL[kind];
    const d: RequestDescription = { verb: "list", resource: `${plural}.admissionregistration.k8s.io`, namespace: undefined };
    const out: WebhookEntry[] = [];
    let token: string | undefined;
    do {
      const q = new URLSearchParams({ limit: "500", ...(token ? { continue: token } : {}) });
      const page = okJson(await this.transport.get(`${WEBHOOK_PATH}/${plural}?${q.toString()}`), d) as {
        items?: {
          metadata?: { name?: unknown };
          webhooks?: { name?: unknown; clientConfig?: unknown; rules?: { apiGroups?: unknown; resources?: unknown; operations?: unknown }[] }[];
        }[];
        metadata?: { continue?: string };
      };
      for (const item of page.items ?? []) {
        const configuration = typeof item.metadata?.name === "string" ? sanitize(item.metadata.name) : "?";
        for (const w of item.webhooks ?? []) {
          out.push({
            configuration,
            name: typeof w.name === "string" ? sanitize(w.name) : "?",
            target: targetOf(w.clientConfig),
            rules: (w.rules ?? []).map((r) => ({ groups: strings(r.apiGroups), resources: strings(r.resources), operations: strings(r.operations) })),
          });
        }
      }
      token = page.metadata?.continue || undefined;
    } while (token);
    return out;
  }

  reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
    return this.reader.reviewAccess(checks);
  }

  admissionConfiguration(): Promise<AdmissionConfiguration> {
    return getAdmissionConfiguration(this.transport);
  }

  applyGuards(): Promise<ApplyGuardPolicy[]> {
    return listApplyGuards(this.transport);
  }

  leases(namespace: string): Promise<LeaseFacts[]> {
    return listLeases(this.transport, namespace);
  }

  realm(name: string): Promise<RealmFacts> {
    return getRealm(this.transport, name);
  }

  approvalPolicies(): Promise<PolicySet> {
    return listApprovalPolicies(this.transport);
  }

  deployment(namespace: string, name: string): Promise<DeploymentFacts> {
    return getDeployment(this.transport, namespace, name);
  }
}
