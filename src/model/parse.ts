// The registry of kinds the plugin reads, and parseObject: raw JSON → typed object, or a
// ModelError naming the object and the field that does not fit.
import type { z } from "zod";
import { ModelError } from "../errors.ts";
import {
  ChunkConfigMap,
  KubeEvent,
  PtahMigration,
  PtahMigrationApproval,
  PtahMigrationPlan,
  PtahMigrationRunAcknowledgment,
  PtahSchema,
  PtahSchemaApproval,
  PtahSchemaPlan,
  PtahSchemaPlanChunk,
} from "./kinds.ts";

import { PTAH_GROUP, PTAH_VERSION } from "./api.ts";

export { PTAH_API_VERSION, PTAH_GROUP, PTAH_VERSION } from "./api.ts";

export interface KindInfo<S extends z.ZodType = z.ZodType> {
  readonly kind: string;
  readonly group: string; // "" for the core group
  readonly version: string;
  readonly plural: string;
  readonly shortName?: string;
  readonly schema: S;
}

function ptah<S extends z.ZodType>(kind: string, plural: string, shortName: string, schema: S): KindInfo<S> {
  return { kind, group: PTAH_GROUP, version: PTAH_VERSION, plural, shortName, schema };
}

export const KINDS = {
  PtahSchema: ptah("PtahSchema", "ptahschemas", "ptahs", PtahSchema),
  PtahSchemaPlan: ptah("PtahSchemaPlan", "ptahschemaplans", "ptahplan", PtahSchemaPlan),
  PtahSchemaPlanChunk: ptah("PtahSchemaPlanChunk", "ptahschemaplanchunks", "ptahchunk", PtahSchemaPlanChunk),
  PtahSchemaApproval: ptah("PtahSchemaApproval", "ptahschemaapprovals", "ptahapprove", PtahSchemaApproval),
  PtahMigration: ptah("PtahMigration", "ptahmigrations", "ptahm", PtahMigration),
  PtahMigrationPlan: ptah("PtahMigrationPlan", "ptahmigrationplans", "ptahmplan", PtahMigrationPlan),
  PtahMigrationApproval: ptah("PtahMigrationApproval", "ptahmigrationapprovals", "ptahmapprove", PtahMigrationApproval),
  PtahMigrationRunAcknowledgment: ptah("PtahMigrationRunAcknowledgment", "ptahmigrationrunacknowledgments", "ptahmack", PtahMigrationRunAcknowledgment),
  ConfigMap: { kind: "ConfigMap", group: "", version: "v1", plural: "configmaps", schema: ChunkConfigMap },
  Event: { kind: "Event", group: "", version: "v1", plural: "events", schema: KubeEvent },
} as const satisfies Record<string, KindInfo>;

export type KindName = keyof typeof KINDS;
export type ObjectOf<K extends KindName> = z.infer<(typeof KINDS)[K]["schema"]>;

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

/**
 * zod compiles a parser per object shape (new Function) on its first JIT parse: a few ms per
 * kind that only pays back over many objects. The first parses of each kind run zod's
 * interpreter instead (same result); a list's later items use the compiled parser (issue 20).
 */
const JIT_AFTER = 32;
const parsesOfKind = new Map<KindName, number>();

export function parseObject<K extends KindName>(kindName: K, raw: unknown): Parsed<ObjectOf<K>> {
  const info = KINDS[kindName];
  const label = objectLabel(kindName, raw);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ModelError(`${label} is not an object`);
  }
  const parses = (parsesOfKind.get(kindName) ?? 0) + 1;
  parsesOfKind.set(kindName, parses);
  const result = info.schema.safeParse(dropNulls(raw), parses > JIT_AFTER ? undefined : { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? describeIssuePath(issue.path) : "(object)";
    const what = issue ? issue.message.toLowerCase() : "does not fit";
    throw new ModelError(`${label} does not fit the ${info.kind} model: ${where}: ${what}`);
  }
  return { object: result.data as ObjectOf<K>, raw: raw as Record<string, unknown> };
}

/**
 * One served object of a list: parsed, or — when it does not fit the model — the ModelError
 * naming it and its field, for a list view that shows the others and warns (issue 14).
 */
export function parseListItem<K extends KindName>(kindName: K, raw: unknown): Parsed<ObjectOf<K>> | ModelError {
  try {
    return parseObject(kindName, raw);
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  }
}

function objectLabel(kindName: KindName, raw: unknown): string {
  const meta = (raw as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
  const name = typeof meta?.name === "string" ? meta.name : "<unnamed>";
  const ns = typeof meta?.namespace === "string" ? `${meta.namespace}/` : "";
  return `${KINDS[kindName].kind.toLowerCase()} ${ns}${name}`;
}
