// doctor's permission check: the access reviews' answers against what each command form
// declares it needs (commands/shared/permissions.ts), one row per form, and the binding that fixes what
// is missing.
import { OFFLINE, RECOMMENDED_ROLES, describeRules, grants, ruleKey, type PermissionForm, type Rule } from "../shared/permissions.ts";
import { ok, problem, skipped, type Check } from "./doctor-report.ts";

/** Every distinct rule of the forms, in first-seen order: one access review each. */
export function rulesToReview(forms: readonly PermissionForm[]): Rule[] {
  const seen = new Map<string, Rule>();
  for (const f of forms) for (const r of f.rules) if (!seen.has(ruleKey(r))) seen.set(ruleKey(r), r);
  return [...seen.values()];
}

/** The one binding that fixes every missing rule, named with the command that creates it. */
function bindingFix(missing: readonly Rule[], namespace: string): string {
  const role = missing.every((r) => grants(RECOMMENDED_ROLES["ptah-viewer"], r)) ? "ptah-viewer" : "ptah-approver";
  const also = role === "ptah-approver" && missing.some((r) => r.verb !== "create") ? "; ptah-viewer alone fixes every command but the creates" : "";
  return `bind the ClusterRole ${role} (rbac/${role}.yaml${also}): kubectl create rolebinding <user>-${role} -n ${namespace} --clusterrole=${role} --user=<user>`;
}

/**
 * allowed: ruleKey → the access review's answer; an Error when the reviews could not be made.
 * One row per form, in the registry's order: permitted, what it misses, or that it needs no cluster.
 */
export function buildPermissionCheck(namespace: string, forms: readonly PermissionForm[], allowed: ReadonlyMap<string, boolean> | Error): Check {
  const name = "commands";
  if (allowed instanceof Error) return skipped("Permissions", name, `access reviews could not be made: ${allowed.message}`);
  const width = Math.max(...forms.map((f) => f.form.length));
  const rows: string[] = [];
  const missing = new Map<string, Rule>();
  let broken = 0;
  const cluster = forms.filter((f) => f.rules.length > 0 || f.note !== OFFLINE).length;
  for (const f of forms) {
    const lacking = f.rules.filter((r) => allowed.get(ruleKey(r)) !== true);
    for (const r of lacking) missing.set(ruleKey(r), r);
    if (lacking.length > 0) broken++;
    const verdict = lacking.length > 0 ? `missing ${describeRules(lacking, "")}` : f.rules.length === 0 && f.note === OFFLINE ? "needs no cluster" : "permitted";
    rows.push(`${f.form.padEnd(width)}  ${verdict}`);
  }
  if (broken === 0) return ok("Permissions", name, `every command form is permitted (${cluster} that read the cluster, ${forms.length - cluster} offline)`, rows);
  return problem("Permissions", name, `${broken} of ${forms.length} command forms are not permitted`, bindingFix([...missing.values()], namespace), rows);
}
