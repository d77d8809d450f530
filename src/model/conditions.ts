// Condition lookups on parsed objects. Apart from meta.ts, which builds zod schemas: offline
// paths (explain, help, completion) use these and must not load zod
// (test/distribution/fast-start.test.ts).
import type { Condition } from "./meta.ts";

/** The condition of that type, if the object reports one. */
export function findCondition(conditions: readonly Condition[], type: string): Condition | undefined {
  return conditions.find((c) => c.type === type);
}

export function isTrue(conditions: readonly Condition[], type: string): boolean {
  return findCondition(conditions, type)?.status === "True";
}
