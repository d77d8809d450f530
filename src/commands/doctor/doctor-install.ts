// Upstream's "confirm it installed", as doctor's rows: every Ptah CRD `Established=True`, and the
// manager Deployment `Available=True`. The Deployment is the one the operator's admission
// configuration names (its release-namespace and controller-deployment-name annotations, which
// upstream's chart stamps); without those annotations, or without get on it, the row is skipped
// and says why — a plugin never guesses another release's Deployment by name.
import type { AdmissionConfiguration, CrdAnnotations, DeploymentFacts } from "../../kube/types.ts";
import { PTAH_GROUP } from "../../model/api.ts";
import type { Outcome } from "./doctor-connection.ts";
import { ok, problem, skipped, type Check } from "./doctor-report.ts";

export const RELEASE_NAMESPACE_ANNOTATION = `${PTAH_GROUP}/release-namespace`;
export const DEPLOYMENT_ANNOTATION = `${PTAH_GROUP}/controller-deployment-name`;

const ESTABLISHED = "CRDs established";
const MANAGER = "manager";

function words(c: { status: string; reason: string | undefined; message: string | undefined } | undefined, type: string): string {
  if (!c) return `no ${type} condition`;
  return `${type}=${c.status}${c.reason ? ` (${c.reason})` : ""}${c.message ? `: ${c.message}` : ""}`;
}

/** Every served Ptah CRD reports Established=True; undefined `crds`: none is served (the kinds row says so). */
export function establishedCheck(crds: Outcome<readonly CrdAnnotations[]> | undefined): Check {
  if (crds === undefined) return skipped("API", ESTABLISHED, "no Ptah CRD is served");
  if (crds.kind === "forbidden") return skipped("API", ESTABLISHED, "the account may not get customresourcedefinitions (cluster scope)");
  if (crds.kind === "error") return skipped("API", ESTABLISHED, `not read: ${crds.message}`);
  const found = crds.value.filter((c) => c.found);
  if (found.length === 0) return skipped("API", ESTABLISHED, "no Ptah CRD is installed");
  const not = found.filter((c) => c.established?.status !== "True");
  if (not.length === 0) return ok("API", ESTABLISHED, `all ${found.length} Ptah CRDs report Established=True`);
  return problem(
    "API",
    ESTABLISHED,
    `${not.length} of ${found.length} Ptah CRDs are not established`,
    "the API server has not accepted their names yet (a conflict with another CRD, or still installing): kubectl get crd NAME -o yaml shows the condition's message",
    not.map((c) => `${c.name}: ${words(c.established, "Established")}`),
  );
}

/** Where the admission configuration names the manager Deployment: its namespace and name. */
export function managerDeploymentOf(admission: Outcome<AdmissionConfiguration>): { namespace: string; name: string } | undefined {
  if (admission.kind !== "value" || !admission.value.found) return undefined;
  const namespace = admission.value.annotations[RELEASE_NAMESPACE_ANNOTATION];
  const name = admission.value.annotations[DEPLOYMENT_ANNOTATION];
  return namespace && name ? { namespace, name } : undefined;
}

/** The manager Deployment Available=True, where the admission configuration names it and it may be read. */
export function managerCheck(admission: Outcome<AdmissionConfiguration>, deployment: Outcome<DeploymentFacts> | undefined): Check {
  if (admission.kind === "forbidden")
    return skipped("Operator", MANAGER, "may not get mutatingwebhookconfigurations/ptah-operator-admission, which names the manager's Deployment");
  if (admission.kind === "error") return skipped("Operator", MANAGER, `ptah-operator-admission, which names the manager's Deployment, was not read: ${admission.message}`);
  if (!admission.value.found) return skipped("Operator", MANAGER, "no ptah-operator-admission configuration names the manager's Deployment");
  if (deployment === undefined) {
    return skipped(
      "Operator",
      MANAGER,
      `ptah-operator-admission carries no ${RELEASE_NAMESPACE_ANNOTATION} and ${DEPLOYMENT_ANNOTATION} annotations (an older chart), so the Deployment is not known`,
    );
  }
  const at = managerDeploymentOf(admission);
  const named = at ? `deployment ${at.namespace}/${at.name}` : "the manager's deployment";
  if (deployment.kind === "forbidden") return skipped("Operator", MANAGER, `may not get ${named}: ${deployment.message}`);
  if (deployment.kind === "error") return skipped("Operator", MANAGER, `not read: ${deployment.message}`);
  const d = deployment.value;
  if (!d.found)
    return problem("Operator", MANAGER, `${named} does not exist`, "install or repair the Ptah operator: ptah-operator-admission names a manager Deployment that is not there");
  if (d.available?.status === "True") return ok("Operator", MANAGER, `${named} is Available`);
  return problem(
    "Operator",
    MANAGER,
    `${named} is not Available: ${words(d.available, "Available")}`,
    `kubectl -n ${d.namespace} describe deployment ${d.name}: image pull secrets for the manager's image are a common cause`,
  );
}
