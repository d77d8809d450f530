// approve binds what it verified only if the schema's last read still names it: the same plan
// name, the same plan UID, the same fingerprint, and the same schema object (UID). Each part is
// changed alone between the two schema reads (while the chunks are read), and each alone refuses.
import { describe, expect, it } from "vitest";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf } from "../../support/publish-plan.ts";
import { SCHEMA, plan1, plan2 } from "../../support/storefront-plans.ts";

/** The cluster, whose schema becomes `later` once the first chunk is read. */
function racing(later: Record<string, unknown>): FakeReader {
  const reader = new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema({ uid: SCHEMA.uid, plan: currentPlanStatus(plan1) }) },
    ...fakeObjectsOf(plan1),
    ...fakeObjectsOf(plan2),
  ]);
  let chunkReads = 0;
  reader.onRequest = (req, r) => {
    if (req.startsWith("get PtahSchemaPlanChunk") && ++chunkReads === 1) r.put("PtahSchema", later);
  };
  return reader;
}

describe("approve <schema>: the last schema read must name exactly the plan verified", () => {
  it("still names it: the manifest is printed (the race below changes one thing only)", async () => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], racing(awaitingSchema({ uid: SCHEMA.uid, plan: currentPlanStatus(plan1) })));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`planFingerprint: ${plan1.fingerprint}`);
  });

  it.each<[string, Record<string, unknown>]>([
    ["the plan recreated under the same name (another UID)", awaitingSchema({ uid: SCHEMA.uid, plan: { ...currentPlanStatus(plan1), uid: "recreated-plan-uid" } })],
    ["another fingerprint recorded for the same plan", awaitingSchema({ uid: SCHEMA.uid, plan: { ...currentPlanStatus(plan1), fingerprint: plan2.fingerprint } })],
    ["the schema recreated under the same name (another UID)", awaitingSchema({ uid: "schema-uid-recreated", plan: currentPlanStatus(plan1) })],
  ])("%s: refused, nothing printed", async (_name, later) => {
    const r = await runCliWith(["approve", "storefront", "-n", "app"], racing(later));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: the current plan of app/storefront moved while it was being verified (${plan1.name} → ${plan1.name}); read it again with kubectl ptah plan storefront -n app\n`,
    );
  });
});
