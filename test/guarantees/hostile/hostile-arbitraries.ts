// Hostile objects for every kind the plugin reads, derived from the zod models
// themselves (src/model/kinds.ts): every string a field of the model holds is drawn from escape
// sequences (CSI, OSC, C1 CSI), C0/C1 controls, DEL, bidi overrides and isolates, zero-width and
// combining characters, lone surrogates, emoji, YAML/JSON/jsonpath syntax, or is empty or huge;
// fields go missing, unknown fields appear at any level, lists grow long, and in a "broken" world
// one object gets a value of the wrong type or loses a required field.
//
// Objects of one world share small pools of names, namespaces, UIDs and fingerprints, so that
// references resolve (an approval binds a schema, a schema names its plan, a plan its chunks,
// an event its object) and the hostile strings reach the views that follow references, not only
// the lists.
import fc from "fast-check";
import type { z } from "zod";
import type { FakeObject } from "../../support/fake-reader.ts";
import { KINDS, PTAH_API_VERSION, type KindName } from "../../../src/model/parse.ts";
import { MODELS } from "../../../src/model/kinds.ts";
import { hostileString, dnsName, hostileInt, TIMESTAMPS, PHASES, CONDITION_TYPES, REASONS, STATUSES, EVENT_TYPES, SEVERITIES, OUTCOMES, fromListOr } from "./hostile-strings.ts";

// ------------------------------------------------------------------------------------ worlds

/** The shared pools of one world. */
export interface Pools {
  readonly names: readonly string[];
  readonly namespaces: readonly string[];
  readonly uids: readonly string[];
  readonly digests: readonly string[];
}

const hex64 = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 });

export const poolsArbitrary: fc.Arbitrary<Pools> = fc.record({
  names: fc
    .tuple(
      fc.uniqueArray(dnsName, { minLength: 3, maxLength: 5 }),
      fc.array(
        hostileString.filter((s) => s !== ""),
        { maxLength: 2 },
      ),
    )
    .map(([a, b]) => [...a, ...b]),
  namespaces: fc
    .tuple(
      fc.constantFrom("app", "default"),
      fc.oneof(
        dnsName,
        hostileString.filter((s) => s !== ""),
      ),
    )
    .map(([a, b]) => (a === b ? [a] : [a, b])),
  uids: fc.tuple(fc.uuid(), fc.uuid(), hostileString).map((u) => [...u]),
  digests: fc.tuple(hex64, hex64, hostileString).map(([a, b, c]) => [`sha256:${a}`, `sha256:${b}`, c]),
});

function fromPool(pool: readonly string[], weight: number): fc.Arbitrary<string> {
  return fc.oneof({ weight, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: hostileString });
}

/** The string a field gets, chosen by its key (and its parent's): linked, a known word, or hostile. */
function stringFor(path: readonly string[], pools: Pools): fc.Arbitrary<string> {
  const key = path[path.length - 1] ?? "";
  const parent = path[path.length - 2] ?? "";
  if (key === "name" || key === "jobName") return fromPool(pools.names, 6);
  if (key === "namespace") return fromPool(pools.namespaces, 8);
  if (key === "uid" || key === "verificationPolicyUID" || key === "mutationRequestUID") return fromPool(pools.uids, 4);
  if (/fingerprint|digest|operationID|Digest$/iu.test(key)) return fromPool(pools.digests, 3);
  if (/(At|Time|Timestamp)$/u.test(key)) return fromListOr(TIMESTAMPS);
  if (key === "apiVersion") return fromListOr([PTAH_API_VERSION, "v1"], 4);
  if (key === "phase") return fromListOr(PHASES);
  if (key === "type" && parent === "[]") return fromListOr(CONDITION_TYPES);
  if (key === "type" && path.length === 1) return fromListOr(EVENT_TYPES);
  if (key === "type") return fromListOr(["Apply", "Plan", "Migrate"]);
  if (key === "status" && parent === "[]") return fromListOr(STATUSES, 6);
  if (key === "reason") return fromListOr(REASONS, 2);
  if (key === "severity" || key === "highestDriftSeverity" || key === "driftSeverity") return fromListOr(SEVERITIES);
  if (key === "outcome") return fromListOr(OUTCOMES);
  if (key === "apply") return fromListOr(["OnApproval", "Automatic", "Never"]);
  return hostileString;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  checks?: { _zod: { def: { check?: string } } }[];
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Unwraps optional/default/pipe wrappers: the wire shape of a field. */
function wireOf(schema: z.ZodType): { schema: z.ZodType; optional: boolean } {
  let s = schema;
  let optional = false;
  for (;;) {
    const d = defOf(s);
    if (d.type === "optional" || d.type === "default") {
      optional = true;
      s = d.innerType!;
    } else if (d.type === "pipe") s = d.in!;
    else return { schema: s, optional };
  }
}

/** fc.dictionary builds null-prototype objects; a server's JSON has plain ones. */
function plain<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o));
}

const extraKey = fc.oneof(
  fc.constantFrom("x-extra", "spec", "status", "metadata", "__proto__x", "items", "kind"),
  hostileString.filter((s) => s !== ""),
);
const extraValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileInt,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(hostileString, tie("v"), { maxKeys: 3 }).map(plain),
  ),
})).v;

/**
 * A value of the wire shape of `schema`, at `path` (keys; "[]" for an array element): every
 * optional field present or not, unknown fields now and then, lists usually short and
 * sometimes long, strings from stringFor.
 */
export function valueOf(schema: z.ZodType, path: readonly string[], pools: Pools): fc.Arbitrary<unknown> {
  const { schema: wire } = wireOf(schema);
  const d = defOf(wire);
  switch (d.type) {
    case "string":
      return stringFor(path, pools);
    case "number":
      return hostileInt;
    case "boolean":
      return fc.boolean();
    case "array": {
      const element = valueOf(d.element!, [...path, "[]"], pools);
      return fc.oneof({ weight: 30, arbitrary: fc.array(element, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.array(element, { minLength: 40, maxLength: 150 }) });
    }
    case "record": {
      const key = path[path.length - 1] ?? "";
      const keys =
        key === "labels" ? fc.oneof(fc.constantFrom("operator.ptah.run/schema", "operator.ptah.run/migration", "operator.ptah.run/plan", "app"), hostileString) : hostileString;
      const values = key === "labels" ? fromPool(pools.names, 4) : stringFor(path, pools);
      return fc.dictionary(keys, values, { maxKeys: 4 }).map(plain);
    }
    case "object": {
      const entries: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, field] of Object.entries(d.shape!)) {
        const { optional } = wireOf(field);
        const value = valueOf(field, [...path, k], pools);
        // Present most of the time; optional fields go missing now and then.
        entries[k] = optional ? fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: fc.constant(MISSING) }) : value;
      }
      const extras = fc.oneof(
        { weight: 9, arbitrary: fc.constant([] as [string, unknown][]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, extraValue), { minLength: 1, maxLength: 3 }) },
      );
      return fc.tuple(fc.record(entries), extras).map(([o, extra]) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(o)) if (v !== MISSING) out[k] = v;
        // Unknown fields only: a known field of the wrong type is the broken world's business.
        for (const [k, v] of extra) if (!(k in d.shape!)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        return out;
      });
    }
    default:
      throw new Error(`hostile-arbitraries: no generator for zod type ${d.type} at ${path.join(".")}`);
  }
}

const MISSING = Symbol("missing");

/** One hostile object of `kind`, as a server could serve it. */
export function objectOf(kind: KindName, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const info = KINDS[kind];
  const apiVersion = info.group ? PTAH_API_VERSION : info.version;
  return fc.tuple(valueOf(MODELS[kind], [], pools) as fc.Arbitrary<Record<string, unknown>>, fc.nat(9), fc.nat(9)).map(([raw, a, b]) => {
    // Usually the right apiVersion and kind (the reader restores them on lists anyway).
    if (a < 8) raw.apiVersion = apiVersion;
    if (b < 8) raw.kind = info.kind;
    const meta = raw.metadata as Record<string, unknown>;
    // The model needs a name; a missing one is the broken world's business.
    if (typeof meta.name !== "string" || meta.name === "") meta.name = pools.names[a % pools.names.length]!;
    return raw;
  });
}

// ------------------------------------------------------------------------------------ breaking

type Path = (string | number)[];

/** Every path to a value inside `raw` (objects and arrays included), except the root. */
export function paths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > 0) out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...path, i], out));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...path, k], out);
  return out;
}

function wrongTypeFor(value: unknown, pick: number): unknown {
  const choices: unknown[] =
    typeof value === "string"
      ? [42, true, { s: value }, [value], -0.5]
      : typeof value === "number"
        ? [String(value), 1.5, true, [value], {}]
        : typeof value === "boolean"
          ? ["true", 1, [], {}]
          : Array.isArray(value)
            ? [{ 0: value[0] ?? "x" }, "[]", 3, true]
            : ["{}", [value], 7, false];
  return choices[pick % choices.length];
}

/**
 * A value of the wrong type somewhere in the object, or a required field removed: what an
 * operator of another version, or a person with write access, could store. The model must
 * reject it with one line naming the object and the field.
 */
export function breakObject(raw: Record<string, unknown>, where: number, pick: number): Record<string, unknown> {
  const all = paths(raw);
  const copy = structuredClone(raw);
  if (pick % 7 === 6) {
    // a required field gone: metadata.name, or a condition's type
    delete (copy.metadata as Record<string, unknown>).name;
    return copy;
  }
  const path = all[where % all.length]!;
  let parent: Record<string | number, unknown> = copy;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  parent[last] = wrongTypeFor(parent[last], pick);
  return copy;
}

// ------------------------------------------------------------------------------------ world

export const ALL_KINDS: readonly KindName[] = Object.keys(KINDS) as KindName[];

export interface World {
  readonly pools: Pools;
  readonly focus: KindName;
  readonly objects: FakeObject[];
  /** When set, this object (index into objects) was broken on purpose. */
  readonly broken: number | undefined;
}

/**
 * A world of `batch` hostile objects of `focus` and a few of every other kind, in the same pools;
 * one world in eight holds one broken object.
 */
export function worldOf(focus: KindName, batch: number): fc.Arbitrary<World> {
  return poolsArbitrary.chain((pools) =>
    fc
      .record({
        focus: fc.array(objectOf(focus, pools), { minLength: batch, maxLength: batch }),
        others: fc.tuple(...ALL_KINDS.filter((k) => k !== focus).map((k) => fc.array(objectOf(k, pools), { maxLength: 3 }).map((list) => list.map((raw) => ({ kind: k, raw }))))),
        breakIt: fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.nat(), fc.nat()) }),
      })
      .map(({ focus: mine, others, breakIt }) => {
        const objects: FakeObject[] = [...mine.map((raw) => ({ kind: focus, raw })), ...others.flat()];
        let broken: number | undefined;
        if (breakIt) {
          const [which, where, pick] = breakIt;
          broken = which % mine.length;
          objects[broken] = { kind: focus, raw: breakObject(objects[broken]!.raw, where, pick) };
        }
        return { pools, focus, objects, broken };
      }),
  );
}
