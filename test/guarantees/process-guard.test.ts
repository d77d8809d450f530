// The process guard (src/cli/process-guard.ts) can fail: installed in this test's process, as
// main.ts installs it, a command's code that starts a child process, writes a file, starts a worker
// or loads a native addon is refused at run time through the real shell (runCli): one `error:
// refused to …` line, exit 1, nothing done (the sentinel file the child, the write or the worker
// would create is not there). The named exceptions still work under it: doctor's kubectl version,
// the kubeconfig's exec credential plugin, plan --export. (The real bin: test/distribution/process-guard-bin.test.ts.)
// Everything this file writes is made before the guard is installed; its clean-up uses unlinkSync
// and rmdirSync as taken before the guard: what the guard cannot stop (docs/testing.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installProcessGuard, processGuardInstalled } from "../../src/cli/process-guard.ts";
import { ALL_COMMANDS as COMMANDS } from "../../src/commands/all-commands.ts";
import type { Command, Registry } from "../../src/commands/command-types.ts";
import { ReadError } from "../../src/errors.ts";
import { runCliWith } from "../support/cli.ts";
import { closedPort, runRealCli, writeKubeconfig } from "../support/fault-server.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, SCHEMA } from "../plan/fixtures.ts";

const { unlinkSync, rmdirSync } = fs;
const remove = (p: string): void => {
  if (!fs.lstatSync(p).isDirectory()) return unlinkSync(p);
  for (const name of fs.readdirSync(p)) remove(path.join(p, name));
  rmdirSync(p);
};
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-process-guard-"));
const sentinel = (name: string): string => path.join(DIR, `sentinel-${name}`);
const REFUSED = /^error: refused to (start a child process|start a worker|load a native addon|write [^:]+): the plugin only reads \([^\n]+\)\n$/u;

/** What a careless command might do: each `how` would create sentinel-<how>. */
const PLANTS: Readonly<Record<string, () => Promise<unknown>>> = {
  "child-exec": async () => (await import("node:child_process")).execFileSync("sh", ["-c", `touch ${sentinel("child-exec")}`]),
  "child-spawn": async () => (await import("node:child_process")).spawn("touch", [sentinel("child-spawn")]),
  "child-builtin": async () => process.getBuiltinModule("node:child_process").spawnSync("touch", [sentinel("child-builtin")]),
  write: async () => fs.writeFileSync(sentinel("write"), "x"),
  "write-promises": async () => fs.promises.writeFile(sentinel("write-promises"), "x"),
  "write-open": async () => fs.openSync(sentinel("write-open"), "wx"),
  "write-stream": async () => fs.createWriteStream(sentinel("write-stream")),
  worker: async () => new (await import("node:worker_threads")).Worker(`require("fs").writeFileSync(${JSON.stringify(sentinel("worker"))}, "x")`, { eval: true }),
  addon: async () => process.dlopen({ exports: {} }, sentinel("addon")),
};

const plant: Command<{ how: string }> = {
  name: "plant",
  summary: "A command that does what the plugin never does",
  positionals: [{ name: "HOW" }],
  outputs: [],
  examples: [],
  permissions: [],
  flags: [],
  toOptions: (args) => ({ how: args.positionals[0] ?? "" }),
  async run(o) {
    await PLANTS[o.how]!();
    return { kind: "printed", stdout: "done\n" };
  },
};
const commands: Registry = [...COMMANDS, plant];

let fakeBin = "";
let pluginConfig = "";
let gcpConfig = "";
let exportState: ReturnType<typeof clusterState>;

beforeAll(async () => {
  // doctor's kubectl and an exec credential plugin, each leaving a sentinel when it runs.
  fakeBin = path.join(DIR, "bin");
  fs.mkdirSync(fakeBin);
  const version = JSON.stringify({ clientVersion: { gitVersion: "v1.33.1", minor: "33" } });
  fs.writeFileSync(path.join(fakeBin, "kubectl"), `#!/bin/sh\ntouch ${sentinel("kubectl")}\necho '${version}'\n`, { mode: 0o755 });
  const credential = JSON.stringify({ apiVersion: "client.authentication.k8s.io/v1", kind: "ExecCredential", status: { token: "t" } });
  fs.writeFileSync(path.join(fakeBin, "credential"), `#!/bin/sh\ntouch ${sentinel("credential")}\necho '${credential}'\n`, { mode: 0o755 });
  pluginConfig = writeKubeconfig(DIR, "exec.kubeconfig", {
    server: `https://127.0.0.1:${await closedPort()}`,
    user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: path.join(fakeBin, "credential"), interactiveMode: "Never" } },
  });
  fs.writeFileSync(path.join(fakeBin, "gcp-token"), `#!/bin/sh\ntouch ${sentinel("gcp")}\necho '${credential}'\n`, { mode: 0o755 });
  gcpConfig = writeKubeconfig(DIR, "gcp.kubeconfig", {
    server: `https://127.0.0.1:${await closedPort()}`,
    user: { "auth-provider": { name: "gcp", config: { "cmd-path": path.join(fakeBin, "gcp-token"), "token-key": "{.status.token}", "expiry-key": "{.x}" } } },
  });
  // The export's fixtures are published through the Go oracle, a child process: before the guard.
  const base = clusterState();
  exportState = clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
  fs.mkdirSync(path.join(DIR, "home"));
  installProcessGuard();
});
afterAll(() => remove(DIR));

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("the process guard, installed", () => {
  it("is installed", () => {
    expect(processGuardInstalled()).toBe(true);
  });

  it.each(Object.keys(PLANTS))("refuses a command that plants %s: one error line, exit 1, nothing done", async (how) => {
    const r = await runCliWith(["plant", how], undefined, { commands });
    expect(r.stderr).toMatch(REFUSED);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    await settle();
    expect(fs.existsSync(sentinel(how)), `sentinel-${how}`).toBe(false);
  });

  it("doctor still runs kubectl version --client, and says the guard is on", async () => {
    const r = await runCliWith(["doctor", "-o", "json"], undefined, {
      env: { NO_COLOR: "1", PATH: `${fakeBin}:${process.env.PATH}` },
      connectError: new ReadError("no cluster here"),
    });
    const row = (JSON.parse(r.stdout) as { checks: { name: string; status: string; summary: string }[] }).checks.find((c) => c.name === "process guard");
    expect(row).toMatchObject({ status: "ok", summary: "child processes, workers, native addons and writes outside the code cache and --export refused in this process" });
    expect(fs.existsSync(sentinel("kubectl"))).toBe(true);
  });

  it("the kubeconfig's exec credential plugin still runs", async () => {
    const r = await runRealCli(["status", "-n", "app"], { kubeconfig: pluginConfig, home: path.join(DIR, "home") });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: the connection to the server 127\.0\.0\.1:\d+ was refused/u);
    expect(fs.existsSync(sentinel("credential"))).toBe(true);
  });

  it("plan --export still creates its one new file, and never replaces one", async () => {
    const file = path.join(DIR, "plan.json");
    const argv = ["plan", SCHEMA, "--plan", exportState.applied.name, "--export", file];
    const r = await runCliWith(argv, exportState.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toBeTruthy();
    const again = await runCliWith(argv, exportState.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(again.stderr).toBe(`error: ${file} already exists; an export never replaces a file\n`);
  });

  it("a dependency's child process is refused too: client-node's gcp provider running its cmd-path", async () => {
    const { GoogleCloudPlatformAuth } = await import("@kubernetes/client-node/dist/gcp_auth.js");
    const refresh = () =>
      (new GoogleCloudPlatformAuth() as unknown as { updateAccessToken(c: Record<string, string>): void }).updateAccessToken({ "cmd-path": path.join(fakeBin, "gcp-token") });
    expect(refresh).toThrow(/^Failed to refresh token: Error: refused to start a child process: the plugin only reads/u);
    await settle();
    expect(fs.existsSync(sentinel("gcp"))).toBe(false);
  });

  it("a kubeconfig whose gcp provider has a cmd-path is refused in kubectl's terms, before anything runs", async () => {
    const r = await runRealCli(["status", "-n", "app"], { kubeconfig: gcpConfig, home: path.join(DIR, "home") });
    expect(r.stderr).toMatch(
      /^error: the kubeconfig's gcp auth provider runs \S+gcp-token \(cmd-path\) for its token, which kubectl removed in 1\.26 and this plugin does not start: use the gke-gcloud-auth-plugin exec credential plugin\n$/u,
    );
    expect(r.status).toBe(1);
  });
});
