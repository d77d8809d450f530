// The simulator's admission answers, against an in-memory API: the stamp (identity from the
// request, groups sorted and de-duplicated, mutationRequestUID = the review UID), and the
// contract's refusal messages in the contract's order.
import { describe, expect, it } from "vitest";
import { checkSchemaApproval, mutate, validate, type AdmissionRequest } from "./admission.ts";
import { coordinationDigest } from "./binding.ts";
import { sha256 } from "./catalog.ts";
import { MANAGER } from "./common.ts";
import { ApiError, resourcePath, type Kube, type Obj } from "./kube.ts";

const NS = "shop";
const FP = `sha256:${"f".repeat(64)}`;

function world(edit: (w: { schema: Obj; plan: Obj; policy: Obj }) => void = () => {}) {
  const schema: Obj = {
    metadata: { name: "storefront", namespace: NS, uid: "schema-uid", generation: 1 },
    spec: {
      target: { engine: "PostgreSQL", coordinationKey: "storefront", urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "vp", key: "policy.json" } },
    },
    status: {
      phase: "AwaitingApproval",
      source: { digest: "sha256:artifact" },
      plan: { name: "ptah-plan-1", uid: "plan-uid", fingerprint: FP },
      conditions: [{ type: "ApprovalRequired", status: "True", reason: "Waiting", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" }],
    },
  };
  const plan: Obj = {
    metadata: { name: "ptah-plan-1", namespace: NS, uid: "plan-uid", generation: 1 },
    spec: {
      contractVersion: 1,
      schemaRef: { name: "storefront", uid: "schema-uid" },
      fingerprint: FP,
      artifactDigest: "sha256:artifact",
      coordinationDigest: coordinationDigest(schema) as string,
      verificationPolicyUID: "vp-uid",
      verificationPolicyDigest: sha256("{}"),
      executionBindingID: MANAGER.executionBindingID,
      chunks: [{ name: "ptah-plan-1-000", index: 0 }],
    },
    status: {
      observedGeneration: 1,
      publishedChunks: [{ name: "ptah-plan-1-000", uid: "chunk-uid", index: 0 }],
      conditions: [{ type: "Ready", status: "True", reason: "Published", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" }],
    },
  };
  const policy: Obj = { metadata: { name: "vp", namespace: NS, uid: "vp-uid" }, immutable: true, data: { "policy.json": "{}" } };
  edit({ schema, plan, policy });
  const objects = new Map<string, Obj>([
    [resourcePath("ptahschemas", NS, "storefront"), schema],
    [resourcePath("ptahschemaplans", NS, "ptah-plan-1"), plan],
    [resourcePath("configmaps", NS, "vp", ""), policy],
  ]);
  const kube = {
    async request(_method: string, path: string) {
      const o = objects.get(path);
      if (!o) throw new ApiError(404, "not found", { message: `${path.split("/").pop()} not found` });
      return structuredClone(o);
    },
    async get(path: string) {
      const o = objects.get(path);
      return o ? structuredClone(o) : undefined;
    },
  } as unknown as Kube;
  return kube;
}

const spec = { schemaRef: { name: "storefront", uid: "schema-uid" }, planRef: { name: "ptah-plan-1", uid: "plan-uid" }, planFingerprint: FP };
const check = (kube: Kube, s: unknown = spec) => checkSchemaApproval(kube, NS, s, MANAGER.executionBindingID);

describe("schema approval binding", () => {
  it("admits an approval bound to the current plan of a schema awaiting approval", async () => {
    expect(await check(world())).toBeUndefined();
  });

  it.each<[string, unknown, (w: { schema: Obj; plan: Obj; policy: Obj }) => void, string]>([
    ["no schema UID", { ...spec, schemaRef: { name: "storefront" } }, () => {}, "approval must explicitly identify the schema name and UID"],
    ["no plan", { ...spec, planRef: { name: "x" } }, () => {}, "approval must explicitly identify the plan name and UID"],
    ["no fingerprint", { ...spec, planFingerprint: "" }, () => {}, "approval must explicitly identify the plan fingerprint"],
    ["a replaced plan", spec, (w) => (w.plan.metadata.uid = "other"), "referenced plan UID does not match; the plan was replaced"],
    ["another fingerprint", { ...spec, planFingerprint: `sha256:${"0".repeat(64)}` }, () => {}, "approval plan fingerprint does not match the immutable plan"],
    ["unpublished chunks", spec, (w) => (w.plan.status.publishedChunks = []), "referenced plan storage is not ready"],
    [
      "a plan that is no longer current",
      spec,
      (w) => (w.schema.status.plan = { name: "ptah-plan-2", uid: "u2", fingerprint: FP }),
      "referenced plan is no longer current for the schema",
    ],
    ["a blocked schema", spec, (w) => (w.schema.status.phase = "Blocked"), "referenced schema is not awaiting approval"],
    ["an approval already recorded", spec, (w) => (w.schema.status.plan.approval = { name: "first" }), "referenced plan already has a recorded approval"],
    ["a replaced verification policy", spec, (w) => (w.policy.metadata.uid = "vp-2"), "verification policy changed after the plan was generated"],
  ])("refuses %s", async (_what, s, edit, message) => {
    expect(await check(world(edit), s)).toEqual({ code: 403, message });
  });

  it("answers a missing plan with 404 and the read error", async () => {
    const r = await check(world(), { ...spec, planRef: { name: "gone", uid: "u" } });
    expect(r?.code).toBe(404);
    expect(r?.message).toMatch(/^read referenced plan: /);
  });
});

function review(operation: "CREATE" | "UPDATE", object: Obj, oldObject?: Obj): AdmissionRequest {
  return {
    uid: "review-uid",
    kind: { group: "operator.ptah.run", version: "v1alpha1", kind: "PtahSchemaApproval" },
    resource: { group: "operator.ptah.run", version: "v1alpha1", resource: "ptahschemaapprovals" },
    namespace: NS,
    operation,
    userInfo: { username: "alice", groups: ["system:authenticated", " admins ", "admins"] },
    object,
    ...(oldObject ? { oldObject } : {}),
  };
}

describe("webhook passes", () => {
  it("stamps the requesting user, replacing client values", async () => {
    const object: Obj = { metadata: { name: "a", namespace: NS }, spec: { ...spec, approver: { username: "mallory" } } };
    const r = await mutate(world(), review("CREATE", object), MANAGER.executionBindingID);
    expect(r.allowed).toBe(true);
    const patch = JSON.parse(Buffer.from(r.patch!, "base64").toString("utf8")) as Array<{ path: string; value: unknown }>;
    expect(patch.find((p) => p.path === "/spec/approver")?.value).toEqual({ username: "alice", groups: ["admins", "system:authenticated"] });
    expect(patch.find((p) => p.path === "/spec/mutationRequestUID")?.value).toBe("review-uid");
  });

  it("refuses, in the validating pass, a stamp that is not the requesting user's", async () => {
    const object: Obj = {
      metadata: { name: "a", namespace: NS },
      spec: { ...spec, approver: { username: "mallory", groups: [] }, approvedAt: "2026-01-01T00:00:00Z", mutationRequestUID: "x" },
    };
    const r = await validate(world(), review("CREATE", object), MANAGER.executionBindingID);
    expect(r.status?.message).toBe("reserved approver identity fields do not match the authenticated request");
  });

  it("allows metadata-only updates and refuses spec changes", async () => {
    const old: Obj = { metadata: { name: "a", namespace: NS }, spec };
    expect((await mutate(world(), review("UPDATE", { ...old, metadata: { ...old.metadata, labels: { a: "b" } } }, old), "")).allowed).toBe(true);
    const changed = await mutate(world(), review("UPDATE", { ...old, spec: { ...spec, planFingerprint: "sha256:0" } }, old), "");
    expect(changed).toMatchObject({ allowed: false, status: { message: "approval spec is immutable; create a new approval" } });
  });
});
