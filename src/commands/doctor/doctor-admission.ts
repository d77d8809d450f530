// doctor's reading of the operator's admission, exactly: whether four-eyes is on (the writer
// entries of ptah-operator-admission) and the apply-policy guard (the ValidatingAdmissionPolicy
// labelled as it, its binding's Deny, its exempt groups, and whether you are in one of them).
// Each read is optional: refused, the row is skipped and names the read; four-eyes then falls
// back to the spec-writer inference, said to be one.
import type { AdmissionConfiguration, ApplyGuardPolicy, Identity } from "../../kube/types.ts";
import { sanitize } from "../../render/sanitize.ts";
import { COORDINATION_NAMESPACE_ANNOTATION, switchOf, WRITER_ENTRIES } from "../shared/four-eyes-switch.ts";
import type { Outcome } from "./doctor-connection.ts";
import { ok, skipped, type Check } from "./doctor-report.ts";

const SWITCH = "four-eyes";
const GUARD = "apply-policy guard";
const LABEL = "app.kubernetes.io/component=apply-policy-guard";

/** On or off from the configuration's entries; refused or absent: the spec-writer row's inference, labelled. */
export function fourEyesCheck(admission: Outcome<AdmissionConfiguration>, inference: Check): Check {
  if (admission.kind !== "value") {
    const why = admission.kind === "forbidden" ? `may not get mutatingwebhookconfigurations/ptah-operator-admission (${admission.message})` : admission.message;
    return skipped("Operator", SWITCH, `not read: ${why}; inferred instead: ${inference.summary}`);
  }
  const s = switchOf(admission.value);
  if (s.kind === "inferred") return skipped("Operator", SWITCH, `not read: ${s.why}; inferred instead: ${inference.summary}`);
  const coordination = admission.value.annotations[COORDINATION_NAMESPACE_ANNOTATION];
  const details = coordination ? [`realm Leases live in ${coordination} (its ${COORDINATION_NAMESPACE_ANNOTATION} annotation)`] : [];
  const entries = WRITER_ENTRIES.join(" and ");
  return s.kind === "on"
    ? ok("Operator", SWITCH, `on: ptah-operator-admission has ${entries}; admission refuses an approval by the last spec writer`, details)
    : ok("Operator", SWITCH, `off: ptah-operator-admission lacks ${entries}; nobody's own approval is refused`, details);
}

function exemption(policy: ApplyGuardPolicy, me: Outcome<Identity> | undefined): string {
  if (me?.kind !== "value") return `whether you are exempt is unknown (SelfSubjectReview: ${me?.message ?? "not asked"})`;
  const mine = policy.exemptGroups.filter((g) => me.value.groups.includes(g));
  return mine.length > 0
    ? `you (${sanitize(me.value.username)}) are exempt, by group ${mine.map(sanitize).join(", ")}`
    : `you (${sanitize(me.value.username)}) are not exempt: admission refuses your change of spec.policy.apply to Always`;
}

/** The guard: absent, installed without a Deny binding, or in force (with its exempt groups and you). */
export function applyGuardCheck(guards: Outcome<ApplyGuardPolicy[]>, me: Outcome<Identity> | undefined): Check {
  if (guards.kind === "forbidden") return skipped("Operator", GUARD, `may not list validatingadmissionpolicies and their bindings (cluster scope): ${guards.message}`);
  if (guards.kind === "error") return skipped("Operator", GUARD, `not read: ${guards.message}`);
  if (guards.value.length === 0) {
    return ok("Operator", GUARD, `none: no ValidatingAdmissionPolicy labelled ${LABEL}; whoever may edit a schema or migration may set spec.policy.apply: Always`);
  }
  const lines = guards.value.map((p) => {
    const deny = p.bindings.filter((b) => b.actions.includes("Deny"));
    const exempt = p.exemptGroups.length > 0 ? p.exemptGroups.map(sanitize).join(", ") : "none found";
    if (deny.length === 0) {
      const bound = p.bindings.length === 0 ? "no binding names it" : `its bindings only ${[...new Set(p.bindings.flatMap((b) => b.actions))].join(", ") || "name it"}`;
      return { inForce: false, text: `${sanitize(p.name)}: not in force (${bound}); exempt groups: ${exempt}` };
    }
    return { inForce: true, text: `${sanitize(p.name)}, binding ${deny.map((b) => sanitize(b.name)).join(", ")} [Deny]; exempt groups: ${exempt}; ${exemption(p, me)}` };
  });
  const inForce = lines.filter((l) => l.inForce);
  const summary = inForce.length > 0 ? `in force: ${inForce[0]!.text}` : `installed, not in force: ${lines[0]!.text}`;
  return ok("Operator", GUARD, summary, [...lines.filter((l) => l !== (inForce[0] ?? lines[0])).map((l) => l.text)]);
}
