// doctor's reading of the approval policies (`kubectl ptah policy render`'s, found by their label):
// each policy with the bindings that name it and their actions, and a warning for a policy no
// binding names (it enforces nothing), a binding without Deny (it refuses nothing), and a labelled
// binding whose policy is gone (an administrator deleted it: nothing it bound is enforced).
import { unpaired, type PolicySet } from "../../approval/policy-set.ts";
import { APPROVAL_POLICY_LABEL } from "../../model/api.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { Outcome } from "./doctor-connection.ts";
import { ok, skipped, warning, type Check } from "./doctor-report.ts";

const NAME = "approval policies";

export function approvalPolicyCheck(policies: Outcome<PolicySet>): Check {
  if (policies.kind === "forbidden") return skipped("Operator", NAME, `may not list validatingadmissionpolicies and their bindings (cluster scope): ${policies.message}`);
  if (policies.kind === "error") return skipped("Operator", NAME, `not read: ${policies.message}`);
  const set = policies.value;
  const { unbound, orphaned } = unpaired(set);
  if (set.policies.length === 0 && orphaned.length === 0) {
    return ok(
      "Operator",
      NAME,
      `none: no ValidatingAdmissionPolicy labelled ${APPROVAL_POLICY_LABEL}; approvals are judged by the operator's admission alone (kubectl ptah policy render prints some)`,
    );
  }
  const lines = set.policies.map((p) => {
    const bindings = set.bindings.filter((b) => b.policyName === p.name);
    const actions = (b: (typeof bindings)[number]) => (Array.isArray(b.spec.validationActions) ? b.spec.validationActions.filter((a): a is string => typeof a === "string") : []);
    const bound = bindings.map((b) => `${sanitize(b.name)} [${actions(b).map(sanitize).join(", ") || "no action"}]`).join(", ");
    return `${sanitize(p.name)} (${sanitize(p.part || "no part")}): ${bound ? `bound by ${bound}` : "no binding names it"}`;
  });
  const noDeny = set.bindings.filter((b) => !(Array.isArray(b.spec.validationActions) && b.spec.validationActions.includes("Deny"))).map((b) => b.name);
  const trouble = [
    ...unbound.map((n) => `policy ${sanitize(n)} has no binding: it enforces nothing`),
    ...orphaned.map((n) => `binding ${sanitize(n)} names a policy that is gone: what it bound is not enforced`),
    ...noDeny.map((n) => `binding ${sanitize(n)} does not Deny: it refuses nothing`),
  ];
  const enforced = set.policies.filter((p) => set.bindings.some((b) => b.policyName === p.name && !noDeny.includes(b.name))).length;
  const summary = `${enforced} of ${set.policies.length} in force`;
  return trouble.length > 0 ? warning("Operator", NAME, `${summary}; ${trouble.join("; ")}`, lines) : ok("Operator", NAME, summary, lines);
}
