// Requests the rendered approval policies refuse, one per validation, for the test that places
// every renderer message (policy-messages.test.ts): approval creates short of endorsements,
// outside the windows, inside each freeze, in a namespace without schemas, and each write of
// endorsement annotations one rule of the endorsements policy refuses. Names come from the caller
// (generated); the policies come from `policy render` through the one shell.
import { endorsementKey, ENDORSEMENT_PREFIX } from "../../src/approval/endorsement.ts";
import type { AdmissionRequest } from "../../src/approval/policy-judge.ts";
import type { PolicySet } from "../../src/approval/policy-set.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../src/model/spec-writer.ts";

export { rendered } from "../support/rendered-policies.ts";

/**
 * The policies with the authorizer's answer written in: the plugin's evaluator does not know
 * `authorizer` (it says "unknown" there), the API server asks RBAC. Only the expressions that ask
 * change; every message expression stays as rendered.
 */
export function withAuthorizer(set: PolicySet, mayUpdate: boolean): PolicySet {
  const answer = (spec: Readonly<Record<string, unknown>>) =>
    JSON.parse(JSON.stringify(spec).replace(/authorizer(?:\.[a-zA-Z]+\([^()]*\))+\.allowed\(\)/gu, String(mayUpdate))) as Record<string, unknown>;
  return { ...set, policies: set.policies.map((p) => ({ ...p, spec: answer(p.spec) })) };
}

export interface Names {
  readonly ns: string;
  readonly schema: string;
  readonly approval: string;
  readonly writer: string;
  readonly endorsers: readonly string[];
  readonly member: string;
  readonly outsider: string;
  readonly group: string;
}

const GVR = { group: "operator.ptah.run", version: "v1alpha1", namespaceLabels: undefined };
const FINGERPRINT = `sha256:${"ab12".repeat(16)}`;

export function schemaObject(n: Names, annotations: Record<string, string>, planned = true): Record<string, unknown> {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name: n.schema, namespace: n.ns, uid: "u-1", annotations: { [LAST_SPEC_WRITER_USERNAME]: n.writer, ...annotations } },
    spec: { desired: { ociRef: "registry.example/app:1" } },
    ...(planned ? { status: { plan: { fingerprint: FINGERPRINT, destructive: true, privilegeChanges: [{ role: "app" }] } } } : {}),
  };
}

export const currentKey = (): string => endorsementKey(FINGERPRINT);

/** An approval create of the schema (or a migration of that name), as `user`, at `at`. */
export function approvalCreate(n: Names, at: Date, params: readonly Record<string, unknown>[], migration = false): AdmissionRequest {
  return {
    ...GVR,
    resource: migration ? "ptahmigrationapprovals" : "ptahschemaapprovals",
    kind: migration ? "PtahMigrationApproval" : "PtahSchemaApproval",
    operation: "CREATE",
    namespace: n.ns,
    object: {
      apiVersion: "operator.ptah.run/v1alpha1",
      kind: migration ? "PtahMigrationApproval" : "PtahSchemaApproval",
      metadata: { name: n.approval, namespace: n.ns },
      spec: migration ? { migrationRef: { name: n.schema } } : { schemaRef: { name: n.schema } },
    },
    user: { username: n.member, groups: [] },
    at,
    params,
  };
}

function schemaWrite(n: Names, user: string, groups: readonly string[], object: Record<string, unknown>, oldObject?: Record<string, unknown>): AdmissionRequest {
  return {
    ...GVR,
    resource: "ptahschemas",
    kind: "PtahSchema",
    operation: oldObject === undefined ? "CREATE" : "UPDATE",
    namespace: n.ns,
    object,
    ...(oldObject === undefined ? {} : { oldObject }),
    user: { username: user, groups },
    at: new Date("2026-12-07T10:00:00Z"),
    params: [],
  };
}

/** Writes of endorsement annotations, in the order of the policy's rules: the n-th breaks the n-th rule first. */
export function endorsementWrites(n: Names): { readonly mayUpdate: boolean; readonly request: AdmissionRequest }[] {
  const key = currentKey();
  const first = n.endorsers[0]!;
  const old = schemaObject(n, { [key]: first });
  const withAnn = (o: Record<string, unknown>, annotations: Record<string, string>, spec?: unknown) => ({
    ...o,
    metadata: { ...(o.metadata as object), annotations },
    ...(spec === undefined ? {} : { spec }),
  });
  const oldAnn = (old.metadata as { annotations: Record<string, string> }).annotations;
  const adding = (value: string) => withAnn(old, { ...oldAnn, [key]: value });
  const member = (user: string) => [user, [n.group]] as const;
  const unplanned = schemaObject(n, {}, false);
  const unplannedAnn = (unplanned.metadata as { annotations: Record<string, string> }).annotations;
  return [
    { mayUpdate: true, request: schemaWrite(n, ...member(n.member), schemaObject(n, { [key]: n.member })) },
    { mayUpdate: false, request: schemaWrite(n, ...member(n.member), withAnn(old, oldAnn, { desired: { ociRef: "registry.example/app:2" } }), old) },
    { mayUpdate: true, request: schemaWrite(n, ...member(n.member), withAnn(old, { [LAST_SPEC_WRITER_USERNAME]: n.writer }), old) },
    { mayUpdate: true, request: schemaWrite(n, ...member(n.member), withAnn(old, { ...oldAnn, [key]: `${first},${n.member}` }, { desired: { ociRef: "x:2" } }), old) },
    { mayUpdate: false, request: schemaWrite(n, ...member(n.member), withAnn(unplanned, { ...unplannedAnn, [`${ENDORSEMENT_PREFIX}sha256-0`]: n.member }), unplanned) },
    { mayUpdate: false, request: schemaWrite(n, ...member(n.member), withAnn(old, { ...oldAnn, [`${ENDORSEMENT_PREFIX}sha256-other`]: n.member }), old) },
    { mayUpdate: false, request: schemaWrite(n, n.outsider, [], adding(`${first},${n.outsider}`), old) },
    { mayUpdate: false, request: schemaWrite(n, ...member(n.writer), adding(`${first},${n.writer}`), old) },
    { mayUpdate: false, request: schemaWrite(n, ...member(first), adding(`${first},${first}`), old) },
    { mayUpdate: false, request: schemaWrite(n, ...member(n.member), adding(`${first},${n.member}x`), old) },
  ];
}
