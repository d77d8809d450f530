// The bindings a plan records and admission re-checks: engine
// canonicalisation, coordination digest, target identity, policy fingerprint, and the live
// verification policy ConfigMap (UID + digest of the named key). Shared by the controllers and
// the admission webhook so both decide from the same values.
import { struct } from "../../src/plan/canonical.ts";
import { sha256 } from "./catalog.ts";
import { digestOf } from "./common.ts";
import { resourcePath, type Kube, type Obj } from "./kube.ts";

export function canonicalEngine(engine: string | undefined): "postgresql" | "mysql" | undefined {
  const e = (engine ?? "").toLowerCase();
  if (e === "postgres" || e === "postgresql" || e === "pgx") return "postgresql";
  if (e === "mysql" || e === "mariadb") return "mysql";
  return undefined;
}

export const engineDisplay = (e: "postgresql" | "mysql"): string => (e === "postgresql" ? "PostgreSQL" : "MySQL");

/** The namespace key or the realm digest. */
export function coordinationDigest(obj: Obj): string | { error: string } {
  const target = obj.spec?.target ?? {};
  const engine = canonicalEngine(target.engine);
  if (!engine) return { error: `engine ${JSON.stringify(target.engine ?? "")} is not supported` };
  if (target.realmRef?.name) {
    return digestOf(
      struct([
        ["contract_version", 1],
        ["engine", engine],
        ["realm", String(target.realmRef.name)],
      ]),
    );
  }
  if (!target.coordinationKey) return { error: "set exactly one of coordinationKey and realmRef" };
  return digestOf(
    struct([
      ["contract_version", 1],
      ["engine", engine],
      ["namespace", obj.metadata.namespace ?? ""],
      ["coordination_key", String(target.coordinationKey)],
    ]),
  );
}

/** Which database this is, as far as the simulator can tell: namespace + the URL Secret's key. */
export function targetIdentityDigest(obj: Obj): string {
  const t = obj.spec?.target ?? {};
  return digestOf({ engine: canonicalEngine(t.engine) ?? "", namespace: obj.metadata.namespace ?? "", secret: t.urlFrom?.name ?? "", key: t.urlFrom?.key ?? "" });
}

export function policyFingerprint(policy: unknown): string {
  return digestOf(JSON.parse(JSON.stringify(policy ?? {})));
}

export interface VerificationPolicy {
  uid: string;
  digest: string;
}

/** The verification policy ConfigMap named by `selector` (it must exist, be immutable and hold the key). */
export async function readVerificationPolicy(
  kube: Kube,
  namespace: string,
  selector: { name?: string; key?: string } | undefined,
): Promise<VerificationPolicy | { error: string }> {
  const name = selector?.name ?? "";
  const key = selector?.key ?? "";
  if (!name || !key) return { error: "verificationPolicyFrom must name a ConfigMap and a key" };
  const cm = await kube.get(resourcePath("configmaps", namespace, name, ""));
  if (!cm) return { error: `verification policy ConfigMap ${namespace}/${name} does not exist` };
  if (cm.immutable !== true) return { error: `verification policy ConfigMap ${namespace}/${name} must be immutable` };
  const value = cm.data?.[key];
  if (value === undefined) return { error: `verification policy ConfigMap ${namespace}/${name} has no key ${key}` };
  return { uid: cm.metadata.uid!, digest: sha256(value) };
}
