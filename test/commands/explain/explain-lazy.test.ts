// The table of the operator's messages loads only when explain is given a line of several words:
// `explain stale` (the bench's offline row) and `explain PlanNoLongerCurrent` read none of it.
// The npm bin's loader names every file of the bundle it loads (PTAH_CODE_CACHE_LOG); the chunks
// holding the matcher and its tables are found in esbuild's metafile, as test/distribution does.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle } from "../../support/npm-bundle.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const BIN = path.join(ROOT, "bin", "kubectl-ptah.js");
const TABLE_FILES = ["src/explain/message-match.ts", "src/explain/topics/refusal-messages.ts", "src/explain/topics/condition-messages.ts"];

let dir = "";
let tableChunks: string[] = [];

beforeAll(() => {
  ensureNpmBundle();
  const meta = JSON.parse(fs.readFileSync(path.join(ROOT, "dist", "meta.npm.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  tableChunks = Object.entries(meta.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => TABLE_FILES.includes(i)))
    .map(([out]) => path.resolve(ROOT, out));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-explain-lazy-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function loaded(args: readonly string[]): { files: string[]; stdout: string } {
  const log = path.join(dir, `${args.length}-${Math.random().toString(36).slice(2)}.log`);
  fs.writeFileSync(log, "");
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1", PTAH_CODE_CACHE_LOG: log }, timeout: 30_000 });
  const files = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(line.indexOf(" ") + 1));
  return { files, stdout: r.stdout };
}

describe("explain's table of messages loads lazily", () => {
  it("lives in chunks of its own, apart from the knowledge base and the command", () => {
    expect(tableChunks.length).toBeGreaterThan(0);
    const entry = loaded(["explain", "stale"]);
    expect(entry.stdout).toMatch(/^Stale \(approval state\)/u);
    for (const chunk of tableChunks) expect(entry.files, chunk).not.toContain(chunk);
  });

  it("a one-word reason reads none of it", () => {
    const r = loaded(["explain", "PlanNoLongerCurrent"]);
    for (const chunk of tableChunks) expect(r.files, chunk).not.toContain(chunk);
  });

  it("a pasted line loads it, and is placed", () => {
    const r = loaded(["explain", "-o", "name", "referenced plan storage is not ready"]);
    expect(r.stdout).toBe("concept/chunk\n");
    expect(tableChunks.some((chunk) => r.files.includes(chunk))).toBe(true);
  });
});
