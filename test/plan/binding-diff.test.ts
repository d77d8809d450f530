// Which fingerprint inputs differ between two plans (and what an approval recorded), each with
// its meaning from the knowledge base.
import { describe, expect, it } from "vitest";
import { bindingInputTopic } from "../../src/explain/knowledge.ts";
import { PLAN_BINDING_INPUTS } from "../../src/model/binding-inputs.ts";
import { PtahSchemaApproval, PtahSchemaPlan } from "../../src/model/kinds.ts";
import { bindingValuesOfPlan, compareBindings, recordedBindingValuesOfApproval } from "../../src/plan/binding-diff.ts";
import { anApproval } from "../support/builders.ts";
import { publishApplied, publishCurrent } from "./fixtures.ts";

const planOf = (raw: Record<string, unknown>) => PtahSchemaPlan.parse(raw);

describe("compareBindings", () => {
  it("names every input that differs between the applied and the current plan, in the fingerprint's order", () => {
    const from = bindingValuesOfPlan(planOf(publishApplied().plan));
    const to = bindingValuesOfPlan(planOf(publishCurrent().plan));
    const c = compareBindings(from, to);
    expect(c.changed.map((x) => x.input)).toEqual(["contentDigest", "actualStateFingerprint", "desiredStateFingerprint", "privilegeChanges", "statementCount"]);
    expect(c.unchanged.length + c.changed.length).toBe(PLAN_BINDING_INPUTS.length);
    expect(c.notCompared).toEqual([]);
    expect(c.changed.find((x) => x.input === "privilegeChanges")).toEqual({ input: "privilegeChanges", from: [], to: ["FunctionReplacement", "Grant"] });
  });

  it("finds nothing changed between a plan and itself", () => {
    const v = bindingValuesOfPlan(planOf(publishCurrent().plan));
    expect(compareBindings(v, v)).toEqual({ changed: [], unchanged: [...PLAN_BINDING_INPUTS], notCompared: [] });
  });

  it.each([
    { name: "the newest approval (no copies)", copies: {}, compared: [] as string[] },
    {
      name: "an older approval with the webhook's binding copies",
      copies: { artifactDigest: "sha256:" + "0".repeat(64), actualStateFingerprint: "sha256:" + "a1".repeat(32), controllerStateVersion: 2, ptahVersion: "v0.3.0" },
      compared: ["artifactDigest", "actualStateFingerprint", "controllerStateVersion", "ptahVersion"],
    },
  ])("compares only what $name recorded", ({ copies, compared }) => {
    const raw = anApproval({ name: "storefront-v1" }) as Record<string, any>;
    Object.assign(raw.spec, copies);
    const recorded = recordedBindingValuesOfApproval(PtahSchemaApproval.parse(raw));
    expect(Object.keys(recorded).sort()).toEqual([...compared].sort());
    const c = compareBindings(recorded, bindingValuesOfPlan(planOf(publishCurrent().plan)));
    expect([...c.changed.map((x) => x.input), ...c.unchanged].sort()).toEqual([...compared].sort());
    expect(c.notCompared.length).toBe(PLAN_BINDING_INPUTS.length - compared.length);
  });
});

describe("the knowledge base on fingerprint inputs", () => {
  it.each(PLAN_BINDING_INPUTS.map((input) => ({ input })))("says what a change of $input means, in one line", ({ input }) => {
    const t = bindingInputTopic(input);
    expect(t.label).not.toBe("");
    for (const line of [t.meaning, t.moved]) {
      expect(line).not.toMatch(/\n|\.$/);
      expect(line.length).toBeLessThanOrEqual(110);
    }
  });

  it("says the database changed when the actual state fingerprint moved", () => {
    expect(bindingInputTopic("actualStateFingerprint").moved).toContain("the database changed since the old plan was computed");
  });
});
