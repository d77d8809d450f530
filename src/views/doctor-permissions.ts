// doctor's permission check: the README's RBAC table as data (what each command needs in the
// namespace), the two recommended ClusterRoles (rbac/), and the verdict from the access reviews.
import { PTAH_GROUP } from "../model/api.ts";
import { ok, problem, skipped, type Check } from "./doctor-report.ts";

export type Verb = "get" | "list" | "watch" | "create";

export interface Rule {
  readonly verb: Verb;
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
}

const ptah = (verb: Verb, ...resources: string[]): Rule[] => resources.map((resource) => ({ verb, group: PTAH_GROUP, resource }));
const events = (...verbs: Verb[]): Rule[] => verbs.map((verb) => ({ verb, group: "", resource: "events" }));

const PLAN = ptah("get", "ptahschemas", "ptahschemaplans", "ptahschemaplanchunks");
const MIGRATION = ptah("get", "ptahmigrations", "ptahmigrationplans");

/** What each command of the README's RBAC table needs, namespaced (offline commands need nothing). */
export const COMMAND_RULES: readonly { readonly command: string; readonly rules: readonly Rule[] }[] = [
  { command: "status", rules: ptah("list", "ptahschemas", "ptahmigrations", "ptahschemaapprovals") },
  { command: "status SCHEMA", rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaapprovals")] },
  {
    command: "status --watch",
    rules: [...ptah("list", "ptahschemas", "ptahmigrations", "ptahschemaapprovals"), ...ptah("watch", "ptahschemas", "ptahmigrations", "ptahschemaapprovals")],
  },
  { command: "schema", rules: ptah("get", "ptahschemas") },
  { command: "plan", rules: PLAN },
  { command: "migration", rules: MIGRATION },
  { command: "approve SCHEMA", rules: PLAN },
  { command: "approve SCHEMA --dry-run=server", rules: [...PLAN, ...ptah("create", "ptahschemaapprovals")] },
  { command: "approve SCHEMA | kubectl create -f -", rules: [...PLAN, ...ptah("create", "ptahschemaapprovals")] },
  { command: "approve migration", rules: MIGRATION },
  { command: "approve migration --dry-run=server", rules: [...MIGRATION, ...ptah("create", "ptahmigrationapprovals")] },
  { command: "acknowledge", rules: ptah("get", "ptahmigrations") },
  { command: "acknowledge --dry-run=server", rules: ptah("get", "ptahmigrations").concat(ptah("create", "ptahmigrationrunacknowledgments")) },
  { command: "approvals", rules: ptah("list", "ptahschemaapprovals", "ptahschemas", "ptahmigrationapprovals", "ptahmigrations") },
  { command: "wait", rules: [...ptah("list", "ptahschemas", "ptahmigrations", "ptahschemaapprovals"), ...ptah("watch", "ptahschemas", "ptahmigrations", "ptahschemaapprovals")] },
  {
    command: "history",
    rules: [
      ...ptah("get", "ptahschemas", "ptahmigrations"),
      ...ptah("list", "ptahschemaplans", "ptahschemaapprovals", "ptahmigrationplans", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"),
      ...events("list"),
    ],
  },
  {
    command: "explain SCHEMA|approval|migration",
    rules: [...ptah("get", "ptahschemas", "ptahschemaapprovals", "ptahmigrations"), ...ptah("list", "ptahschemaapprovals", "ptahmigrationapprovals"), ...events("list")],
  },
];

const READS: readonly Verb[] = ["get", "list", "watch"];
const KINDS = [
  "ptahschemas",
  "ptahschemaplans",
  "ptahschemaplanchunks",
  "ptahschemaapprovals",
  "ptahmigrations",
  "ptahmigrationplans",
  "ptahmigrationapprovals",
  "ptahmigrationrunacknowledgments",
  "ptahrealms",
];
const VIEWER: readonly Rule[] = [...READS.flatMap((v) => ptah(v, ...KINDS)), ...events(...READS), ...READS.map((verb) => ({ verb, group: "events.k8s.io", resource: "events" }))];

/** The recommended ClusterRoles of rbac/ as rules (test/views/doctor-permissions.test.ts compares them with the YAML). */
export const RECOMMENDED_ROLES: Readonly<Record<"ptah-viewer" | "ptah-approver", readonly Rule[]>> = {
  "ptah-viewer": VIEWER,
  "ptah-approver": [...VIEWER, ...ptah("create", "ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments")],
};

export function ruleKey(r: Rule): string {
  return `${r.verb} ${r.group === "" ? "" : `${r.group}/`}${r.resource}`;
}

/** Every distinct rule of the table, in first-seen order: one access review each. */
export function rulesToReview(): Rule[] {
  const seen = new Map<string, Rule>();
  for (const c of COMMAND_RULES) for (const r of c.rules) if (!seen.has(ruleKey(r))) seen.set(ruleKey(r), r);
  return [...seen.values()];
}

function grants(role: readonly Rule[], rule: Rule): boolean {
  return role.some((r) => ruleKey(r) === ruleKey(rule));
}

/** "create ptahschemaapprovals" — short, the group is implied for Ptah kinds. */
function describeRule(r: Rule): string {
  return `${r.verb} ${r.resource}${r.group === "" || r.group === PTAH_GROUP ? "" : `.${r.group}`}`;
}

/** The one binding that fixes every missing rule, named with the command that creates it. */
function bindingFix(missing: readonly Rule[], namespace: string): string {
  const role = missing.every((r) => grants(RECOMMENDED_ROLES["ptah-viewer"], r)) ? "ptah-viewer" : "ptah-approver";
  const also = role === "ptah-approver" && missing.some((r) => r.verb !== "create") ? "; ptah-viewer alone fixes every command but the creates" : "";
  return `bind the ClusterRole ${role} (rbac/${role}.yaml${also}): kubectl create rolebinding <user>-${role} -n ${namespace} --clusterrole=${role} --user=<user>`;
}

/** allowed: ruleKey → the access review's answer; an Error when the reviews could not be made. */
export function buildPermissionCheck(namespace: string, allowed: ReadonlyMap<string, boolean> | Error): Check {
  const name = "commands";
  if (allowed instanceof Error) return skipped("Permissions", name, `access reviews could not be made: ${allowed.message}`);
  const works: string[] = [];
  const broken: string[] = [];
  const missing = new Map<string, Rule>();
  for (const c of COMMAND_RULES) {
    const lacking = c.rules.filter((r) => allowed.get(ruleKey(r)) !== true);
    if (lacking.length === 0) works.push(c.command);
    else broken.push(`${c.command}: missing ${lacking.map(describeRule).join(", ")}`);
    for (const r of lacking) missing.set(ruleKey(r), r);
  }
  if (broken.length === 0) return ok("Permissions", name, `every command form is permitted (${works.length} of ${COMMAND_RULES.length})`);
  const details = [`will work: ${works.length > 0 ? works.join(", ") : "none"}`, "will not work:", ...broken.map((b) => `  ${b}`)];
  return problem("Permissions", name, `${broken.length} of ${COMMAND_RULES.length} command forms are not permitted`, bindingFix([...missing.values()], namespace), details);
}
