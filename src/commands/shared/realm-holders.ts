// Who holds the realm? A RealmConflict names only counts, and an Apply waiting for its realm names
// nothing. This reads the other claimants (every PtahSchema and PtahMigration whose
// spec.target.realmRef names the same realm, in every namespace the caller may list, else in its
// own) and, in the coordination namespace the operator's admission configuration names, the
// Leases: a Lease's holder identity is `ptah-h-` + the lower-case unpadded base32 of
// sha256(resource UID, a NUL byte, operation ID), the same in every upstream version read, so a
// claimant's running operation is recognised by it. The Lease's own name derives from a digest
// whose input upstream has changed between versions, so it is never computed here: a Lease no
// claimant's operation explains is reported as "holder not identified". A refused read (403) is
// one line saying which, never the command's failure.
import { createHash } from "node:crypto";
import { ReadError } from "../../errors.ts";
import type { LeaseFacts } from "../../kube/types.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";
import type { Connection } from "../command-types.ts";
import { COORDINATION_NAMESPACE_ANNOTATION, readAdmission } from "./four-eyes-switch.ts";

type Claimant = {
  readonly kind: "PtahSchema" | "PtahMigration";
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly shared: boolean;
  readonly operations: readonly { id: string; type: string }[];
};

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 4648 base32, lower case, without padding. */
export function base32Lower(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** The identity the operator writes into a realm Lease for one resource's operation. */
export function leaseHolderIdentity(uid: string, operationID: string): string {
  return `ptah-h-${base32Lower(
    createHash("sha256")
      .update(uid)
      .update(Buffer.from([0]))
      .update(operationID)
      .digest(),
  )}`;
}

type Realmish = PtahSchema | PtahMigration;

function claimantOf(kind: Claimant["kind"], o: Realmish): Claimant {
  const s = o.status as { activeOperation?: { id: string; type: string }; pendingLockRelease?: { operationID: string } } | undefined;
  const ops = [
    ...(s?.activeOperation?.id ? [{ id: s.activeOperation.id, type: s.activeOperation.type }] : []),
    ...(s?.pendingLockRelease?.operationID ? [{ id: s.pendingLockRelease.operationID, type: "lock release owed" }] : []),
  ];
  return { kind, namespace: o.metadata.namespace ?? "", name: o.metadata.name, uid: o.metadata.uid ?? "", shared: o.spec.target?.sharedRealm === true, operations: ops };
}

/** Whether the object's realm is worth naming: it claims one and is refused for it, or waits to Apply. */
export function waitsForRealm(o: Realmish): boolean {
  if (!o.spec.target?.realmRef?.name) return false;
  const st = o.status as { conditions?: { reason?: string }[]; activeOperation?: { type?: string }; phase?: string } | undefined;
  return (st?.conditions ?? []).some((c) => c.reason === "RealmConflict") || st?.activeOperation?.type === "Apply" || st?.phase === "ReadyToApply" || st?.phase === "Applying";
}

const forbidden = (err: unknown): err is ReadError => err instanceof ReadError && err.httpStatus === 403;

async function claimants(c: Connection, realm: string): Promise<{ found: Claimant[]; gap?: string }> {
  const pick = (kind: Claimant["kind"], items: readonly { object: unknown }[]): Claimant[] =>
    items
      .map((i) => i.object as Realmish)
      .filter((o) => o.spec.target?.realmRef?.name === realm)
      .map((o) => claimantOf(kind, o));
  const listIn = async (namespace: string | undefined): Promise<Claimant[]> => {
    const [s, m] = await Promise.all([c.reader.list("PtahSchema", { namespace, keepRaw: false }), c.reader.list("PtahMigration", { namespace, keepRaw: false })]);
    return [...pick("PtahSchema", s.items), ...pick("PtahMigration", m.items)];
  };
  try {
    return { found: await listIn(undefined) };
  } catch (err) {
    if (!forbidden(err)) throw err;
    return { found: await listIn(c.namespace), gap: `may not list ptahschemas and ptahmigrations across namespaces: claimants in ${sanitize(c.namespace)} only` };
  }
}

const label = (x: Claimant): string => `${x.kind === "PtahSchema" ? "ptahschema" : "ptahmigration"} ${sanitize(x.namespace)}/${sanitize(x.name)}`;

/** The Lease lines: each Lease held by a claimant's operation, or that none is identified. */
function leaseLines(leases: readonly LeaseFacts[], all: readonly Claimant[], ns: string): string[] {
  const byHolder = new Map<string, { who: Claimant; op: { id: string; type: string } }>();
  for (const who of all) for (const op of who.operations) if (who.uid) byHolder.set(leaseHolderIdentity(who.uid, op.id), { who, op });
  const held = leases.filter((l) => byHolder.has(l.holderIdentity));
  if (held.length === 0) return [`  Lease:       holder not identified (no Lease in ${sanitize(ns)} is held by an operation of these claimants)`];
  return held.map((l) => {
    const h = byHolder.get(l.holderIdentity)!;
    return `  Lease:       ${sanitize(ns)}/${l.name} held by ${label(h.who)}, operation ${sanitize(h.op.id)} (${sanitize(h.op.type)})${l.renewTime ? `, renewed ${l.renewTime}` : ""}`;
  });
}

/** The realm section of explain (and status) for one schema or migration; [] when it claims no realm or does not wait for one. */
export async function realmSection(c: Connection, kind: Claimant["kind"], o: Realmish): Promise<string[]> {
  const realm = o.spec.target?.realmRef?.name;
  if (!realm || !waitsForRealm(o)) return [];
  const self = claimantOf(kind, o);
  // The claimants and the admission configuration at once; a failure is the claimants' first, as in turn.
  const admissionRead = readAdmission(c);
  admissionRead.catch(() => {}); // awaited below, or moot when the claimants' read fails first
  const { found, gap } = await claimants(c, realm);
  const others = found.filter((x) => x.uid !== self.uid || x.name !== self.name);
  const lines = [`Realm ${sanitize(realm)} (spec.target.realmRef):`];
  if (gap) lines.push(`  ${gap}`);
  lines.push(
    others.length === 0 ? "  Claimants:   no other resource claims it" : `  Claimants:   ${others.map((x) => `${label(x)}${x.shared ? "" : " (no sharedRealm)"}`).join(", ")}`,
  );
  lines.push(`  This claim:  ${self.shared ? "sharedRealm set" : "no sharedRealm"}`);
  const admission = await admissionRead;
  if (admission === undefined) return lines;
  if ("refused" in admission) return [...lines, `  Lease:       not read: ${admission.refused} (the coordination namespace is named there)`];
  const ns = admission.annotations[COORDINATION_NAMESPACE_ANNOTATION];
  if (!ns)
    return [...lines, `  Lease:       holder not identified (${admission.found ? `${admission.name} names no ${COORDINATION_NAMESPACE_ANNOTATION}` : `no ${admission.name}`})`];
  try {
    return [...lines, ...leaseLines(await c.inspector!.leases(ns), [self, ...others], ns)];
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
