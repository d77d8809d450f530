// The mutation figures as the docs state them, checked without running Stryker (`npm run mutate`
// takes minutes a module): docs/testing.md's block is exactly what stryker-report.mjs renders from
// the recorded results and the equivalents file; every equivalent names a mutant that still
// survives, with a reason; and docs/approving.md's count of the hand-written mutation table is the
// table's length.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MODULES } from "../mutation/stryker-modules.mjs";
import { BEGIN, END, EQUIVALENTS, keyOf, readJson, renderBlock, RESULTS, within } from "../mutation/stryker-report.mjs";
import { ROWS } from "../mutation/rows.ts";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), "utf8");

interface Survivor {
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
}
interface Equivalent extends Survivor {
  readonly module: string;
  readonly reason: string;
}

const results = readJson(RESULTS, {}) as Record<string, { survivors: Survivor[] }>;
const equivalents = readJson(EQUIVALENTS, []) as Equivalent[];

describe("the mutation figures in the docs", () => {
  it("docs/testing.md's block is the one rendered from the recorded results and equivalents", () => {
    const text = read("docs/testing.md");
    const i = text.indexOf(BEGIN);
    const j = text.indexOf(END);
    expect(i, `docs/testing.md has no ${BEGIN} … ${END} block`).toBeGreaterThanOrEqual(0);
    expect(text.slice(i + BEGIN.length + 1, j), "run node test/mutation/stryker-report.mjs").toBe(renderBlock(results, equivalents));
  });

  it("records only the modules npm run mutate mutates", () => {
    expect(Object.keys(results).filter((file) => !MODULES.some((m) => within(m.module, [file]).length > 0))).toEqual([]);
    for (const file of [...MODULES.map((m) => m.module), ...Object.keys(results)]) expect(fs.existsSync(path.join(REPO, file)), file).toBe(true);
  });

  it("names each equivalent mutant once, with a reason, and only while it survives", () => {
    const seen = new Set<string>();
    for (const e of equivalents) {
      const key = keyOf(e.module, e);
      expect(seen.has(key), `${key} is listed twice`).toBe(false);
      seen.add(key);
      expect(e.reason.trim().length, `${key} has no reason`).toBeGreaterThan(20);
      const survivors = results[e.module]?.survivors ?? [];
      expect(
        survivors.some((s) => keyOf(e.module, s) === key),
        `${key} is not a survivor of the last recorded run: a test kills it now, or the code changed; remove it`,
      ).toBe(true);
    }
  });

  it("docs/approving.md counts the hand-written mutation table's rows as they are", () => {
    const m = /`test\/mutation\/rows\.ts` \((\d+)\)/u.exec(read("docs/approving.md"));
    expect(m, "docs/approving.md names test/mutation/rows.ts with its count").not.toBeNull();
    expect(Number(m![1])).toBe(ROWS.length);
  });
});
