// The generated validators (src/model/codegen.ts, what the bundle runs) against zod (what the
// sources and the models are): for every kind, ≥ 10,000 generated objects — valid
// ones as a server could serve them, each with one field off (a wrong type, a required field
// gone), and hostile ones (any JSON value in place of the object or of a part of it) — both
// accept or both refuse, return the same value, and name the same first problem (path and
// message), which is what a refusal prints.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateValidators } from "../../src/model/codegen.ts";
import { MODELS } from "../../src/model/kinds.ts";
import { fromZodResult, type Validator } from "../../src/model/validators.ts";
import { ALL_KINDS, breakObject, objectOf, paths, poolsArbitrary } from "../guarantees/hostile/hostile-arbitraries.ts";

const PER_FORM = 3_400; // × 3 forms = 10,200 objects per kind
let dir = "";

/** The generated module for `models`, imported from a file as the bundle would run it. */
interface GeneratedModule {
  VALIDATORS: Record<string, Validator>;
  setStringPool(pool: Map<string, string> | undefined): void;
}
async function loadModule(models: Readonly<Record<string, z.ZodType>>, name: string): Promise<GeneratedModule> {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, generateValidators(models));
  return (await import(pathToFileURL(file).href)) as GeneratedModule;
}

let generated: Record<string, Validator> = {};
let generatedModule: GeneratedModule;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-validators-"));
  generatedModule = await loadModule(MODELS, "models");
  generated = generatedModule.VALIDATORS;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `raw` with the value at one of its paths (chosen by `where`) replaced by `value`. */
function replaced(raw: Record<string, unknown>, where: number, value: unknown): unknown {
  const all = [[], ...paths(raw)];
  const at = all[where % all.length]!;
  if (at.length === 0) return value;
  const copy = structuredClone(raw) as Record<string | number, unknown>;
  let parent = copy;
  for (const p of at.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
  parent[at[at.length - 1]!] = value;
  return copy;
}

// JSON as a server (or anyone with write access) could store it: JSON.parse's own output.
const anyJson = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

type Form = "valid" | "one field off" | "hostile";
const FORMS: readonly Form[] = ["valid", "one field off", "hostile"];

describe("the generated validators agree with zod", () => {
  const tally: string[] = [];
  afterAll(() => console.log(`validators vs zod (${PER_FORM} objects per form and kind):\n  ${tally.join("\n  ")}`));

  // One property run checks a served object in all three forms: the valid object, it with one
  // field off, and it with any JSON value in place of itself or of one of its parts.
  it.each(ALL_KINDS)("%s: valid, one-field-off and hostile objects", (kind) => {
    const counts = Object.fromEntries(FORMS.map((f) => [f, { accepted: 0, refused: 0 }])) as Record<Form, { accepted: number; refused: number }>;
    // Half the objects are read with a string pool, as a list reads its items (kube/reader.ts):
    // one pool for the whole run, so later objects meet the strings of earlier ones.
    const pool = new Map<string, string>();
    let runs = 0;
    const check = (form: Form, input: unknown): void => {
      const expected = fromZodResult(MODELS[kind].safeParse(input));
      generatedModule.setStringPool(++runs % 2 === 0 ? pool : undefined);
      const actual = generated[kind]!(input);
      generatedModule.setStringPool(undefined);
      counts[form][expected.ok ? "accepted" : "refused"]++;
      // expect() only on a difference: it names both sides, and fast-check shrinks the input.
      if (!isDeepStrictEqual(actual, expected)) expect({ form, input, actual }).toStrictEqual({ form, input, actual: expected });
    };
    fc.assert(
      fc.property(
        poolsArbitrary.chain((pools) => objectOf(kind, pools)),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        anyJson,
        (raw, where, pick, at, value) => {
          check("valid", raw);
          check("one field off", breakObject(raw, where, pick));
          check("hostile", replaced(raw, at, value));
        },
      ),
      { numRuns: PER_FORM },
    );
    tally.push(`${kind}: ${FORMS.map((f) => `${f} ${counts[f].accepted} accepted / ${counts[f].refused} refused`).join(", ")}`);
    // Each form reaches the side it is for: valid objects are accepted, broken ones mostly refused.
    expect(counts.valid.refused).toBe(0);
    expect(counts["one field off"].refused).toBeGreaterThan(PER_FORM * 0.5);
    expect(counts.hostile.refused).toBeGreaterThan(PER_FORM * 0.2);
    expect(pool.size).toBeGreaterThan(0);
  });

  it("returns a fresh default each time (a caller may change what it got)", () => {
    const first = generated.PtahSchema!({ metadata: { name: "a" } });
    const second = generated.PtahSchema!({ metadata: { name: "a" } });
    expect(first).toStrictEqual(second);
    expect(first.ok && second.ok && (first.value as { spec: object }).spec !== (second.value as { spec: object }).spec).toBe(true);
  });
});

describe("the generator", () => {
  it.each([
    ["a union", z.object({ a: z.union([z.string(), z.number()]) })],
    ["a refinement", z.object({ a: z.string().refine((s) => s !== "x") })],
    ["a transform", z.object({ a: z.string().transform((s) => s.length) })],
    ["a string format", z.object({ a: z.string().email() })],
    ["a number bound", z.object({ a: z.number().max(3) })],
    ["an enum", z.object({ a: z.enum(["x", "y"]) })],
    ["a record with checked keys", z.object({ a: z.record(z.string().min(2), z.string()) })],
    ["a catchall", z.object({ a: z.string() }).catchall(z.string())],
    ["an array length", z.object({ a: z.array(z.string()).min(1) })],
    ["a default that is not JSON", z.object({ a: z.string().default(() => undefined as unknown as string) })],
  ])("refuses %s rather than guessing at it", (_what, schema) => {
    expect(() => generateValidators({ Kind: schema })).toThrow();
  });

  it("writes each shared node once", () => {
    const code = generateValidators(MODELS);
    expect(code.match(/= str\(0\);/gu)).toHaveLength(1);
    expect(code).not.toMatch(/zod/u);
  });
});
