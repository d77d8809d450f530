// `kubectl ptah version`: the plugin's own version comes first, whatever the cluster answers.
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";

const REFUSED = "the connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?";

describe("version with an unreachable cluster", () => {
  it("prints the plugin's version first, then the connection error; exit 1", async () => {
    const reader = new FakeReader([]);
    reader.faults.set("get /version", new ReadError(REFUSED));
    expect(await runCliWith(["version"], reader)).toMatchObject({ status: 1, stdout: "Client Version: v0.0.0-test\n", stderr: `error: ${REFUSED}\n` });
    const json = await runCliWith(["version", "-o", "json"], reader);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ clientVersion: "v0.0.0-test" });
  });
});

describe("version names the kubectl-ptah executables on PATH when another one is there", () => {
  const UPSTREAM = { kind: "upstream", version: "v0.2.10", go: "go1.24.4" } as const;
  const machine = (plugins: { path: string; self: boolean; identity?: typeof UPSTREAM }[]) => ({
    kubectl: { missing: "not asked" },
    plugins,
    selfPath: "/opt/ptah/kubectl-ptah",
    processGuard: true,
  });

  it("says kubectl runs upstream's Go binary, which version, and the fix", async () => {
    const r = await runCliWith(["version", "--client"], new FakeReader([]), {
      machine: machine([
        { path: "/usr/local/bin/kubectl-ptah", self: false, identity: UPSTREAM },
        { path: "/opt/ptah/kubectl-ptah", self: true },
      ]),
    });
    expect(r.stdout).toBe(
      [
        "Client Version: v0.0.0-test",
        "kubectl-ptah on PATH, runs: /usr/local/bin/kubectl-ptah — upstream's Go kubectl-ptah v0.2.10",
        "kubectl-ptah on PATH, shadowed (never run by kubectl ptah): /opt/ptah/kubectl-ptah — this plugin",
        "Fix: remove upstream's binary (rm /usr/local/bin/kubectl-ptah) or put this plugin's folder before /usr/local/bin on PATH: this plugin accepts every command line upstream's 0.2.10 does, with the same output",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (
        await runCliWith(["version", "--client", "-o", "json"], new FakeReader([]), {
          machine: machine([
            { path: "/opt/ptah/kubectl-ptah", self: true },
            { path: "/usr/local/bin/kubectl-ptah", self: false, identity: UPSTREAM },
          ]),
        })
      ).stdout,
    );
    expect(json.pluginsOnPath).toEqual([
      { path: "/opt/ptah/kubectl-ptah", is: "this plugin", runs: true },
      { path: "/usr/local/bin/kubectl-ptah", is: "upstream's Go kubectl-ptah v0.2.10", runs: false },
    ]);
  });

  it("says nothing more when this plugin is the only one", async () => {
    const r = await runCliWith(["version", "--client"], new FakeReader([]), { machine: machine([{ path: "/opt/ptah/kubectl-ptah", self: true }]) });
    expect(r.stdout).toBe("Client Version: v0.0.0-test\n");
  });
});
