// In-memory ClusterInspector for doctor: a server version with its Date header, discovery of the
// Ptah group, CRD annotations, webhook configurations and access reviews, each switchable to a
// 403 or absent. Records every call like FakeReader.
import { NotFoundError, ReadError } from "../../src/errors.ts";
import type {
  AccessAnswer,
  AccessCheck,
  AdmissionConfiguration,
  ApplyGuardPolicy,
  ClusterInspector,
  CrdAnnotations,
  DeploymentFacts,
  GroupDiscovery,
  LeaseFacts,
  RealmFacts,
  ServerVersion,
  WebhookEntry,
  WebhookKind,
} from "../../src/kube/types.ts";
import { KINDS } from "../../src/model/parse.ts";
import type { PolicySet } from "../../src/kube/admission-reads.ts";

export const ALL_PTAH_KINDS: readonly string[] = Object.values(KINDS)
  .filter((k) => k.group)
  .map((k) => k.kind);

/** The newest generation's annotations. */
export const NEWEST_GENERATION = {
  "operator.ptah.run/crd-schema-version": "1",
  "operator.ptah.run/controller-state-version": "1",
  "operator.ptah.run/crd-schema-digest": "sha256:00",
};

function operatorWebhooks(kind: WebhookKind): WebhookEntry[] {
  const prefix = kind === "mutating" ? "m" : "v";
  return [
    ["approval", "ptahschemaapprovals"],
    ["migrationapproval", "ptahmigrationapprovals"],
    ["runacknowledgment", "ptahmigrationrunacknowledgments"],
  ].map(([name, resource]) => ({
    configuration: `ptah-operator-${kind}`,
    name: `${prefix}${name}.operator.ptah.run`,
    target: `service ptah-system/ptah-operator-webhook:443/${kind === "mutating" ? "mutate" : "validate"}`,
    rules: [{ groups: ["operator.ptah.run"], resources: [resource!], operations: ["CREATE", "UPDATE"] }],
  }));
}

const FORBIDDEN = (what: string): ReadError => new ReadError(`User "alice" cannot ${what} at the cluster scope`, 403);

export class FakeInspector implements ClusterInspector {
  readonly requests: string[] = [];
  version: ServerVersion | Error = { gitVersion: "v1.33.13", major: 1, minor: 33, date: "Mon, 30 Nov 2026 12:00:01 GMT" };
  /** Served kinds; undefined: the group is not served at all (404). */
  kinds: readonly string[] | undefined = ALL_PTAH_KINDS;
  /** Annotations of every CRD, per CRD name to override; "forbidden" for a 403. */
  crds: Record<string, Record<string, string>> | "forbidden" = {};
  crdDefault: Record<string, string> = NEWEST_GENERATION;
  /** Each CRD's Established condition, per CRD name to override (default True, as the API server sets it). */
  established: Record<string, CrdAnnotations["established"]> = {};
  /** The Deployments by "namespace/name" (absent: 404); "forbidden" for a 403. */
  deployments: Record<string, Omit<DeploymentFacts, "namespace" | "name" | "found">> | "forbidden" = {
    "ptah-system/ptah-operator": { available: { status: "True", reason: "MinimumReplicasAvailable", message: "Deployment has minimum availability." } },
  };
  webhooks: Record<WebhookKind, WebhookEntry[] | "forbidden"> = { mutating: operatorWebhooks("mutating"), validating: operatorWebhooks("validating") };
  allow: (check: AccessCheck) => boolean = () => true;
  /** The operator's mutating configuration (four-eyes off): undefined = absent (404), "forbidden" = 403. */
  admission: AdmissionConfiguration | "forbidden" | undefined = {
    found: true,
    name: "ptah-operator-admission",
    webhookNames: ["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"],
    annotations: {
      "operator.ptah.run/coordination-namespace": "ptah-system",
      "operator.ptah.run/release-namespace": "ptah-system",
      "operator.ptah.run/controller-deployment-name": "ptah-operator",
      "operator.ptah.run/release-name": "ptah",
      "operator.ptah.run/release-sequence": "7",
    },
  };
  guards: ApplyGuardPolicy[] | "forbidden" | "unserved" = [];
  /** The approval policies and bindings served; "forbidden" for a 403. */
  policySet: PolicySet | "forbidden" = { policies: [], bindings: [] };
  /** Leases per namespace; "forbidden" for a 403. */
  leaseTable: Record<string, LeaseFacts[]> | "forbidden" = {};
  /** PtahRealms by name (absent: 404); "forbidden" for a 403, as a tenant is answered. */
  realms: Record<string, Omit<RealmFacts, "name" | "found">> | "forbidden" = {};

  async serverVersion(): Promise<ServerVersion> {
    this.requests.push("get /version");
    if (this.version instanceof Error) throw this.version;
    return this.version;
  }

  async discoverGroup(groupVersion: string): Promise<GroupDiscovery> {
    this.requests.push(`get /apis/${groupVersion}`);
    return this.kinds === undefined ? { served: false, kinds: [] } : { served: true, kinds: [...this.kinds].sort() };
  }

  async getCrd(name: string): Promise<CrdAnnotations> {
    this.requests.push(`get crd ${name}`);
    if (this.crds === "forbidden") throw FORBIDDEN(`get resource "customresourcedefinitions" in API group "apiextensions.k8s.io"`);
    const established = name in this.established ? this.established[name] : { status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" };
    return { name, found: true, annotations: this.crds[name] ?? this.crdDefault, established };
  }

  async deployment(namespace: string, name: string): Promise<DeploymentFacts> {
    this.requests.push(`get deployments.apps ${namespace}/${name}`);
    if (this.deployments === "forbidden")
      throw new ReadError(`deployments.apps "${name}" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" in the namespace "${namespace}"`, 403);
    const d = this.deployments[`${namespace}/${name}`];
    return d ? { namespace, name, found: true, ...d } : { namespace, name, found: false, available: undefined };
  }

  async listWebhooks(kind: WebhookKind): Promise<WebhookEntry[]> {
    this.requests.push(`list ${kind}webhookconfigurations`);
    const hooks = this.webhooks[kind];
    if (hooks === "forbidden") throw FORBIDDEN(`list resource "${kind}webhookconfigurations" in API group "admissionregistration.k8s.io"`);
    return hooks;
  }

  async admissionConfiguration(): Promise<AdmissionConfiguration> {
    this.requests.push("get mutatingwebhookconfigurations/ptah-operator-admission");
    if (this.admission === "forbidden") throw FORBIDDEN(`get resource "mutatingwebhookconfigurations" in API group "admissionregistration.k8s.io"`);
    return this.admission ?? { found: false, name: "ptah-operator-admission", webhookNames: [], annotations: {} };
  }

  async applyGuards(): Promise<ApplyGuardPolicy[]> {
    this.requests.push("list validatingadmissionpolicies");
    if (this.guards === "forbidden") throw FORBIDDEN(`list resource "validatingadmissionpolicies" in API group "admissionregistration.k8s.io"`);
    if (this.guards === "unserved") throw new NotFoundError("the server could not find the requested resource (get validatingadmissionpolicies.admissionregistration.k8s.io)");
    return this.guards;
  }

  async leases(namespace: string): Promise<LeaseFacts[]> {
    this.requests.push(`list leases -n ${namespace}`);
    if (this.leaseTable === "forbidden")
      throw new ReadError(
        `leases.coordination.k8s.io is forbidden: User "alice" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "${namespace}"`,
        403,
      );
    return this.leaseTable[namespace] ?? [];
  }

  async realm(name: string): Promise<RealmFacts> {
    this.requests.push(`get ptahrealms/${name}`);
    if (this.realms === "forbidden")
      throw new ReadError(
        `ptahrealms.operator.ptah.run "${name}" is forbidden: User "alice" cannot get resource "ptahrealms" in API group "operator.ptah.run" at the cluster scope`,
        403,
      );
    const r = this.realms[name];
    return r ? { name, found: true, ...r } : { name, found: false, engine: undefined, sharing: undefined, namespaces: [] };
  }

  async approvalPolicies(): Promise<PolicySet> {
    this.requests.push("list validatingadmissionpolicies -l ptah.run/approval-policy");
    if (this.policySet === "forbidden") throw FORBIDDEN(`list resource "validatingadmissionpolicies" in API group "admissionregistration.k8s.io"`);
    return this.policySet;
  }

  async reviewAccess(checks: readonly AccessCheck[]): Promise<AccessAnswer[]> {
    this.requests.push(`create selfsubjectaccessreviews ×${checks.length}`);
    return checks.map((check) => ({ check, allowed: this.allow(check), reason: undefined }));
  }
}

/** Access as the lab's identities have it: the recommended roles bound in every namespace. */
export const ACCESS = {
  admin: () => true,
  viewer: (c: AccessCheck) => c.verb !== "create",
  approver: () => true,
  nobody: () => false,
} as const;
