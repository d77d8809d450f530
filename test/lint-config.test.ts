// Every package the lint configuration names is one package.json has: a rule that keeps a library
// nobody uses to one layer guards an import nothing can make, and tells a reader the library is in
// use. Read from the three configs' text: `owned("pkg", …)` and the quoted package lists
// (eslint.read-only.js's DEPENDENCIES, eslint.layers.js's VALUES and TYPES).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TYPES, VALUES } from "../eslint.layers.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const KNOWN = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);

/** The package a specifier names: `@scope/name` or `name`, without a subpath; undefined for `node:` and relative ones. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith("node:") || specifier.startsWith(".")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The packages a config's text names in `owned("…", …)` and in `const DEPENDENCIES = [...]`. */
export function namedPackages(text: string): string[] {
  const owned = [...text.matchAll(/owned\("([^"]+)"/gu)].map((m) => m[1]!);
  const list = /const DEPENDENCIES = \[([^\]]*)\]/u.exec(text)?.[1] ?? "";
  return [...owned, ...[...list.matchAll(/"([^"]+)"/gu)].map((m) => m[1]!)];
}

describe("the lint configuration", () => {
  it("names only packages package.json has", () => {
    const fromText = ["eslint.config.js", "eslint.read-only.js"].flatMap((f) => namedPackages(fs.readFileSync(path.join(ROOT, f), "utf8")));
    const fromLayers = [...Object.values(VALUES), ...Object.values(TYPES)].flat();
    const named = [...new Set([...fromText, ...fromLayers].map(packageOf).filter((p): p is string => p !== undefined))];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((p) => !KNOWN.has(p))).toEqual([]);
  });

  it("reads a package's name and the config's lists as written", () => {
    expect(packageOf("@modelcontextprotocol/sdk/server/index.js")).toBe("@modelcontextprotocol/sdk");
    expect(packageOf("libpg-query/wasm/libpg-query.js")).toBe("libpg-query");
    expect(packageOf("node:fs")).toBeUndefined();
    expect(namedPackages('owned("yargs", "cli/"), x; const DEPENDENCIES = ["zod", "js-yaml"];')).toEqual(["yargs", "zod", "js-yaml"]);
  });
});
