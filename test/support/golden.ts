// The one way a test compares output with a golden file: `expectGolden(text, "plan/current.txt")`,
// the name relative to test/golden and written out in full in the test's source (never built from
// message text), so test/goldens.test.ts can tell which files some test reads. vitest.config.ts
// sets `update: "none"`: a missing golden fails; only `npm run test:update` writes them.
import path from "node:path";
import { expect } from "vitest";

export const GOLDEN_DIR = path.resolve(import.meta.dirname, "..", "golden");

/** A golden's name: `<folder>/<file>.<txt|json|yaml|sql|html>`, lowercase words and dashes. */
export const GOLDEN_NAME = /^[a-z0-9-]+\/[a-z0-9][a-z0-9.-]*\.(txt|json|yaml|sql|html)$/u;

export async function expectGolden(actual: string, name: string): Promise<void> {
  if (!GOLDEN_NAME.test(name)) throw new Error(`golden name ${JSON.stringify(name)} is not <folder>/<file>.<txt|json|yaml|sql|html>`);
  await expect(actual).toMatchFileSnapshot(path.join(GOLDEN_DIR, name));
}
