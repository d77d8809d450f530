// Who holds the realm? A RealmConflict names only counts, and an Apply waiting for its realm names
// nothing. This reads the other claimants (shared/realm-key.ts: a PtahRealm's, every schema and
// migration whose spec.target.realmRef names it, in every namespace the caller may list, else in
// its own; a coordinationKey's, those in the namespace with the same key and engine), the PtahRealm
// itself where the caller may get it (shared/realm-admission.ts: its sharing, namespaces, and why
// it refuses), and, in the coordination namespace the operator's admission configuration names, the
// Leases: a claimant's running operation is recognised by the holder identity it writes
// (shared/realm-key.ts), and the Lease named after the realm's digest is named when no
// claimant's operation holds one. A refused read (403) is one line saying which,
// never the command's failure.
import { ReadError } from "../../errors.ts";
import type { LeaseFacts, RealmFacts } from "../../kube/types.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { Connection } from "../command-types.ts";
import { COORDINATION_NAMESPACE_ANNOTATION, readAdmission } from "./four-eyes-switch.ts";
import { notAdmitted, realmLines, unreadRealmLines } from "./realm-admission.ts";
import { canonicalEngine, type Engine } from "../../model/engine.ts";
import { leaseHolderIdentity, realmHeading, realmLeaseName, realmOf, sameRealm, type Realm } from "./realm-key.ts";

type Claimant = {
  readonly kind: "PtahSchema" | "PtahMigration";
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly shared: boolean;
  readonly engine: Engine | undefined;
  readonly operations: readonly { id: string; type: string }[];
};

type Realmish = PtahSchema | PtahMigration;

function claimantOf(kind: Claimant["kind"], o: Realmish): Claimant {
  const s = o.status as { activeOperation?: { id: string; type: string }; pendingLockRelease?: { operationID: string } } | undefined;
  const ops = [
    ...(s?.activeOperation?.id ? [{ id: s.activeOperation.id, type: s.activeOperation.type }] : []),
    ...(s?.pendingLockRelease?.operationID ? [{ id: s.pendingLockRelease.operationID, type: "lock release owed" }] : []),
  ];
  const t = o.spec.target;
  return {
    kind,
    namespace: o.metadata.namespace ?? "",
    name: o.metadata.name,
    uid: o.metadata.uid ?? "",
    shared: t?.sharedRealm === true,
    engine: canonicalEngine(t?.engine),
    operations: ops,
  };
}

const REALM_REASONS = new Set(["RealmConflict", "RealmNotAuthorized"]);

/** The realm refusal the object's conditions carry (RealmConflict or RealmNotAuthorized), if any. */
function realmReason(o: Realmish): string | undefined {
  const st = o.status as { conditions?: { reason?: string }[] } | undefined;
  return (st?.conditions ?? []).map((c) => c.reason ?? "").find((r) => REALM_REASONS.has(r));
}

/** Whether the object's realm is worth naming: it claims one and is refused for it, or waits to Apply. */
export function waitsForRealm(o: Realmish): boolean {
  if (!realmOf(o)) return false;
  const st = o.status as { activeOperation?: { type?: string }; phase?: string } | undefined;
  return realmReason(o) !== undefined || st?.activeOperation?.type === "Apply" || st?.phase === "ReadyToApply" || st?.phase === "Applying";
}

const forbidden = (err: unknown): err is ReadError => err instanceof ReadError && err.httpStatus === 403;

/** The claimants: a PtahRealm's in every namespace the caller may list (else its own), a key's in its namespace. */
async function claimants(c: Connection, realm: Realm): Promise<{ found: Claimant[]; gap?: string }> {
  const pick = (kind: Claimant["kind"], items: readonly { object: unknown }[]): Claimant[] =>
    items
      .map((i) => i.object as Realmish)
      .filter((o) => sameRealm(realm, o))
      .map((o) => claimantOf(kind, o));
  const listIn = async (namespace: string | undefined): Promise<Claimant[]> => {
    const [s, m] = await Promise.all([c.reader.list("PtahSchema", { namespace, keepRaw: false }), c.reader.list("PtahMigration", { namespace, keepRaw: false })]);
    return [...pick("PtahSchema", s.items), ...pick("PtahMigration", m.items)];
  };
  if (realm.by === "coordinationKey") return { found: await listIn(realm.namespace) };
  try {
    return { found: await listIn(undefined) };
  } catch (err) {
    if (!forbidden(err)) throw err;
    return { found: await listIn(c.namespace), gap: `may not list ptahschemas and ptahmigrations across namespaces: claimants in ${sanitize(c.namespace)} only` };
  }
}

const label = (x: Claimant): string => `${x.kind === "PtahSchema" ? "ptahschema" : "ptahmigration"} ${sanitize(x.namespace)}/${sanitize(x.name)}`;

/**
 * The Lease lines: each Lease held by a claimant's operation; failing that, the Lease named after
 * the realm's digest and whoever holds it; failing that, that none is identified.
 */
function leaseLines(leases: readonly LeaseFacts[], all: readonly Claimant[], ns: string, named: string | undefined): string[] {
  const byHolder = new Map<string, { who: Claimant; op: { id: string; type: string } }>();
  for (const who of all) for (const op of who.operations) if (who.uid) byHolder.set(leaseHolderIdentity(who.uid, op.id), { who, op });
  const held = leases.filter((l) => byHolder.has(l.holderIdentity));
  const byName = named === undefined ? undefined : leases.find((l) => l.name === named);
  if (held.length === 0 && byName)
    return [
      `  Lease:       ${sanitize(ns)}/${byName.name} (this realm's) ${byName.holderIdentity ? `held by ${sanitize(byName.holderIdentity)}, not an operation of these claimants` : "held by no one"}`,
    ];
  if (held.length === 0)
    return [`  Lease:       holder not identified (no Lease in ${sanitize(ns)} is held by an operation of these claimants${named ? `, and none is named ${named}` : ""})`];
  return held.map((l) => {
    const h = byHolder.get(l.holderIdentity)!;
    return `  Lease:       ${sanitize(ns)}/${l.name} held by ${label(h.who)}, operation ${sanitize(h.op.id)} (${sanitize(h.op.type)})${l.renewTime ? `, renewed ${l.renewTime}` : ""}`;
  });
}

/** The PtahRealm a realmRef claim names, where the caller may get it (tenants usually may not); undefined for a key. */
async function readRealm(c: Connection, realm: Realm): Promise<{ facts: RealmFacts } | { name: string; refused: string } | undefined> {
  // Without the cluster inspector (a connection that reads the operator's kinds only) nothing is read, as readAdmission.
  if (realm.by !== "realmRef" || !c.inspector) return undefined;
  try {
    return { facts: await c.inspector.realm(realm.name) };
  } catch (err) {
    if (!forbidden(err)) throw err;
    return { name: realm.name, refused: err.message };
  }
}

/** The realm section of explain (and status) for one schema or migration; [] when it claims no realm or does not wait for one. */
export async function realmSection(c: Connection, kind: Claimant["kind"], o: Realmish): Promise<string[]> {
  const realm = realmOf(o);
  if (!realm || !waitsForRealm(o)) return [];
  const self = claimantOf(kind, o);
  // The claimants and the admission configuration at once; a failure is the claimants' first, as in turn.
  const admissionRead = readAdmission(c);
  admissionRead.catch(() => {}); // awaited below, or moot when the claimants' read fails first
  const realmRead = readRealm(c, realm);
  realmRead.catch(() => {}); // awaited below, or moot when the claimants' read fails first
  const { found, gap } = await claimants(c, realm);
  const others = found.filter((x) => x.uid !== self.uid || x.name !== self.name);
  const read = await realmRead;
  const facts = read && "facts" in read && read.facts.found ? read.facts : undefined;
  // A claimant the realm does not admit is not counted against the others (the operator says so).
  const note = (x: Claimant): string => (facts && notAdmitted(facts, x) ? " (not admitted)" : x.shared ? "" : " (no sharedRealm)");
  const lines = [`Realm ${sanitize(realmHeading(realm))}:`];
  if (gap) lines.push(`  ${gap}`);
  lines.push(others.length === 0 ? "  Claimants:   no other resource claims it" : `  Claimants:   ${others.map((x) => `${label(x)}${note(x)}`).join(", ")}`);
  lines.push(`  This claim:  ${self.shared ? "sharedRealm set" : "no sharedRealm"}`);
  if (read && "facts" in read) lines.push(...realmLines(read.facts, self, [self, ...others], realmReason(o)));
  if (read && "refused" in read) lines.push(...unreadRealmLines(read.name, self.namespace, realmReason(o), read.refused));
  const admission = await admissionRead;
  if (admission === undefined) return lines;
  if ("refused" in admission) return [...lines, `  Lease:       not read: ${admission.refused} (the coordination namespace is named there)`];
  const ns = admission.annotations[COORDINATION_NAMESPACE_ANNOTATION];
  if (!ns)
    return [...lines, `  Lease:       holder not identified (${admission.found ? `${admission.name} names no ${COORDINATION_NAMESPACE_ANNOTATION}` : `no ${admission.name}`})`];
  try {
    return [...lines, ...leaseLines(await c.inspector!.leases(ns), [self, ...others], ns, realmLeaseName(realm))];
  } catch (err) {
    if (!forbidden(err)) throw err;
    return [...lines, `  Lease:       not read: may not list leases in ${sanitize(ns)} (${err.message})`];
  }
}

/** `text` (a detail or a diagnosis), then the realm section when the object waits for its realm. */
export async function appendRealm(c: Connection, kind: Claimant["kind"], o: Realmish, text: string): Promise<string> {
  return withRealm(text, await realmSection(c, kind, o));
}

/** `text`, then the realm section's lines when there are any. */
export function withRealm(text: string, realm: readonly string[]): string {
  return realm.length === 0 ? text : `${text.trimEnd()}\n\n${realm.join("\n")}\n`;
}
