// What an offline start of the npm bin asks of Node itself: with stdout a pipe (or /dev/null), it
// loads none of Node's stream, net, tty, crypto, os or ES-module-loader code (stdout is written
// with fs.writeSync, isatty is asked only of a character device, the code cache compares bytes,
// built-ins come from process.getBuiltinModule). Each is tens of internal modules compiled at
// every start. And a reader that goes away (`| head`) ends the run quietly with the answer's
// status. The real bin, run by node as npm's shim runs it.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle, NPM_BIN } from "../support/npm-bundle.ts";
import { shellQuote } from "../support/shell-quote.ts";

const BIN = NPM_BIN;
let dir = "";
let preload = "";

beforeAll(() => {
  ensureNpmBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-start-modules-"));
  // Records Node's internal modules loaded after it, at exit, into the file the env names. Its
  // write is taken before the bin installs the process guard, which refuses writes after.
  preload = path.join(dir, "record.cjs");
  fs.writeFileSync(
    preload,
    "const before = new Set(process.moduleLoadList);\n" +
      "const { openSync, writeSync } = require('fs');\n" +
      "process.on('exit', () => writeSync(openSync(process.env.RECORD, 'w'), process.moduleLoadList.filter((m) => !before.has(m)).join('\\n')));\n",
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/**
 * Runs the bin with `args` and stdout a pipe, /dev/null, or a pseudo-terminal (util-linux `script`
 * runs the command on one: stdin, stdout and stderr alike).
 */
function internals(args: readonly string[], stdout: "pipe" | "null" | "terminal" = "pipe"): { modules: string[]; status: number | null; stdout: string; stderr: string } {
  const record = path.join(dir, `modules-${++runs}`);
  const argv = [process.execPath, "-r", preload, BIN, ...args];
  const [file, ...rest] = stdout === "terminal" ? ["script", "-qec", argv.map(shellQuote).join(" "), "/dev/null"] : argv;
  const r = spawnSync(file!, rest, {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1", RECORD: record },
    stdio: ["ignore", stdout === "null" ? "ignore" : "pipe", "pipe"],
    timeout: 30_000,
  });
  return { ...r, modules: fs.readFileSync(record, "utf8").split("\n").filter(Boolean) };
}

const NOT_LOADED = [
  /^NativeModule (internal\/)?crypto/u,
  /^NativeModule net$/u,
  /^NativeModule tty$/u,
  /^NativeModule stream$/u,
  /^NativeModule os$/u,
  /^NativeModule internal\/modules\/esm\//u,
];

describe("an offline start, stdout a pipe", () => {
  it.each([["explain", "stale"], ["--help"], ["--version"], ["__complete", ""], ["explain", "PlanNoLongerCurent"]])(
    "%s %s (stderr a pipe too) loads none of Node's stream, net, tty, crypto, os or ES-module code",
    (...args) => {
      const r = internals(args);
      expect(r.stdout.length + r.stderr.length).toBeGreaterThan(0);
      expect(r.modules.length).toBeGreaterThan(0);
      for (const pattern of NOT_LOADED)
        expect(
          r.modules.filter((m) => pattern.test(m)),
          String(pattern),
        ).toEqual([]);
    },
  );

  it("explain stale with stdout /dev/null (a script that wants only the status) loads no tty either", () => {
    const r = internals(["explain", "stale"], "null");
    expect(r.status).toBe(0);
    expect(r.modules.filter((m) => NOT_LOADED.some((p) => p.test(m)))).toEqual([]);
  });

  it("a terminal is still asked: under a pseudo-terminal (util-linux script) isatty is asked of node:tty", () => {
    const r = internals(["explain", "stale"], "terminal");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Stale (approval state)");
    expect(r.modules).toContain("NativeModule tty");
  });

  it("writes the same bytes as through a stream (a file and a pipe alike)", () => {
    const file = path.join(dir, "explain.txt");
    const fd = fs.openSync(file, "w");
    const toFile = spawnSync(process.execPath, [BIN, "explain"], { env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1" }, stdio: ["ignore", fd, "pipe"] });
    fs.closeSync(fd);
    const toPipe = spawnSync(process.execPath, [BIN, "explain"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1" } });
    expect(toFile.status).toBe(0);
    expect(toPipe.status).toBe(0);
    expect(toPipe.stdout).toContain("PlanNoLongerCurrent");
    expect(fs.readFileSync(file, "utf8")).toBe(toPipe.stdout);
  });
});

describe("a reader that goes away", () => {
  it.each([[["explain"]], [["explain", "no-such-topic"]]])("%j: the run ends quietly with the answer's status", async (args) => {
    const status = spawnSync(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1" } }).status;
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    // The read end is closed before the bin has started, so its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(status);
    if (status === 0) expect(stderr).toBe("");
    else expect(stderr).toMatch(/^error: [^\n]*\n$/u);
  });
});
