// The validators parseObject runs, one per kind: the first problem's path and message, or the
// parsed object (unknown fields dropped, absent spec/status/conditions filled in). Here, as the
// sources and the tests run them, they are zod's safeParse of the models (kinds.ts MODELS). The
// bundle replaces this module with plain code src/model/codegen.ts generates from the same models
// (krew/bundle.mjs): no zod at run time. test/model/validators.property.test.ts shows
// the two agree on what they accept, what they return and which problem they name.
import type { z } from "zod";
import { MODELS } from "./kinds.ts";

export type Validation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly path: readonly PropertyKey[]; readonly message: string };
export type Validator = (input: unknown) => Validation;

/** zod's result as a Validation: its first issue, the one a one-line refusal names. */
export function fromZodResult(result: z.ZodSafeParseResult<unknown>): Validation {
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, path: issue?.path ?? [], message: issue?.message ?? "does not fit" };
}

/**
 * zod compiles a parser per object shape (new Function) on its first JIT parse: a few ms per
 * kind that only pays back over many objects. The first parses of each kind run zod's
 * interpreter instead (same result); a list's later items use the compiled parser.
 */
const JIT_AFTER = 32;

function zodValidator(schema: z.ZodType): Validator {
  let parses = 0;
  return (input) => fromZodResult(schema.safeParse(input, ++parses > JIT_AFTER ? undefined : { jitless: true }));
}

export const VALIDATORS = Object.fromEntries(Object.entries(MODELS).map(([kind, schema]) => [kind, zodValidator(schema)])) as Record<keyof typeof MODELS, Validator>;

/**
 * While a list is read (kube/reader.ts), the generated validators return one string for equal
 * strings of its items: at 5,000 schemas the same images, reasons, messages, namespaces and
 * identities are otherwise held once per object. zod returns the input's own strings;
 * the values are the same either way (a string's identity is not observable).
 */
export function setStringPool(_pool: Map<string, string> | undefined): void {}
