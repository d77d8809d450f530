// Properties of model parsing (src/model/parse.ts): the operator adds fields over time, so any
// extra unknown field still parses; and any junk either parses or throws ModelError (exit 1,
// one line naming the object), never anything else.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ModelError, formatError } from "../../src/errors.ts";
import { isTerminalSafe, sanitizeMultiline } from "../../src/render/sanitize.ts";
import { KINDS, PTAH_API_VERSION, parseObject, type KindName } from "../../src/model/parse.ts";
import { CONSUMED_AND_STALE, aMigration, anApproval, awaitingSchema, blockedSchema, cond, inSyncSchema } from "../support/builders.ts";
import { Tally, runs } from "./runs.ts";

const tally = new Tally("model parsing");
afterAll(() => console.log(tally.summary()));

type Raw = Record<string, unknown>;

function minimal(kind: KindName): Raw {
  const info = KINDS[kind];
  return {
    apiVersion: info.group ? PTAH_API_VERSION : info.version,
    kind: info.kind,
    metadata: { name: `a-${kind.toLowerCase()}`, namespace: "app", uid: "u-1", generation: 1, resourceVersion: "7", creationTimestamp: "2026-11-30T11:00:00Z" },
  };
}

/** Contract-shaped objects for every kind: the builders' rich ones, and a minimal one of each kind. */
const SAMPLES: { kind: KindName; raw: Raw }[] = [
  { kind: "PtahSchema", raw: awaitingSchema() },
  { kind: "PtahSchema", raw: inSyncSchema() },
  { kind: "PtahSchema", raw: blockedSchema() },
  { kind: "PtahSchemaApproval", raw: anApproval({ name: "a1", conditions: CONSUMED_AND_STALE }) },
  { kind: "PtahMigration", raw: aMigration({ phase: "AwaitingApproval", conditions: [cond("Ready", "False", "AwaitingApproval", "m")] }) },
  ...(Object.keys(KINDS) as KindName[]).map((kind) => ({ kind, raw: minimal(kind) })),
];

// Maps whose keys are data, not fields: an extra key there is a value the model checks.
const MAPS = new Set(["labels", "annotations", "data", "binaryData"]);

/** Paths to every plain object in `raw` where an unknown field may be added. */
function objectPaths(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((v, i) => objectPaths(v, [...path, i], out));
  else if (value !== null && typeof value === "object") {
    out.push(path);
    for (const [k, v] of Object.entries(value)) if (!MAPS.has(k)) objectPaths(v, [...path, k], out);
  }
  return out;
}

function at(root: unknown, path: readonly (string | number)[]): Raw {
  let cur = root as Raw;
  for (const p of path) cur = (cur as Record<string | number, unknown>)[p] as Raw;
  return cur;
}

const sample = fc.constantFrom(...SAMPLES);

/** A ModelError as the CLI prints it (cli/run.ts): one terminal-safe `error: …` line naming the object. */
function printsOneSafeLine(err: unknown): boolean {
  if (!(err instanceof ModelError)) throw err;
  const line = sanitizeMultiline(formatError(err).trimEnd());
  return !line.includes("\n") && isTerminalSafe(line) && /^error: [a-z]+ .*(is not an object|does not fit the \w+ model: .+)$/u.test(line);
}
const extraKey = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x${k}`);
const extraValue = fc.jsonValue({ maxDepth: 3 });

describe("parseObject (property)", () => {
  const n = runs(3000);

  it("every sample is valid to begin with", () => {
    for (const s of SAMPLES) expect(() => parseObject(s.kind, structuredClone(s.raw))).not.toThrow();
  });

  it("objects with extra unknown fields anywhere still parse, to the same model", () =>
    tally.check(
      "unknown fields tolerated",
      fc.property(sample, fc.array(fc.tuple(fc.nat(), extraKey, extraValue), { minLength: 1, maxLength: 6 }), (s, extras) => {
        const raw = structuredClone(s.raw);
        const paths = objectPaths(raw);
        for (const [i, key, value] of extras) {
          const target = at(raw, paths[i % paths.length]!);
          if (!(key in target)) target[key] = value;
        }
        const parsed = parseObject(s.kind, raw);
        // The raw form (for -o json/yaml) keeps the extras; the typed form is the original's.
        return parsed.raw === raw && JSON.stringify(parsed.object) === JSON.stringify(parseObject(s.kind, structuredClone(s.raw)).object);
      }),
      n,
    ));

  it("a field replaced by junk either still parses or throws a ModelError the CLI prints as one safe line", () =>
    tally.check(
      "junk in a field: ModelError or parsed",
      fc.property(sample, fc.nat(), fc.anything({ maxDepth: 3, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }), (s, i, junk) => {
        const raw = structuredClone(s.raw);
        const paths = objectPaths(raw).filter((p) => p.length > 0);
        const path = paths[i % paths.length]!;
        at(raw, path.slice(0, -1))[path[path.length - 1] as string] = junk;
        try {
          parseObject(s.kind, raw);
          return true;
        } catch (err) {
          return printsOneSafeLine(err);
        }
      }),
      n,
    ));

  it("arbitrary values either parse or throw ModelError, for every kind", () =>
    tally.check(
      "arbitrary values: ModelError or parsed",
      fc.property(
        fc.constantFrom(...(Object.keys(KINDS) as KindName[])),
        fc.anything({ maxDepth: 4, withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true }),
        (kind, junk) => {
          try {
            parseObject(kind, junk);
            return true;
          } catch (err) {
            return printsOneSafeLine(err);
          }
        },
      ),
      n,
    ));

  it("objects shaped like the contract, with every field typed at random, either parse or throw ModelError", () => {
    const scalar = fc.oneof(fc.string({ unit: "binary", maxLength: 10 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const conditions = fc.array(
      fc.record({ type: scalar, status: scalar, reason: scalar, message: scalar, lastTransitionTime: scalar, observedGeneration: scalar }, { requiredKeys: [] }),
      { maxLength: 4 },
    );
    const shaped = fc.record(
      {
        apiVersion: fc.constant(PTAH_API_VERSION),
        kind: scalar,
        metadata: fc.record({ name: scalar, namespace: scalar, uid: scalar, generation: scalar, labels: fc.dictionary(fc.string(), scalar, { maxKeys: 2 }) }, { requiredKeys: [] }),
        spec: fc.dictionary(
          fc.constantFrom("schemaRef", "planRef", "planFingerprint", "target", "desired", "policy", "suspend", "artifact"),
          fc.oneof(scalar, fc.dictionary(fc.constantFrom("name", "uid", "engine", "apply"), scalar)),
          { maxKeys: 4 },
        ),
        status: fc.record(
          {
            phase: scalar,
            observedGeneration: scalar,
            conditions: fc.oneof(conditions, scalar),
            plan: fc.oneof(scalar, fc.dictionary(fc.constantFrom("name", "uid", "fingerprint", "statementCount", "destructive", "approval"), scalar)),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ["metadata"] },
    );
    return tally.check(
      "contract-shaped junk: ModelError or parsed",
      fc.property(fc.constantFrom(...(Object.keys(KINDS) as KindName[])), shaped, (kind, raw) => {
        try {
          parseObject(kind, raw);
          return true;
        } catch (err) {
          return printsOneSafeLine(err);
        }
      }),
      n,
    );
  });
});
