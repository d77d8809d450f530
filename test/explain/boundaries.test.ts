// `explain` works with no cluster and never loads the Kubernetes client: the
// knowledge base may import only itself, src/model, src/errors and the lock analyser's list of
// finding codes (locks/finding-codes.ts, data: not the parser, nor the findings' sentences), and nothing `explain` runs reaches
// src/kube or an npm package. Also checks purity.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []));
}

/** Runtime imports only: `import type …` and `export type …` are erased. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) specs.push(m[1] ?? "");
  return specs;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      stack.push(spec.startsWith(".") ? resolve(dirname(file), spec) : `package:${spec}`);
    }
  }
  return seen;
}

const EXPLAIN_FILES = [...filesUnder(join(SRC, "explain")), join(SRC, "commands/explain/explain-view.ts"), join(SRC, "commands/explain/explain-command.ts")];

describe("explain boundaries", () => {
  it("keeps src/explain within src/explain, src/model, src/errors.ts and locks/finding-codes.ts", () => {
    for (const file of filesUnder(join(SRC, "explain"))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/from\s+"([^"]+)"/g)) {
        const spec = m[1] ?? "";
        const target = spec.startsWith(".") ? relative(SRC, resolve(dirname(file), spec)) : spec;
        expect(/^(explain\/|model\/|errors\.ts$|locks\/finding-codes\.ts$)/.test(target), `${relative(ROOT, file)} imports ${spec}`).toBe(true);
      }
    }
  });

  it("never reaches src/kube or any package from the explain command", () => {
    const loaded = [...reachable(join(SRC, "commands/explain/explain-command.ts"))].map((f) => (f.startsWith("package:") ? f : relative(SRC, f)));
    expect(loaded).toContain("explain/knowledge.ts");
    expect(loaded).toContain("commands/explain/explain-view.ts");
    expect(loaded.filter((f) => f.startsWith("package:") || f.startsWith("kube/") || f.startsWith("cli/"))).toEqual([]);
  });

  it("uses no process, console, clock or randomness", () => {
    for (const file of EXPLAIN_FILES) {
      const text = readFileSync(file, "utf8");
      expect(text, relative(ROOT, file)).not.toMatch(/\bprocess\.|\bconsole\.|Date\.now\(|new Date\(\)|Math\.random\(/);
    }
  });
});
