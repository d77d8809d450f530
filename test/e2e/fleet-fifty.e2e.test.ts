// A fleet of 50 kubeconfig contexts through the real kubectl (test/bench/fleet.mjs, shared with the
// bench's fleet case): 42 straight at the lab, 5 through a TCP proxy started here that holds every
// chunk 100 ms each way (a far cluster), 3 at a port that accepts connections and never says a word
// (a cluster that hangs: it costs its --request-timeout, which a closed port, refused at once, would
// not show). The shape, never a time: every context either answered — its row, in the kubeconfig's
// order — or is one stderr line naming it, in that order too; exit 0 while one answered, 1 when none
// did; the same with --max-concurrent-contexts 5. With no --request-timeout (30 s by default) a
// hanging context is ended by the TLS handshake's own limit, 10 s as in client-go (kube/connect-deadline.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blackHole, fleetLayout, slowProxy, writeFleetKubeconfig, type Closable, type FleetContext } from "../bench/fleet.mjs";
import { kubectl, labEnv } from "../support/lab.ts";
import { pluginEnv, runKubectl } from "../support/plugin.ts";
import { createScenarioNamespace, waitForSimulator } from "../scenarios/runner.ts";
import { storefrontSetup } from "./storefront-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `kubectl ptah ARGS` without blocking this process: the proxy and the silent port answer from its event loop. */
function ptahAsync(args: readonly string[], kubeconfig: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("kubectl", ["ptah", ...args], { env: pluginEnv("viewer", { KUBECONFIG: kubeconfig }), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let slow: Closable;
let hole: Closable;
let layout: FleetContext[];
let file: string;
let ns: string;

const answering = (): FleetContext[] => layout.filter((c) => c.kind !== "dead");
const dead = (): FleetContext[] => layout.filter((c) => c.kind === "dead");
/** The first column of each table line but the header: the contexts, in the order printed. */
const contextColumn = (stdout: string): string[] =>
  stdout
    .split("\n")
    .slice(1)
    .filter((l) => l !== "")
    .map((l) => l.split(/ +/u)[0]!);
const deadLine = (name: string, seconds: number): string => `error: context "${name}": the server 127.0.0.1:${hole.port} did not answer within ${seconds}s (--request-timeout)`;

describe.skipIf(skip)("a fleet of 50 contexts: live, slow and silent", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    await waitForSimulator();
    ns = createScenarioNamespace("fleet50");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: storefrontSetup() });
    const ready = runKubectl(["ptah", "wait", "storefront", "-n", ns, "--for=condition=ApprovalRequired", "--timeout=90s"], "viewer");
    expect(ready.status, ready.stderr).toBe(0);
    const server = new URL(labEnv().server);
    slow = await slowProxy({ host: server.hostname, port: Number(server.port) }, 100);
    hole = await blackHole();
    layout = fleetLayout(50, { slow: slow.port, dead: hole.port });
    expect(layout.map((c) => c.kind).filter((k) => k === "slow")).toHaveLength(5);
    expect(dead()).toHaveLength(3);
    file = await writeFleetKubeconfig(labEnv().pluginKubeconfigs.viewer, layout, ns, path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fleet50-")), "config"));
  }, 300_000);

  afterAll(async () => {
    await slow?.close();
    await hole?.close();
  });

  it("inbox --all-contexts: every answering context's row in order, each silent one a line of its own on stderr, exit 0", async () => {
    const r = await ptahAsync(["inbox", "--all-contexts", "--request-timeout=3s"], file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      dead()
        .map((c) => `${deadLine(c.name, 3)}\n`)
        .join(""),
    );
    expect(r.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAMESPACE +OBJECT +WAITING /u);
    expect(contextColumn(r.stdout)).toEqual(answering().map((c) => c.name));
    for (const c of answering())
      expect(r.stdout).toMatch(new RegExp(`^${c.name} +${ns} +ptahschema/storefront .* kubectl ptah --context ${c.name} plan storefront -n ${ns}$`, "mu"));
  });

  it("the same with at most 5 contexts at once, and as JSON", async () => {
    const r = await ptahAsync(["inbox", "--all-contexts", "--request-timeout=3s", "--max-concurrent-contexts", "5", "-o", "json"], file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      dead()
        .map((c) => `${deadLine(c.name, 3)}\n`)
        .join(""),
    );
    const items = (JSON.parse(r.stdout) as { items: { context: string; name: string }[] }).items;
    expect(items.map((i) => [i.context, i.name])).toEqual(answering().map((c) => [c.name, "storefront"]));
  });

  it("status and ledger --all-contexts: the same shape", async () => {
    const status = await ptahAsync(["status", "--all-contexts", "--request-timeout=3s"], file);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stderr).toBe(
      dead()
        .map((c) => `${deadLine(c.name, 3)}\n`)
        .join(""),
    );
    expect(status.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAME +PHASE /u);
    expect(contextColumn(status.stdout)).toEqual(answering().map((c) => c.name));
    expect(status.stdout).toMatch(/^slow-03 +(ptahschema\/)?storefront +AwaitingApproval /mu);
    const ledger = await ptahAsync(["ledger", "--all-contexts", "--request-timeout=3s"], file);
    expect(ledger).toMatchObject({ status: 0, stdout: "" });
    expect(ledger.stderr).toBe(
      `${dead()
        .map((c) => `${deadLine(c.name, 3)}\n`)
        .join("")}No resources found in the ${answering().length} contexts read.\n`,
    );
  });

  it("only silent contexts: one line each, exit 1; with no --request-timeout the TLS handshake's 10 s limit ends them", async () => {
    const names = dead().map((c) => c.name);
    const r = await ptahAsync(["inbox", "--contexts", names.join(",")], file);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(names.map((n) => `error: context "${n}": unable to connect to the server 127.0.0.1:${hole.port}: net/http: TLS handshake timeout\n`).join(""));
    expect(r.stderr).toMatch(/^[\x20-\x7e\n]+$/u);
  });
});
