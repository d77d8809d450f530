// Publishes a schema plan into the lab the operator's way: plan spec → chunk objects owned by
// the plan (with the plan's real UID) → plan status Ready=Published with the chunks' real UIDs.
// Used by e2e tests that need a plan without the simulator (e.g. tampered or older plans).
import { condition, createObject, getObject, setStatus, type KubeObject } from "./lab.ts";
import { planRecordOf, publishSchemaPlan, type PublishPlanInput, type PublishedPlan } from "./publish-plan.ts";

export interface LabPlan {
  readonly published: PublishedPlan;
  readonly plan: KubeObject;
  readonly chunks: KubeObject[];
}

type Raw = Record<string, unknown>;

function withoutServerFields(raw: Raw): Raw {
  const meta = { ...(raw.metadata as Raw) };
  delete meta.uid;
  delete meta.resourceVersion;
  delete meta.creationTimestamp;
  delete meta.generation;
  const out: Raw = { ...raw, metadata: meta };
  delete out.status;
  return out;
}

/** `mutateChunk` may tamper with a chunk before it is created (tests of refusals). */
export function publishPlanInLab(input: PublishPlanInput, mutateChunk?: (chunk: Raw, index: number) => Raw): LabPlan {
  const published = publishSchemaPlan(input);
  const plan = createObject(withoutServerFields(published.plan) as KubeObject);
  const planUid = (plan.metadata as Raw).uid as string;
  const chunks = published.chunks.map((c, i) => {
    const raw = withoutServerFields(c);
    (raw.metadata as Raw).ownerReferences = [
      { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaPlan", name: published.name, uid: planUid, controller: true, blockOwnerDeletion: true },
    ];
    return createObject((mutateChunk ? mutateChunk(raw, i) : raw) as KubeObject);
  });
  const status = structuredClone((published.plan.status ?? {}) as Raw);
  status.publishedChunks = chunks.map((c, i) => ({ name: (c.metadata as Raw).name, uid: (c.metadata as Raw).uid, index: i }));
  status.observedGeneration = (plan.metadata as Raw).generation ?? 1;
  setStatus(plan, status);
  return { published, plan: getObject("PtahSchemaPlan", published.name, input.schema.namespace)!, chunks };
}

/** The schema's status.plan for this plan, with the UID the server gave it. */
export function labCurrentPlanStatus(p: LabPlan): Record<string, unknown> {
  return planRecordOf(p.plan as unknown as Raw);
}

/** A schema status waiting for an approval of this plan, as the operator writes it. */
export function labAwaitingStatus(p: LabPlan): Record<string, unknown> {
  return {
    observedGeneration: 1,
    phase: "AwaitingApproval",
    plan: labCurrentPlanStatus(p),
    conditions: [
      condition("PlanReady", "True", "Published", "Exact plan bytes are stored in immutable chunks", { observedGeneration: 1 }),
      condition("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint", { observedGeneration: 1 }),
      condition("Ready", "False", "AwaitingApproval", "The current plan requires a new approval", { observedGeneration: 1 }),
    ],
  };
}
