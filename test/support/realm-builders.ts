// Typed builders for realm fixtures: a schema or migration (from builders.ts) made to claim a realm
// by key or by PtahRealm, the operator's two realm refusals as it words them, and a PtahRealm as
// the inspector serves it.
import { leaseHolderIdentity } from "../../src/commands/shared/realm-key.ts";
import { realmLeaseName, realmOf } from "../../src/commands/shared/realm-key.ts";
import type { LeaseFacts, RealmFacts } from "../../src/kube/types.ts";
import { cond } from "./builders.ts";

type Raw = Record<string, unknown>;
type Claimed = Raw & { metadata: { namespace?: string; uid?: string }; spec: Raw & { target?: Raw }; status: Raw };

export type Claim = { readonly key: string; readonly realm?: never } | { readonly realm: string; readonly key?: never };

/** `raw` (a schema or migration fixture) claiming `claim`, with the engine and sharedRealm given. */
export function claiming(raw: Raw, claim: Claim, o: { shared?: boolean; engine?: string } = {}): Claimed {
  const r = structuredClone(raw) as Claimed;
  const target: Raw = { ...(r.spec.target ?? {}), engine: o.engine ?? "PostgreSQL", sharedRealm: o.shared ?? false };
  delete target.coordinationKey;
  delete target.realmRef;
  if (claim.key !== undefined) target.coordinationKey = claim.key;
  else target.realmRef = { name: claim.realm };
  r.spec.target = target;
  return r;
}

/** The fixture running an operation (its activeOperation), so a Lease holder can name it. */
export function running(raw: Claimed, type: string, id: string): Claimed {
  const r = structuredClone(raw);
  r.status.activeOperation = { type, id, jobName: `job-${id}`, startedAt: "2026-11-30T11:58:00Z", attempt: 1 };
  return r;
}

/** RealmConflict, as the operator words it for an Exclusive realm or for undeclared sharing. */
export function conflictConditions(f: { exclusiveRealm?: string; claimants: number; schemas: number; undeclared?: number }): Raw[] {
  const head = `This database realm is claimed by ${f.claimants} resources (${f.schemas} PtahSchema, ${f.claimants - f.schemas} PtahMigration)`;
  const message = f.exclusiveRealm
    ? `${head}, and its PtahRealm "${f.exclusiveRealm}" admits one at a time. Nothing runs against the database until the others stop claiming it.`
    : `${head} and ${f.undeclared ?? 0} of them have not set spec.target.sharedRealm. Nothing runs against the database until every claimant declares the realm shared, or until the others stop claiming it.`;
  return [cond("Blocked", "True", "RealmConflict", message), cond("Ready", "False", "RealmConflict", message)];
}

/** RealmNotAuthorized, as the operator words it whichever of its three causes holds. */
export function notAuthorizedConditions(realm: string, namespace: string): Raw[] {
  const message = `The PtahRealm "${realm}" does not admit this resource: it does not exist, it does not list namespace "${namespace}", or it names another engine. Nothing runs against the database until an administrator admits the namespace, and this resource is not counted against the ones the realm does admit.`;
  return [cond("Blocked", "True", "RealmNotAuthorized", message), cond("Ready", "False", "RealmNotAuthorized", message)];
}

/** A PtahRealm's spec as FakeInspector.realms holds it. */
export function aRealm(sharing: "Exclusive" | "Shared", namespaces: string[], engine = "PostgreSQL"): Omit<RealmFacts, "name" | "found"> {
  return { engine, sharing, namespaces };
}

/** The realm's own Lease (named after its digest), held by `holder`'s operation `op`. */
export function realmLease(holder: Claimed, op: string, name = realmLeaseName(realmOf(holder as never)!)!): LeaseFacts {
  return { name, holderIdentity: leaseHolderIdentity(holder.metadata.uid ?? "", op), renewTime: "2026-11-30T11:59:30.000000Z", leaseDurationSeconds: 60 };
}
