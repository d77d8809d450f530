// The configuration a mutant runs under (test/mutation/checks.test.ts starts one vitest per
// mutant with it): the repository's own (vitest.config.ts: its projects, environment, timeouts),
// plus one plugin that serves ONE module of src/ with ONE textual change, named by the environment
// (PTAH_MUTANT: {"file": "src/…", "from": "…", "to": "…"}). Nothing is written anywhere: src/ on disk
// stays as it is, and the module keeps its own path, so its relative imports, and every importer
// (the real shell, the real commands), reach the mutant exactly as they would the original.
// Without PTAH_MUTANT the plugin serves every module as it is (the table's green run).
import fs from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";
import base from "../../vitest.config.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface Mutant {
  /** The module, relative to the repository: "src/plan/export.ts". */
  readonly file: string;
  /** Text that occurs exactly once in it, and what it becomes. */
  readonly from: string;
  readonly to: string;
}

/** The module's text with the mutant's change; throws unless `from` occurs exactly once. */
export function mutate(text: string, m: Mutant): string {
  const at = text.indexOf(m.from);
  if (at < 0 || text.indexOf(m.from, at + 1) >= 0) {
    throw new Error(`${m.file}: the mutant's text ${JSON.stringify(m.from)} occurs ${at < 0 ? "nowhere" : "more than once"}; the table names what to change`);
  }
  return text.slice(0, at) + m.to + text.slice(at + m.from.length);
}

function mutantPlugin(m: Mutant | undefined): Plugin {
  const target = m ? path.resolve(ROOT, m.file) : undefined;
  return {
    name: "ptah-mutant",
    enforce: "pre",
    load(id) {
      if (!m || !target || id.split("?")[0] !== target) return null;
      return mutate(fs.readFileSync(target, "utf8"), m);
    },
  };
}

const raw = process.env.PTAH_MUTANT;

export default defineConfig({
  ...base,
  root: ROOT,
  plugins: [mutantPlugin(raw ? (JSON.parse(raw) as Mutant) : undefined)],
  // A transformed module is never kept between runs: each mutant is transformed afresh.
  test: { ...base.test, experimental: { fsModuleCache: false } },
});
