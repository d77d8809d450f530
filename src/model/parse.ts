// The registry of kinds the plugin reads, and parseObject: raw JSON → typed object, or a
// ModelError naming the object and the field that does not fit.
import type { z } from "zod";
import { ModelError, TooDeepError } from "../errors.ts";
import type { MODELS } from "./kinds.ts";
import { VALIDATORS, setStringPool } from "./validators.ts";
import { MAX_DEPTH } from "./depth.ts";

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

/** JSON null means "absent" to the model; the raw form keeps it. Recursive: only for objects survey() found within MAX_DEPTH. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}

/** How deep a served object may nest: the one bound of every value the plugin reads (model/depth.ts). */
export { MAX_DEPTH };

interface Survey {
  /** Nested deeper than MAX_DEPTH. */
  readonly tooDeep: boolean;
  /** Some key holds null (withoutNulls would drop it). */
  readonly hasNull: boolean;
}

const FLAT: Survey = { tooDeep: false, hasNull: false };

/**
 * One walk of a served value without recursion (an explicit stack, so any nesting is measured
 * safely): whether it nests deeper than MAX_DEPTH (it stops there), and whether a key holds null.
 * It replaces the recursive look for nulls, so the depth costs no second walk.
 */
function survey(value: unknown): Survey {
  if (value === null || typeof value !== "object") return FLAT;
  const values: object[] = [value];
  const depths: number[] = [1];
  let hasNull = false;
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_DEPTH) return { tooDeep: true, hasNull };
    if (Array.isArray(v)) {
      for (const x of v as unknown[]) {
        if (x !== null && typeof x === "object") {
          values.push(x);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === null) hasNull = true;
      else if (typeof x === "object") {
        values.push(x);
        depths.push(depth + 1);
      }
    }
  }
  return hasNull ? { tooDeep: false, hasNull } : FLAT;
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
  const { tooDeep, hasNull } = survey(raw);
  if (tooDeep) throw new TooDeepError(`${label} is nested deeper than ${MAX_DEPTH} levels, which no object the plugin reads is`);
  // Copies only when there is a null to drop: the served JSON rarely has one, and copying every
  // listed object was a third of the CPU of `status -A` at 5,000 schemas. The model's
  // parse never mutates its input, so handing it the served object itself is safe.
  const result = VALIDATORS[kindName](hasNull ? withoutNulls(raw) : raw);
  if (!result.ok) {
    throw new ModelError(`${label} does not fit the ${info.kind} model: ${describeIssuePath(result.path)}: ${result.message.toLowerCase()}`);
  }
  return { object: result.value as ObjectOf<K>, raw: raw as Record<string, unknown> };
}

/**
 * One served object of a list: parsed, or — when it does not fit the model — the ModelError
 * naming it and its field, for a list view that shows the others and warns.
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
