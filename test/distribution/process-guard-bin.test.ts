// The real npm bin runs under the process guard (src/cli/process-guard.ts), installed by its loader
// before the bundle loads: in a copy of the built tree, code planted in the chunk `explain` loads
// (a command's own code) that starts a child process (also through Node's own require), writes a
// file (also through fs.promises), starts a worker or opens the inspector (the egress guard, installed
// through this module) is refused with one `error: refused to …` line, exit 1, and leaves no
// sentinel; the copy's packs are written again after planting, as a build would. In the tree as built, the
// code cache still writes its entries, doctor still runs kubectl version (and says the guard is on),
// and the kubeconfig's exec credential plugin still runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle, mutantEnv, NPM_BIN, REPO, repack } from "../support/npm-bundle.ts";

let dir = "";
const sentinel = (name: string): string => path.join(dir, `sentinel-${name}`);
const REFUSED = /^error: refused to (start a child process|start a worker|write [^:]+|open the inspector \(it listens for a debugger\)): the plugin only reads \([^\n]+\)\n$/u;

beforeAll(() => {
  ensureNpmBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-guard-bin-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(bin: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: path.join(dir, "home"), NO_COLOR: "1", ...mutantEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 30_000,
  });
}

/** A copy of bin/ and dist/ whose explain chunk first runs `code`. */
function plantedBin(name: string, code: string): string {
  const root = path.join(dir, name);
  for (const part of ["bin", "dist"]) fs.cpSync(path.join(REPO, part), path.join(root, part), { recursive: true });
  const chunks = path.join(root, "dist", "npm", "chunks");
  const explain = fs.readdirSync(chunks).find((f) => /^explain-command-[A-Z0-9]+\.cjs$/u.test(f));
  expect(explain, "the explain command's chunk").toBeDefined();
  const file = path.join(chunks, explain!);
  fs.writeFileSync(file, `${code}\n${fs.readFileSync(file, "utf8")}`);
  repack(root);
  return path.join(root, "bin", "kubectl-ptah.js");
}

const PLANTS: Readonly<Record<string, string>> = {
  child: `require("node:child_process").execSync("touch ${"SENTINEL"}");`,
  write: `require("node:fs").writeFileSync("SENTINEL", "x");`,
  worker: `new (require("node:worker_threads").Worker)('require("fs").writeFileSync("SENTINEL", "x")', { eval: true });`,
  // fs/promises reached through fs.promises, which loads it on first use (patched then).
  "promises-write": `require("node:fs").promises.writeFile("SENTINEL", "x");`,
  // Node's own CommonJS loader, from the bin's module (a package required from node_modules).
  "child-node-require": `process.mainModule.require("node:child_process").execSync("touch SENTINEL");`,
  // The egress guard, installed through this module's installEgressGuard as the loader does (the
  // inspector: a way out refused at the call, before this short command ends).
  inspector: `require("node:inspector").open(0, "127.0.0.1");`,
};

describe("the npm bin under the process guard", () => {
  it.each(Object.keys(PLANTS))("refuses a %s planted in a command's chunk: one error line, exit 1, nothing done", async (how) => {
    const bin = plantedBin(how, PLANTS[how]!.replaceAll("SENTINEL", sentinel(how)));
    const r = run(bin, ["explain", "stale"], { PTAH_CODE_CACHE: "off" });
    expect(r.stderr).toMatch(REFUSED);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(sentinel(how))).toBe(false);
  });

  it("the same chunk without a plant answers (the copy is not what refuses)", () => {
    const r = run(plantedBin("none", ";"), ["explain", "stale"], { PTAH_CODE_CACHE: "off" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Stale");
  });

  it("still writes its code cache: entries on the first run, every script a hit on the second", () => {
    const cache = path.join(dir, "code-cache");
    const log = path.join(dir, "cache.log");
    for (let i = 0; i < 2; i++) expect(run(NPM_BIN, ["explain", "stale"], { PTAH_CODE_CACHE_DIR: cache, PTAH_CODE_CACHE_LOG: log }).status).toBe(0);
    // One line per script compiled (a file alone or a pack); files run from a pack say "packed".
    const lines = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("packed "));
    const half = lines.length / 2;
    expect(lines.slice(0, half).every((l) => l.startsWith("miss "))).toBe(true);
    expect(lines.slice(half).every((l) => l.startsWith("hit "))).toBe(true);
    expect(fs.readdirSync(cache).filter((f) => f.endsWith(".v8"))).toHaveLength(half);
  });

  it("doctor still runs kubectl version --client and says the guard is on; the exec credential plugin still runs", () => {
    const fake = path.join(dir, "fake-bin");
    fs.mkdirSync(fake, { recursive: true });
    const version = JSON.stringify({ clientVersion: { gitVersion: "v1.33.1", minor: "33" } });
    fs.writeFileSync(path.join(fake, "kubectl"), `#!/bin/sh\ntouch ${sentinel("kubectl")}\necho '${version}'\n`, { mode: 0o755 });
    const credential = JSON.stringify({ apiVersion: "client.authentication.k8s.io/v1", kind: "ExecCredential", status: { token: "t" } });
    fs.writeFileSync(path.join(fake, "credential"), `#!/bin/sh\ntouch ${sentinel("credential")}\necho '${credential}'\n`, { mode: 0o755 });
    const kubeconfig = path.join(dir, "kubeconfig");
    fs.writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:1" } }],
        users: [{ name: "u", user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: path.join(fake, "credential"), interactiveMode: "Never" } } }],
        contexts: [{ name: "c", context: { cluster: "c", user: "u" } }],
        "current-context": "c",
      }),
    );
    const r = run(NPM_BIN, ["doctor", "-o", "json"], { PATH: `${fake}:${process.env.PATH}`, KUBECONFIG: kubeconfig, PTAH_CODE_CACHE: "off" });
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string }[] }).checks;
    expect(checks.find((c) => c.name === "process guard")?.status).toBe("ok");
    expect(fs.existsSync(sentinel("kubectl"))).toBe(true);
    expect(fs.existsSync(sentinel("credential"))).toBe(true);
    expect(r.stderr).not.toMatch(/refused to/u);
  });
});
