// Every module outside src/ is at most 300 lines too (src/ is held by test/architecture.test.ts):
// the lab, the release tools, CI's scripts, and the test tree's own modules (support, simulator,
// scenarios, bench, property generators). Test files themselves (*.test.ts), goldens and the data
// tables of cases are not modules of the product's structure.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROOTS = ["lab", "krew", ".ci", "test"];
/** Data: one table of tampered plans, a case per entry. */
const DATA = new Set(["test/plan/tampering-cases.ts"]);

function modules(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== "golden" && e.name !== "node_modules") out.push(...modules(rel));
    } else if (/\.(ts|mjs|js|cjs)$/u.test(e.name) && !e.name.endsWith(".test.ts") && !DATA.has(rel)) out.push(rel);
  }
  return out;
}

describe("module size outside src/", () => {
  const all = ROOTS.filter((r) => fs.existsSync(path.join(ROOT, r))).flatMap(modules);
  it("finds the lab, the simulator and the test support modules", () => {
    expect(all).toEqual(expect.arrayContaining(["lab/cli.ts", "lab/postgres.ts", "test/sim/main.ts", "test/support/cli.ts", "test/bench/bench.mjs"]));
  });
  it.each(all)("%s is at most 300 lines", (rel) => {
    const lines = fs.readFileSync(path.join(ROOT, rel), "utf8").split("\n").length - 1;
    expect(lines, `${rel} has ${lines} lines`).toBeLessThanOrEqual(300);
  });
});
