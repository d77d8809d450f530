// The lab's admission manifests (lab/admission.ts): the operator's mutating configuration with the
// writer entries exactly when PTAH_LAB_FOUR_EYES=on, its coordination-namespace annotation, and the
// apply-policy guard whose message is the one explain quotes.
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { labAdmissionYaml, GUARD_MESSAGE } from "../../lab/admission.ts";
import { APPLY_GUARD_REFUSAL } from "../../src/explain/topics/trap-topics.ts";

type Doc = {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  webhooks?: { name: string }[];
  spec?: Record<string, unknown>;
};
const docs = (env: NodeJS.ProcessEnv): Doc[] => yaml.loadAll(labAdmissionYaml(env)) as Doc[];

describe("lab admission manifests", () => {
  it("installs the writer entries only with PTAH_LAB_FOUR_EYES=on", () => {
    const names = (env: NodeJS.ProcessEnv) =>
      docs(env)
        .find((d) => d.kind === "MutatingWebhookConfiguration")!
        .webhooks!.map((w) => w.name);
    expect(names({})).toEqual(["mapproval.operator.ptah.run", "mmigrationapproval.operator.ptah.run", "mmigrationrunacknowledgment.operator.ptah.run"]);
    expect(names({ PTAH_LAB_FOUR_EYES: "on" })).toEqual([
      "mapproval.operator.ptah.run",
      "mmigrationapproval.operator.ptah.run",
      "mmigrationrunacknowledgment.operator.ptah.run",
      "mschemawriter.operator.ptah.run",
      "mmigrationwriter.operator.ptah.run",
    ]);
  });

  it("names the coordination namespace, and the guard's message is explain's", () => {
    const all = docs({});
    expect(all.find((d) => d.kind === "MutatingWebhookConfiguration")!.metadata.annotations!["operator.ptah.run/coordination-namespace"]).toBe("ptah-system");
    expect(all.find((d) => d.kind === "ValidatingAdmissionPolicy")!.metadata.labels).toEqual({ "app.kubernetes.io/component": "apply-policy-guard" });
    expect(all.find((d) => d.kind === "ValidatingAdmissionPolicyBinding")!.spec!.validationActions).toEqual(["Deny"]);
    expect(GUARD_MESSAGE).toBe(APPLY_GUARD_REFUSAL);
  });
});
