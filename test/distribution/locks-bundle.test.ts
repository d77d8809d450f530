// The lock analyser as it ships: PostgreSQL's parser (WebAssembly) must load from the built npm
// tree (through the commands that show lock impact: test/distribution/bin-parity.test.ts runs
// `plan --locks` from it and from the binary) and from a single-file bundle built as the single
// binary's script is (the .wasm from a gzipped asset, krew/wasm-asset.mjs), and only where it is used: no chunk the entry loads statically holds it,
// and the commands that need no cluster never load it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LockReport } from "../../src/locks/index.ts";
import { embedWasm, WASM_ASSET, writeWasmAsset } from "../../krew/wasm-asset.mjs";
import { ensureNpmBundle, NPM_BIN, REPO } from "../support/npm-bundle.ts";

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string }>; entryPoint?: string }>;
}

let dir = "";
beforeAll(() => {
  ensureNpmBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-locks-bundle-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const STATEMENT = [{ sql: "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers (id)" }];
const EXPECTED = [
  { relation: "public.customers", mode: "SHARE ROW EXCLUSIVE" },
  { relation: "public.orders", mode: "SHARE ROW EXCLUSIVE" },
];

describe("the npm tree (dist/npm/)", () => {
  // The analysis itself runs from the npm tree in test/distribution/bin-parity.test.ts: the npm
  // bin's `plan storefront --locks` (the .wasm beside the parser's chunk), then the binary's.
  it("keeps the parser out of everything the entry loads statically, and out of a command that needs no cluster", () => {
    const meta = JSON.parse(fs.readFileSync(path.join(REPO, "dist", "meta.npm.json"), "utf8")) as Metafile;
    const holding = Object.entries(meta.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes("node_modules/libpg-query/")))
      .map(([out]) => out);
    expect(holding).toHaveLength(1);
    expect(fs.existsSync(path.join(REPO, path.dirname(holding[0]!), "libpg-query.wasm"))).toBe(true);
    const entry = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === "src/main.ts")![0];
    const reached = new Set<string>();
    const walk = (out: string): void => {
      for (const imp of meta.outputs[out]?.imports ?? []) {
        if (imp.kind !== "import-statement" || reached.has(imp.path)) continue;
        reached.add(imp.path);
        walk(imp.path);
      }
    };
    walk(entry);
    expect([...reached].filter((o) => holding.includes(o))).toEqual([]);
    const log = path.join(dir, "loaded.log");
    const r = spawnSync(process.execPath, [NPM_BIN, "explain", "stale"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1", PTAH_CODE_CACHE_LOG: log } });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(log, "utf8")).not.toContain(path.basename(holding[0]!));
  });
});

describe("the single binary's way (a single-file bundle, the .wasm from a gzipped asset)", () => {
  it("analyses a statement with the parser's bytes handed to it, no .wasm file beside the bundle", async () => {
    const out = path.join(dir, "sea-like", "locks.cjs");
    await build({
      entryPoints: [path.join(REPO, "src", "locks", "index.ts")],
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      outfile: out,
      logLevel: "warning",
      plugins: [embedWasm(path.join(REPO, "src", "cli", "embedded.ts"))],
    });
    writeWasmAsset(path.dirname(out));
    expect(fs.readdirSync(path.dirname(out)).sort()).toEqual([WASM_ASSET, "locks.cjs"]);
    // A child node: the bundle's own parser state, as in the binary.
    const script = `require(${JSON.stringify(out)}).analyseStatements(${JSON.stringify(STATEMENT)}, {}, "postgres").then((r) => process.stdout.write(JSON.stringify(r)))`;
    const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as LockReport;
    expect(report.analysed).toBe(true);
    expect(report.statements[0]!.locks).toEqual(EXPECTED);
  });
});
