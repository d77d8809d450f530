// What a PtahRealm says about its claimants, for the realm section (shared/realm-holders.ts):
// its sharing and namespaces, the cause of a RealmConflict, and which of RealmNotAuthorized's
// three causes holds. The operator words RealmNotAuthorized the same whether the realm is
// missing, does not list the namespace, or names another engine, on purpose: a tenant learns
// nothing of realms it may not see. So only a reader who may get the PtahRealm is told which;
// anyone else is told who can tell (upstream's realm administrator role; its author, approver
// and diagnostic roles cannot read realms). A claimant the realm does not admit is not counted
// against the ones it does (the operator's RealmNotAuthorized message says so).
import type { RealmFacts } from "../../kube/types.ts";
import { sanitize } from "../../render/sanitize.ts";
import { canonicalEngine, type Engine } from "../../model/engine.ts";

export interface Claim {
  readonly namespace: string;
  readonly engine: Engine | undefined;
  readonly shared: boolean;
}

const DISPLAY: Record<Engine, string> = { postgresql: "PostgreSQL", mysql: "MySQL" };
const engineName = (e: Engine | undefined, written: string | undefined): string => (e ? DISPLAY[e] : sanitize(written ?? "none"));

/** Why the realm does not admit `claim`, or undefined when it does. */
export function notAdmitted(realm: RealmFacts, claim: Claim): string | undefined {
  if (!realm.found) return `PtahRealm ${realm.name} does not exist`;
  if (!realm.namespaces.includes(claim.namespace))
    return `PtahRealm ${realm.name} does not list namespace ${sanitize(claim.namespace)} (it lists ${realm.namespaces.join(", ") || "none"})`;
  const engine = canonicalEngine(realm.engine);
  if (engine !== claim.engine) return `PtahRealm ${realm.name} names engine ${engineName(engine, realm.engine)}; this resource names ${engineName(claim.engine, undefined)}`;
  return undefined;
}

/** The conflict's cause among the claimants the realm admits; undefined when there is none. */
export function conflictCause(realm: RealmFacts, admitted: readonly Claim[]): string | undefined {
  if (admitted.length < 2) return undefined;
  if (realm.sharing === "Exclusive")
    return `sharing Exclusive admits one claimant at a time: with ${admitted.length} claiming it the operator refuses every one of them, whatever their sharedRealm says`;
  const undeclared = admitted.filter((c) => !c.shared).length;
  if (undeclared > 0)
    return `sharing ${sanitize(realm.sharing ?? "unset")}, but ${undeclared} of the ${admitted.length} claimants have not set spec.target.sharedRealm: every one is refused until each declares the realm shared`;
  return undefined;
}

/** The PtahRealm's lines: its spec, then the conflict's cause or why this claim is not admitted. */
export function realmLines(realm: RealmFacts, self: Claim, claims: readonly Claim[], reason: string | undefined): string[] {
  if (!realm.found) return reason === "RealmNotAuthorized" ? [`  Not admitted: ${notAdmitted(realm, self)!}`] : [`  PtahRealm:   ${realm.name} does not exist`];
  const lines = [`  PtahRealm:   sharing ${sanitize(realm.sharing ?? "unset")}, engine ${sanitize(realm.engine ?? "unset")}, namespaces ${realm.namespaces.join(", ") || "none"}`];
  const whyNot = notAdmitted(realm, self);
  if (whyNot) return [...lines, `  Not admitted: ${whyNot}`];
  if (reason === "RealmNotAuthorized") lines.push("  Not admitted: none of the three causes holds now: the realm admits this resource, and the condition predates that");
  const cause = conflictCause(
    realm,
    claims.filter((c) => notAdmitted(realm, c) === undefined),
  );
  if (cause) lines.push(`  Cause:       ${cause}`);
  else if (reason === "RealmConflict") lines.push("  Cause:       none holds now among the claimants the realm admits: the condition predates a change");
  return lines;
}

/** The lines when the PtahRealm may not be read (403): honest about what cannot be told, and who can. */
export function unreadRealmLines(name: string, namespace: string, reason: string | undefined, refusal: string): string[] {
  const who = "the realm administrator role (upstream's examples/realm-administrator-role.yaml) can read it; upstream's author, approver and diagnostic roles cannot";
  if (reason !== "RealmNotAuthorized") return [`  PtahRealm:   not read: may not get ptahrealms/${sanitize(name)} (its sharing decides a conflict; ${who})`];
  return [
    `  Not admitted: PtahRealm ${sanitize(name)} is missing, does not list namespace ${sanitize(namespace)}, or names another engine: the operator words all three alike on purpose, so a tenant learns nothing of realms it may not see`,
    `  Who can tell: you may not get ptahrealms/${sanitize(name)} (${refusal}); ${who}`,
  ];
}
