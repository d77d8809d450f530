// The registry of kinds the plugin reads, and parseObject: raw JSON → typed object, or a
// ModelError naming the object and the field that does not fit.
import type { z } from "zod";
import { ModelError } from "../errors.ts";
import type { MODELS } from "./kinds.ts";
import { VALIDATORS, setStringPool } from "./validators.ts";

import { PTAH_GROUP, PTAH_VERSION } from "./api.ts";

export { PTAH_API_VERSION, PTAH_GROUP, PTAH_VERSION } from "./api.ts";

export interface KindInfo {
  readonly kind: string;
  readonly group: string; // "" for the core group
  readonly version: string;
  readonly plural: string;
  readonly shortName?: string;
}

function ptah(kind: string, plural: string, shortName: string): KindInfo {
  return { kind, group: PTAH_GROUP, version: PTAH_VERSION, plural, shortName };
}

/** The kinds the plugin reads; each one's model is MODELS[name] (kinds.ts). */
export const KINDS = {
  PtahSchema: ptah("PtahSchema", "ptahschemas", "ptahs"),
  PtahSchemaPlan: ptah("PtahSchemaPlan", "ptahschemaplans", "ptahplan"),
  PtahSchemaPlanChunk: ptah("PtahSchemaPlanChunk", "ptahschemaplanchunks", "ptahchunk"),
  PtahSchemaApproval: ptah("PtahSchemaApproval", "ptahschemaapprovals", "ptahapprove"),
  PtahMigration: ptah("PtahMigration", "ptahmigrations", "ptahm"),
  PtahMigrationPlan: ptah("PtahMigrationPlan", "ptahmigrationplans", "ptahmplan"),
  PtahMigrationApproval: ptah("PtahMigrationApproval", "ptahmigrationapprovals", "ptahmapprove"),
  PtahMigrationRunAcknowledgment: ptah("PtahMigrationRunAcknowledgment", "ptahmigrationrunacknowledgments", "ptahmack"),
  ConfigMap: { kind: "ConfigMap", group: "", version: "v1", plural: "configmaps" },
  Event: { kind: "Event", group: "", version: "v1", plural: "events" },
} as const satisfies Record<keyof typeof MODELS, KindInfo>;

export type KindName = keyof typeof KINDS;
export type ObjectOf<K extends KindName> = z.infer<(typeof MODELS)[K]>;

/** What a read returns: the typed object and the object exactly as served (for -o json/yaml). */
export interface Parsed<T> {
  readonly object: T;
  readonly raw: Record<string, unknown>;
}

/** JSON null means "absent" to the model; the raw form keeps it. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}

/** Whether withoutNulls would drop anything (a null value under some key, at any depth). */
function hasNullValue(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(hasNullValue);
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === null || hasNullValue(v)) return true;
  }
  return false;
}

/**
 * Copies only when there is a null to drop: the served JSON rarely has one, and copying every
 * listed object was a third of the CPU of `status -A` at 5,000 schemas (issue 9). The model's
 * parse never mutates its input, so handing it the served object itself is safe.
 */
function dropNulls(value: unknown): unknown {
  return hasNullValue(value) ? withoutNulls(value) : value;
}

export function describeIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(object)";
}

export function parseObject<K extends KindName>(kindName: K, raw: unknown): Parsed<ObjectOf<K>> {
  const info = KINDS[kindName];
  const label = objectLabel(kindName, raw);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ModelError(`${label} is not an object`);
  }
  const result = VALIDATORS[kindName](dropNulls(raw));
  if (!result.ok) {
    throw new ModelError(`${label} does not fit the ${info.kind} model: ${describeIssuePath(result.path)}: ${result.message.toLowerCase()}`);
  }
  return { object: result.value as ObjectOf<K>, raw: raw as Record<string, unknown> };
}

/**
 * One served object of a list: parsed, or — when it does not fit the model — the ModelError
 * naming it and its field, for a list view that shows the others and warns (issue 14).
 */
export function parseListItem<K extends KindName>(kindName: K, raw: unknown, pool?: Map<string, string>): Parsed<ObjectOf<K>> | ModelError {
  setStringPool(pool);
  try {
    return parseObject(kindName, raw);
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  } finally {
    setStringPool(undefined);
  }
}

function objectLabel(kindName: KindName, raw: unknown): string {
  const meta = (raw as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
  const name = typeof meta?.name === "string" ? meta.name : "<unnamed>";
  const ns = typeof meta?.namespace === "string" ? `${meta.namespace}/` : "";
  return `${KINDS[kindName].kind.toLowerCase()} ${ns}${name}`;
}
