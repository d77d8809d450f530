// The operator's admission as its chart renders it, as far as a client can read it, installed by
// the lab's manifests step:
// - MutatingWebhookConfiguration `ptah-operator-admission` with its release annotations (the
//   coordination namespace among them) and its entries: the three always present, and the two
//   writer entries exactly when four-eyes is on. PTAH_LAB_FOUR_EYES=on installs them (default
//   off); an e2e test may apply `admissionYaml(!on)` itself and put the default back. The entries
//   are inert here (the simulator serves the lab's real admission under its own configuration):
//   their namespaceSelector matches no namespace, their rules only a realm's DELETE, and
//   failurePolicy is Ignore.
// - Namespace `ptah-system`, the coordination namespace where realm Leases live.
// - The apply-policy guard: a ValidatingAdmissionPolicy labelled
//   app.kubernetes.io/component: apply-policy-guard with its exempt groups in a variable, and a
//   binding with validationActions [Deny]. So that no other test is refused, the binding acts only
//   in namespaces labelled lab.ptah.run/apply-policy-guard=enabled (a chart binds it everywhere).
export const ADMISSION_NAME = "ptah-operator-admission";
export const COORDINATION_NAMESPACE = "ptah-system";
export const GUARD_NAMESPACE_LABEL = "lab.ptah.run/apply-policy-guard";
export const GUARD_EXEMPT_GROUPS = ["ptah:apply-policy-admins", "system:masters"] as const;
export const GUARD_MESSAGE =
  "spec.policy.apply: Always applies plans without an approval, and this cluster reserves that choice for the groups that own apply policy. Use OnApproval, or ask an apply-policy administrator to make the change.";

/** Whether the lab installs four-eyes' writer entries (PTAH_LAB_FOUR_EYES=on). */
export function labFourEyes(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PTAH_LAB_FOUR_EYES === "on";
}

const ALWAYS = ["mapproval", "mmigrationapproval", "mmigrationrunacknowledgment"];
const WRITERS = ["mschemawriter", "mmigrationwriter"];

function entry(name: string): string {
  return [
    `- name: ${name}.operator.ptah.run`,
    "  admissionReviewVersions: [v1]",
    "  sideEffects: None",
    "  failurePolicy: Ignore",
    "  timeoutSeconds: 1",
    "  clientConfig: {url: 'https://127.0.0.1:1/never'}",
    "  namespaceSelector: {matchLabels: {lab.ptah.run/never: 'true'}}",
    // Rules no approval or spec write matches, so doctor's webhook rows keep judging the simulator's.
    "  rules: [{apiGroups: [operator.ptah.run], apiVersions: ['*'], operations: [DELETE], resources: [ptahrealms]}]",
  ].join("\n");
}

/** The configuration, with or without the writer entries. */
export function admissionYaml(fourEyes: boolean): string {
  const annotations = {
    "operator.ptah.run/release-name": "ptah",
    "operator.ptah.run/release-namespace": COORDINATION_NAMESPACE,
    "operator.ptah.run/coordination-namespace": COORDINATION_NAMESPACE,
    "operator.ptah.run/leader-election": "true",
    "operator.ptah.run/leader-election-id": "ptah-operator-leader",
    "operator.ptah.run/webhook-service-name": "ptah-operator-webhook",
  };
  return [
    "apiVersion: admissionregistration.k8s.io/v1",
    "kind: MutatingWebhookConfiguration",
    "metadata:",
    `  name: ${ADMISSION_NAME}`,
    "  annotations:",
    ...Object.entries(annotations).map(([k, v]) => `    ${k}: '${v}'`),
    "webhooks:",
    ...[...ALWAYS, ...(fourEyes ? WRITERS : [])].map(entry),
  ].join("\n");
}

const GUARD_YAML = `apiVersion: v1
kind: Namespace
metadata:
  name: ${COORDINATION_NAMESPACE}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ptah-apply-policy-guard
  labels:
    app.kubernetes.io/component: apply-policy-guard
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [operator.ptah.run]
      apiVersions: ["*"]
      operations: [CREATE, UPDATE]
      resources: [ptahschemas, ptahmigrations]
  variables:
  - name: exemptGroups
    expression: "[${GUARD_EXEMPT_GROUPS.map((g) => `'${g}'`).join(", ")}]"
  - name: wantsAlways
    expression: "has(object.spec.policy) && has(object.spec.policy.apply) && object.spec.policy.apply == 'Always'"
  - name: wasAlways
    expression: "oldObject != null && has(oldObject.spec.policy) && has(oldObject.spec.policy.apply) && oldObject.spec.policy.apply == 'Always'"
  validations:
  - expression: "!variables.wantsAlways || variables.wasAlways || request.userInfo.groups.exists(g, g in variables.exemptGroups)"
    message: "${GUARD_MESSAGE}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ptah-apply-policy-guard
spec:
  policyName: ptah-apply-policy-guard
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        ${GUARD_NAMESPACE_LABEL}: enabled
`;

/** Everything the manifests step applies for admission: the coordination namespace, the guard, the configuration. */
export function labAdmissionYaml(env: NodeJS.ProcessEnv = process.env): string {
  return `${GUARD_YAML}---\n${admissionYaml(labFourEyes(env))}\n`;
}
