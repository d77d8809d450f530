// The approval policies `kubectl ptah policy render` prints for some flags, through the one shell,
// as the plugin reads them back from a cluster (a PolicySet): for the tests that evaluate them.
import type { PolicySet } from "../../src/approval/policy-set.ts";
import { runCliWith } from "./cli.ts";

export async function rendered(flags: readonly string[]): Promise<PolicySet> {
  const r = await runCliWith(["policy", "render", "-o", "json", ...flags], undefined);
  if (r.status !== 0) throw new Error(r.stderr);
  const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; labels: Record<string, string> }; spec: Record<string, unknown> }[] }).items;
  return {
    policies: items
      .filter((o) => o.kind === "ValidatingAdmissionPolicy")
      .map((o) => ({ name: o.metadata.name, part: o.metadata.labels["ptah.run/approval-policy"] ?? "", spec: o.spec })),
    bindings: items
      .filter((o) => o.kind === "ValidatingAdmissionPolicyBinding")
      .map((o) => ({ name: o.metadata.name, policyName: String(o.spec.policyName), labelled: true, spec: o.spec })),
  };
}
