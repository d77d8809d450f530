// Which realm a schema or migration claims, the Lease the operator takes for it and the identity
// its operations hold it by. A realm is
// either a PtahRealm named by spec.target.realmRef (shared across namespaces) or, far more often, a
// namespace-local spec.target.coordinationKey: the claimants of a key are the schemas and
// migrations in the same namespace with the same key and engine (the engine is part of the
// coordination digest, so the same key under another engine is another database). The realm
// Lease is named `ptah-t-` + the lower-case unpadded base32 of the 32-byte digest of the realm's
// canonical JSON (the contract's coordination digest for a key, its realm digest for a PtahRealm).
// Upstream has named Leases otherwise before, so the name is a hint beside the holder identity,
// which stays how a claimant's operation is recognised.
import { createHash } from "node:crypto";
import { canonicalEngine, type Engine } from "../../model/engine.ts";
import { canonicalJSONBytes, struct } from "../../plan/canonical.ts";

export type Realm =
  | { readonly by: "realmRef"; readonly name: string; readonly engine: Engine | undefined }
  | { readonly by: "coordinationKey"; readonly key: string; readonly namespace: string; readonly engine: Engine | undefined };

interface Targeted {
  readonly metadata: { readonly namespace?: string | undefined };
  readonly spec: {
    readonly target?:
      { readonly engine?: string | undefined; readonly coordinationKey?: string | undefined; readonly realmRef?: { readonly name?: string | undefined } | undefined } | undefined;
  };
}

/** The realm the object claims; undefined when it names neither (the CRD refuses that). */
export function realmOf(o: Targeted): Realm | undefined {
  const t = o.spec.target;
  const engine = canonicalEngine(t?.engine);
  if (t?.realmRef?.name) return { by: "realmRef", name: t.realmRef.name, engine };
  if (t?.coordinationKey) return { by: "coordinationKey", key: t.coordinationKey, namespace: o.metadata.namespace ?? "", engine };
  return undefined;
}

/** Whether `o` claims the same realm: the same PtahRealm, or the same key and engine in the same namespace. */
export function sameRealm(realm: Realm, o: Targeted): boolean {
  const other = realmOf(o);
  if (!other) return false;
  if (realm.by === "realmRef") return other.by === "realmRef" && other.name === realm.name;
  return other.by === "coordinationKey" && other.key === realm.key && other.namespace === realm.namespace && other.engine === realm.engine;
}

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

/** The realm's canonical JSON, fields in the contract's order; undefined without a supported engine (no digest then). */
function digestInput(realm: Realm): Uint8Array | undefined {
  if (!realm.engine) return undefined;
  const tail: [string, string][] =
    realm.by === "realmRef"
      ? [["realm", realm.name]]
      : [
          ["namespace", realm.namespace],
          ["coordination_key", realm.key],
        ];
  return canonicalJSONBytes(struct([["contract_version", 1], ["engine", realm.engine], ...tail]));
}

/** The name of the realm's Lease in the coordination namespace; undefined when the engine is unsupported. */
export function realmLeaseName(realm: Realm): string | undefined {
  const input = digestInput(realm);
  return input && `ptah-t-${base32Lower(createHash("sha256").update(input).digest())}`;
}

/**
 * The identity the operator writes into a realm Lease for one resource's operation: `ptah-h-` + the
 * base32 of sha256(resource UID, a NUL byte, operation ID), the same in every upstream version read.
 */
export function leaseHolderIdentity(uid: string, operationID: string): string {
  return `ptah-h-${base32Lower(
    createHash("sha256")
      .update(uid)
      .update(Buffer.from([0]))
      .update(operationID)
      .digest(),
  )}`;
}

/** How the realm is named in a heading: `orders-db (spec.target.realmRef)` or `billing (spec.target.coordinationKey in app)`. */
export function realmHeading(realm: Realm): string {
  return realm.by === "realmRef" ? `${realm.name} (spec.target.realmRef)` : `${realm.key} (spec.target.coordinationKey in ${realm.namespace})`;
}
