// The objects `policy render` prints: for each part the flags ask for, one
// ValidatingAdmissionPolicy and its binding (Deny), both labelled with POLICY_LABEL and named
// `<name>-<part>`. Nothing here is sent: the administrator reviews the text and applies it.
import { POLICY_LABEL, type PolicyPart } from "../../approval/endorsement.ts";
import { PTAH_API_VERSION, PTAH_GROUP } from "../../model/api.ts";
import { endorsementValidations, endorsementVariables, JUDGED } from "./policy-endorsement-cel.ts";
import {
  freezeValidation,
  freezeVariables,
  quorumAudit,
  quorumValidation,
  quorumVariables,
  timeAudit,
  windowValidation,
  windowVariables,
  type Validation,
  type Variable,
} from "./policy-cel.ts";
import type { PolicySpec } from "./policy-spec.ts";

const ADMISSION = "admissionregistration.k8s.io/v1";
const APPROVALS = ["ptahschemaapprovals", "ptahmigrationapprovals"];

interface Part {
  readonly part: PolicyPart;
  readonly resources: readonly string[];
  readonly operations: readonly string[];
  readonly variables: readonly Variable[];
  readonly validations: readonly Validation[];
  readonly audit?: string;
  readonly matchConditions?: readonly { name: string; expression: string }[];
  readonly params?: true;
}

function parts(spec: PolicySpec): Part[] {
  const out: Part[] = [];
  const glass = spec.breakglass;
  if (spec.quorum) {
    const q = spec.quorum;
    out.push({
      part: "quorum",
      resources: ["ptahschemaapprovals"],
      operations: ["CREATE"],
      variables: quorumVariables(q, glass),
      validations: [quorumValidation(q)],
      ...(glass === undefined ? {} : { audit: quorumAudit(q) }),
      params: true,
    });
    out.push({
      part: "endorsements",
      resources: ["ptahschemas"],
      operations: ["CREATE", "UPDATE"],
      variables: endorsementVariables(),
      validations: endorsementValidations(q.group),
      matchConditions: [{ name: "endorsements-or-endorsers", expression: JUDGED }],
    });
  }
  if (spec.windows.length > 0) {
    const variables = windowVariables(spec.windows, glass);
    out.push({
      part: "window",
      resources: APPROVALS,
      operations: ["CREATE"],
      variables,
      validations: [windowValidation(spec.windows, glass)],
      ...(glass === undefined ? {} : { audit: timeAudit("outside the change window", "!variables.open") }),
    });
  }
  if (spec.freezes.length > 0) {
    out.push({
      part: "freeze",
      resources: APPROVALS,
      operations: ["CREATE"],
      variables: freezeVariables(spec.freezes, glass),
      validations: spec.freezes.map((f) => freezeValidation(f, glass)),
      ...(glass === undefined ? {} : { audit: timeAudit("inside a freeze", "variables.frozen") }),
    });
  }
  return out;
}

function metadata(name: string, part: PolicyPart) {
  return { name, labels: { "app.kubernetes.io/managed-by": "kubectl-ptah", [POLICY_LABEL]: part } };
}

function policy(spec: PolicySpec, p: Part): Record<string, unknown> {
  return {
    apiVersion: ADMISSION,
    kind: "ValidatingAdmissionPolicy",
    metadata: metadata(`${spec.name}-${p.part}`, p.part),
    spec: {
      failurePolicy: "Fail",
      ...(p.params ? { paramKind: { apiVersion: PTAH_API_VERSION, kind: "PtahSchema" } } : {}),
      matchConstraints: {
        resourceRules: [{ apiGroups: [PTAH_GROUP], apiVersions: ["*"], operations: [...p.operations], resources: [...p.resources] }],
      },
      ...(p.matchConditions ? { matchConditions: p.matchConditions } : {}),
      variables: p.variables,
      validations: p.validations,
      ...(p.audit ? { auditAnnotations: [{ key: "breakglass", valueExpression: p.audit }] } : {}),
    },
  };
}

function binding(spec: PolicySpec, p: Part): Record<string, unknown> {
  const name = `${spec.name}-${p.part}`;
  return {
    apiVersion: ADMISSION,
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: metadata(name, p.part),
    spec: {
      policyName: name,
      validationActions: ["Deny"],
      // Every PtahSchema of the approval's namespace is a parameter; the policy judges the one the approval names.
      ...(p.params ? { paramRef: { selector: {}, parameterNotFoundAction: "Deny" } } : {}),
      ...(spec.namespaceLabels ? { matchResources: { namespaceSelector: { matchLabels: spec.namespaceLabels } } } : {}),
    },
  };
}

/** Every policy and binding the spec implies, each policy followed by its binding. */
export function policyObjects(spec: PolicySpec): Record<string, unknown>[] {
  return parts(spec).flatMap((p) => [policy(spec, p), binding(spec, p)]);
}
