// One PtahRealm by name: cluster-scoped, spec only (engine, sharing, namespaces). A single GET
// the request guard allows by name and nothing broader: never a list (a tenant has no business
// enumerating realms) and never a watch. Tenants are usually refused it (403, the caller's to
// word); a realm that does not exist is found: false. Every string is sanitised here.
import { sanitize } from "../errors.ts";
import { okJson, type RequestDescription } from "./api-errors.ts";
import type { Transport } from "./http.ts";
import { REALM_PATH } from "./request-guard.ts";

export interface RealmFacts {
  readonly name: string;
  /** false: no PtahRealm by that name (404). */
  readonly found: boolean;
  /** spec.engine as written (the operator canonicalises it); undefined when absent. */
  readonly engine: string | undefined;
  /** spec.sharing: `Exclusive` or `Shared` (anything else as served). */
  readonly sharing: string | undefined;
  readonly namespaces: readonly string[];
}

export async function getRealm(transport: Transport, name: string): Promise<RealmFacts> {
  const d: RequestDescription = { verb: "get", resource: "ptahrealms.operator.ptah.run", namespace: undefined, name };
  const res = await transport.get(`${REALM_PATH}/${encodeURIComponent(name)}`);
  const at = { name: sanitize(name) };
  if (res.status === 404) return { ...at, found: false, engine: undefined, sharing: undefined, namespaces: [] };
  const spec = ((okJson(res, d) as { spec?: unknown }).spec ?? {}) as { engine?: unknown; sharing?: unknown; namespaces?: unknown };
  const text = (v: unknown): string | undefined => (typeof v === "string" ? sanitize(v) : undefined);
  const namespaces = Array.isArray(spec.namespaces) ? spec.namespaces.filter((n): n is string => typeof n === "string").map(sanitize) : [];
  return { ...at, found: true, engine: text(spec.engine), sharing: text(spec.sharing), namespaces };
}
