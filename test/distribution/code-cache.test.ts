// The npm bin's V8 code cache (src/cli/code-cache.ts): the first run compiles and
// writes one entry per script it compiled (a file alone, or a pack of the files a start loads
// together: krew/packs.mjs), the second run is served from them, and a changed bundle
// (even by a change of the same length, which V8's own check does not see: each entry holds its
// source's bytes) or another Node is never served from an old entry. A pack runs the same files,
// in the same order, as the files alone. Each run is the real bin on a private copy of the build.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle, REPO } from "../support/npm-bundle.ts";
import { cacheEntryName, codeCacheDir, decodeEntry, encodeEntry } from "../../src/cli/code-cache.ts";
import { removePacks } from "../../krew/packs.mjs";

const ROOT = REPO;
let dir = "";
let pkg = "";
let bin = "";

beforeAll(() => {
  ensureNpmBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-code-cache-"));
  // A copy of what npm installs (bin/, dist/start.cjs, dist/npm/): this test edits its bundle.
  pkg = path.join(dir, "pkg");
  fs.cpSync(path.join(ROOT, "bin"), path.join(pkg, "bin"), { recursive: true });
  fs.mkdirSync(path.join(pkg, "dist"));
  fs.copyFileSync(path.join(ROOT, "dist", "start.cjs"), path.join(pkg, "dist", "start.cjs"));
  fs.cpSync(path.join(ROOT, "dist", "npm"), path.join(pkg, "dist", "npm"), { recursive: true });
  bin = path.join(pkg, "bin", "kubectl-ptah.js");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** The bin with ARGS and the cache in CACHE; each file it loaded with its outcome. */
function run(args: readonly string[], cache: string, env: NodeJS.ProcessEnv = {}, which: string = bin) {
  const log = path.join(dir, `log-${++runs}`);
  const r = spawnSync(process.execPath, [which, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: path.join(dir, "home"), NO_COLOR: "1", PTAH_CODE_CACHE_DIR: cache, PTAH_CODE_CACHE_LOG: log, ...env },
    timeout: 30_000,
  });
  const loads = fs.existsSync(log)
    ? fs
        .readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => ({ outcome: line.slice(0, line.indexOf(" ")), file: path.relative(pkg, line.slice(line.indexOf(" ") + 1)) }))
    : [];
  // The scripts compiled (files alone and packs), each with its cache outcome; "packed" lines name a
  // file run from a pack compiled before.
  const scripts = loads.filter((l) => l.outcome !== "packed");
  const ran = loads.filter((l) => !l.file.endsWith(".pack")).map((l) => l.file);
  return { ...r, loads, scripts, ran, outcomes: new Set(scripts.map((l) => l.outcome)) };
}

const entries = (cache: string): string[] => (fs.existsSync(cache) ? fs.readdirSync(cache).sort() : []);

describe("the code cache", () => {
  it("is written on the first run, one entry per script compiled, and serves every script on the second", () => {
    const cache = path.join(dir, "first-second");
    const first = run(["explain", "stale"], cache);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.scripts.length).toBeGreaterThan(1);
    expect(first.outcomes).toEqual(new Set(["miss"]));
    expect(entries(cache)).toHaveLength(first.scripts.length);
    for (const { file } of first.scripts) expect(entries(cache).some((e) => e.startsWith(`${path.basename(file)}.v`))).toBe(true);
    const second = run(["explain", "stale"], cache);
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.loads).toEqual(first.loads.map((l) => ({ ...l, outcome: l.outcome === "packed" ? "packed" : "hit" })));
    expect(second.outcomes).toEqual(new Set(["hit"]));
    // Nothing to write when everything was served.
    expect(entries(cache)).toHaveLength(first.scripts.length);
  });

  it("runs from its packs the same files, in the same order, as from the files alone, with the same answer", () => {
    const alone = path.join(dir, "alone");
    fs.cpSync(pkg, alone, { recursive: true });
    removePacks(path.join(alone, "dist", "npm"));
    for (const args of [["explain", "stale"], ["--help"], ["status", "--kubeconfig", path.join(dir, "missing-config")], ["plan", "--help"]]) {
      const packed = run(args, path.join(dir, "packed-cache"));
      const unpacked = run(args, path.join(dir, "alone-cache"), {}, path.join(alone, "bin", "kubectl-ptah.js"));
      expect(
        packed.loads.some((l) => l.outcome === "packed"),
        args.join(" "),
      ).toBe(true);
      expect(
        unpacked.loads.some((l) => l.outcome === "packed" || l.file.endsWith(".pack")),
        args.join(" "),
      ).toBe(false);
      expect(packed.ran, args.join(" ")).toEqual(unpacked.ran.map((f) => f.replace(/^\.\.\/alone\//u, "")));
      expect({ status: packed.status, stdout: packed.stdout, stderr: packed.stderr }).toEqual({ status: unpacked.status, stdout: unpacked.stdout, stderr: unpacked.stderr });
    }
  });

  it("serves a command's files and compiles only the ones it had not loaded before", () => {
    const cache = path.join(dir, "widening");
    expect(run(["--help"], cache).status).toBe(0);
    const status = run(["status", "--kubeconfig", path.join(dir, "missing-config")], cache);
    expect(status.status).toBe(1);
    const hits = status.scripts.filter((l) => l.outcome === "hit").map((l) => l.file);
    const misses = status.scripts.filter((l) => l.outcome === "miss").map((l) => l.file);
    expect(hits).toContain(path.join("dist", "npm", "kubectl-ptah.cjs.pack"));
    expect(misses.some((f) => path.basename(f).startsWith("connect-"))).toBe(true);
    expect(run(["status", "--kubeconfig", path.join(dir, "missing-config")], cache).outcomes).toEqual(new Set(["hit"]));
  });

  it("never serves a changed bundle from an old entry, even when the change keeps the file's length", () => {
    const cache = path.join(dir, "changed");
    const before = run(["explain", "stale"], cache);
    expect(before.stdout).toContain("it can authorise nothing");
    // The script that holds the text (the pack it runs from), changed in place to a text of the same length.
    const holder = before.scripts.map((l) => path.join(pkg, l.file)).find((f) => fs.readFileSync(f, "utf8").includes("it can authorise nothing"))!;
    const original = fs.readFileSync(holder, "utf8");
    const entryBefore = entries(cache).find((e) => e.startsWith(`${path.basename(holder)}.v`))!;
    const bytesBefore = fs.readFileSync(path.join(cache, entryBefore));
    try {
      fs.writeFileSync(holder, original.replace("it can authorise nothing", "IT CAN AUTHORISE NOTHING"));
      expect(fs.statSync(holder).size).toBe(Buffer.byteLength(original));
      const after = run(["explain", "stale"], cache);
      expect(after.status).toBe(0);
      expect(after.stdout).toContain("IT CAN AUTHORISE NOTHING");
      expect(after.scripts.find((l) => path.join(pkg, l.file) === holder)?.outcome).toBe("stale");
      // The changed script's entry replaced its old one; the others were served.
      expect(after.scripts.filter((l) => path.join(pkg, l.file) !== holder).every((l) => l.outcome === "hit")).toBe(true);
      const now = entries(cache).filter((e) => e.startsWith(`${path.basename(holder)}.v`));
      expect(now).toEqual([entryBefore]);
      const bytesNow = fs.readFileSync(path.join(cache, entryBefore));
      expect(bytesNow.equals(bytesBefore)).toBe(false);
      expect(bytesNow.includes(Buffer.from("IT CAN AUTHORISE NOTHING"))).toBe(true);
      // And served from it on the next run.
      expect(run(["explain", "stale"], cache).outcomes).toEqual(new Set(["hit"]));
    } finally {
      fs.writeFileSync(holder, original);
    }
  });

  it("rejects an entry V8 cannot use, answers as without one, and writes it again", () => {
    const cache = path.join(dir, "corrupt");
    const first = run(["explain", "stale"], cache);
    // Each entry keeps its source's bytes; what follows them is not V8's.
    for (const { file } of first.scripts) {
      const name = entries(cache).find((e) => e.startsWith(`${path.basename(file)}.v`))!;
      fs.writeFileSync(path.join(cache, name), encodeEntry(fs.readFileSync(path.join(pkg, file)), Buffer.from("not a V8 code cache")));
    }
    const corrupt = run(["explain", "stale"], cache);
    expect(corrupt.status).toBe(0);
    expect(corrupt.stderr).toBe("");
    expect(corrupt.stdout).toBe(first.stdout);
    expect(corrupt.outcomes).toEqual(new Set(["rejected"]));
    expect(run(["explain", "stale"], cache).outcomes).toEqual(new Set(["hit"]));
  });

  it("does not serve an entry whose header is damaged, answers as without one, and writes it again", () => {
    const cache = path.join(dir, "damaged");
    const first = run(["explain", "stale"], cache);
    for (const e of entries(cache)) fs.writeFileSync(path.join(cache, e), "not an entry at all");
    const damaged = run(["explain", "stale"], cache);
    expect(damaged.status).toBe(0);
    expect(damaged.stderr).toBe("");
    expect(damaged.stdout).toBe(first.stdout);
    expect(damaged.outcomes).toEqual(new Set(["stale"]));
    expect(run(["explain", "stale"], cache).outcomes).toEqual(new Set(["hit"]));
  });

  it("is off with PTAH_CODE_CACHE=off: nothing read, nothing written", () => {
    const cache = path.join(dir, "off");
    const r = run(["explain", "stale"], cache, { PTAH_CODE_CACHE: "off" });
    expect(r.status).toBe(0);
    expect(r.outcomes).toEqual(new Set(["off"]));
    expect(fs.existsSync(cache)).toBe(false);
  });

  it("never fails a command when the cache folder cannot be made", () => {
    const blocked = path.join(dir, "a-file");
    fs.writeFileSync(blocked, "");
    const r = run(["explain", "stale"], path.join(blocked, "cache"));
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("it can authorise nothing");
    expect(r.outcomes).toEqual(new Set(["miss"]));
  });
});

describe("where entries live and how they are named", () => {
  it.each([
    [{}, "/h", "/h/.cache/kubectl-ptah/code-cache"],
    [{ XDG_CACHE_HOME: "/xdg" }, "/h", "/xdg/kubectl-ptah/code-cache"],
    [{ XDG_CACHE_HOME: "relative" }, "/h", "/h/.cache/kubectl-ptah/code-cache"],
    [{ PTAH_CODE_CACHE_DIR: "/c", XDG_CACHE_HOME: "/xdg" }, "/h", "/c"],
    [{ PTAH_CODE_CACHE: "off", PTAH_CODE_CACHE_DIR: "/c" }, "/h", undefined],
    [{ PTAH_CODE_CACHE: "0" }, "/h", undefined],
    [{}, "", undefined],
  ])("%j with HOME %j: %s", (env, home, expected) => {
    expect(codeCacheDir(env, home)).toBe(expected);
  });

  it("names an entry by the file and the runtime", () => {
    const name = cacheEntryName("/x/run-A.cjs", "v20.20.2 linux x64");
    expect(name).toBe("run-A.cjs.v20.20.2-linux-x64.v8");
    expect(cacheEntryName("/other/run-A.cjs", "v20.20.2 linux x64")).toBe(name);
    expect(cacheEntryName("/x/run-A.cjs", "v20.20.3 linux x64")).not.toBe(name);
    expect(cacheEntryName("/x/run-A.cjs", "v20.20.2 linux arm64")).not.toBe(name);
    expect(cacheEntryName("/x/run-B.cjs", "v20.20.2 linux x64")).not.toBe(name);
  });

  it("serves V8's data only for the exact source it was made from", () => {
    const source = Buffer.from("module.exports = 1;\n");
    const data = Buffer.from([1, 2, 3, 4, 5]);
    const entry = encodeEntry(source, data);
    expect(decodeEntry(entry, source)?.equals(data)).toBe(true);
    // Another source of the same length, a longer and a shorter one.
    expect(decodeEntry(entry, Buffer.from("module.exports = 2;\n"))).toBeUndefined();
    expect(decodeEntry(entry, Buffer.from("module.exports = 10;\n"))).toBeUndefined();
    expect(decodeEntry(entry, Buffer.from("module.exports=1;\n"))).toBeUndefined();
    // A damaged entry: cut short, no V8 data, another magic, a wrong length.
    expect(decodeEntry(entry.subarray(0, entry.length - data.length - 1), source)).toBeUndefined();
    expect(decodeEntry(encodeEntry(source, Buffer.alloc(0)), source)).toBeUndefined();
    const otherMagic = Buffer.from(entry);
    otherMagic.writeUInt8(otherMagic.readUInt8(0) ^ 1, 0);
    expect(decodeEntry(otherMagic, source)).toBeUndefined();
    const wrongLength = Buffer.from(entry);
    wrongLength.writeUInt32LE(source.length + 1, entry.indexOf(source) - 4);
    expect(decodeEntry(wrongLength, source)).toBeUndefined();
    expect(decodeEntry(Buffer.alloc(0), source)).toBeUndefined();
  });
});
