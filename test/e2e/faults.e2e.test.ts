// Real faults (the lab part of test/guarantees/reconnect.test.ts): a second, private lab (its own etcd, kube-apiserver,
// ports, PKI and audit log under .cache/e2e-faults-lab) so the shared lab is not disturbed. Its
// kube-apiserver is stopped in the middle of watches and started again (lab/lab.mjs
// stop-apiserver / start-apiserver: same arguments, same port):
// - `kubectl ptah wait` reconnects and exits 0 once the condition holds after the restart;
//   `status --watch` and `history --watch` reconnect and print what changed while they were away;
// - with the apiserver down for longer than --timeout, `wait` exits 1 with one `error:` line and
//   an empty stdout, close to the timeout; down from the start, every read command fails fast
//   with the connection error.
// Afterwards the private lab's audit log must show only get/list/watch from the plugin.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAuditEvent, pluginWrites, readAuditLog, type AuditEvent } from "../support/audit.ts";

const skip = process.env.PTAH_E2E_SKIP;
const REPO = path.resolve(import.meta.dirname, "..", "..");
const LAB_DIR = path.join(REPO, ".cache", "e2e-faults-lab");
const NS = "faults";

interface PrivateLab {
  readonly kubeconfig: string;
  readonly kubeconfigs: Record<"admin" | "viewer" | "approver" | "nobody", string>;
  readonly server: string;
  readonly auditLog: string;
  readonly pids: Record<string, number>;
}

let lab: PrivateLab;

function labCommand(command: string, timeoutMs = 15 * 60_000): void {
  const r = spawnSync(process.execPath, [path.join(REPO, "lab", "lab.mjs"), command], {
    cwd: REPO,
    env: { ...process.env, PTAH_LAB_DIR: LAB_DIR, PTAH_LAB_SIM: "0" },
    encoding: "utf8",
    timeout: timeoutMs,
  });
  if (r.status !== 0) throw new Error(`PTAH_LAB_DIR=${LAB_DIR} node lab/lab.mjs ${command} exited ${String(r.status)}: ${r.stderr}`);
}

function kubectl(args: readonly string[], input?: string): string {
  const r = spawnSync("kubectl", ["--kubeconfig", lab.kubeconfig, "--context", "lab-admin", ...args], { input: input ?? "", encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const now = (): string => new Date().toISOString().replace(/\.\d+Z$/u, "Z");

function condition(type: string, status: string, reason: string, message: string): Record<string, unknown> {
  return { type, status, reason, message, lastTransitionTime: now(), observedGeneration: 1 };
}

function createSchema(name: string): void {
  const schema = {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahSchema",
    metadata: { name, namespace: NS },
    spec: {
      target: { engine: "PostgreSQL", coordinationKey: "shop", urlFrom: { name: "db", key: "url" } },
      desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "policy", key: "policy.json" } },
    },
  };
  kubectl(["create", "-f", "-"], JSON.stringify(schema));
  setPhase(name, "AwaitingApproval");
}

function setPhase(name: string, phase: "AwaitingApproval" | "InSync"): void {
  const conditions =
    phase === "InSync"
      ? [condition("InSync", "True", "ScopedConverged", "Independent read-only planning proved convergence"), condition("Ready", "True", "InSync", "The schema is in sync")]
      : [
          condition("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"),
          condition("Ready", "False", "AwaitingApproval", "The current plan requires a new approval"),
        ];
  kubectl([
    "patch",
    "ptahschemas.operator.ptah.run",
    name,
    "-n",
    NS,
    "--subresource=status",
    "--type=merge",
    "-p",
    JSON.stringify({ status: { observedGeneration: 1, phase, conditions } }),
  ]);
}

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

interface Plugin {
  readonly child: ChildProcess;
  readonly done: Promise<Run>;
  /** What it has written to stdout so far. */
  stdout(): string;
}

/** `kubectl ptah …` as lab-viewer of the private lab (kubectl execs the plugin found on PATH). */
function plugin(args: readonly string[]): Plugin {
  const start = performance.now();
  const child = spawn("kubectl", ["ptah", ...args], {
    env: { ...process.env, PATH: `${process.env.PTAH_BIN_DIR ?? ""}${path.delimiter}${process.env.PATH ?? ""}`, KUBECONFIG: lab.kubeconfigs.viewer, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const done = new Promise<Run>((resolve) => child.on("close", (status, signal) => resolve({ status, signal, stdout: out, stderr: err, ms: performance.now() - start })));
  return { child, done, stdout: () => out };
}

async function until(what: string, timeoutMs: number, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

function pluginEvents(): AuditEvent[] {
  return readAuditLog(lab.auditLog).filter((e) => (e.userAgent ?? "").startsWith("kubectl-ptah/"));
}

/** Plugin watches on `resource` the audit log shows open (stage ResponseStarted or later). */
function watches(resource: string): number {
  return pluginEvents().filter((e) => e.verb === "watch" && e.objectRef?.resource === resource && e.objectRef.namespace === NS && e.stage !== "RequestReceived").length;
}

/** Waits until `count` more watches on `resource` than `base` are open. */
async function watching(resource: string, base: number, count = 1): Promise<void> {
  await until(`${count} more open plugin watch(es) on ${resource}`, 60_000, () => watches(resource) >= base + count);
}

function stopApiserver(): void {
  labCommand("stop-apiserver", 60_000);
}

function startApiserver(): void {
  labCommand("start-apiserver", 5 * 60_000);
}

function expectOneErrorLine(r: Run): void {
  expect(r.status).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
}

const covered: string[] = [];

describe.skipIf(skip)("real faults on a private lab: kube-apiserver stopped and started under running watches", { timeout: 600_000 }, () => {
  beforeAll(() => {
    // A fresh private lab each run (the binaries are cached; a start takes seconds).
    labCommand("stop");
    labCommand("start");
    lab = JSON.parse(fs.readFileSync(path.join(LAB_DIR, "lab.json"), "utf8")) as PrivateLab;
    kubectl(["create", "namespace", NS]);
    createSchema("storefront");
    createSchema("catalog");
  }, 20 * 60_000);

  afterAll(() => {
    if (!lab) return;
    try {
      // The read-only proof for this lab: every plugin request of this file, across the restarts.
      const events = pluginEvents();
      const writes = pluginWrites(events);
      const secrets = events.filter((e) => e.objectRef?.resource === "secrets" || e.objectRef?.resource === "ptahresultrecords");
      const verbs = [...new Set(events.map((e) => e.verb))].sort().join(", ");
      console.log(
        `real faults (private lab): ${covered.length} faults covered (${covered.join("; ")})\n` +
          `read-only proof (private fault lab): ${events.length} plugin requests in the audit log (${verbs}), ${writes.length} mutating, ${secrets.length} reads of Secrets or PtahResultRecords`,
      );
      if (writes.length > 0 || secrets.length > 0) throw new Error(`the plugin sent requests it must never send:\n${[...writes, ...secrets].map(formatAuditEvent).join("\n")}`);
    } finally {
      labCommand("stop", 120_000);
    }
  });

  it("wait reconnects across an apiserver restart and exits 0 once the phase holds; status --watch and history --watch carry on", async () => {
    const [schemas, events] = [watches("ptahschemas"), watches("events")];
    const wait = plugin(["wait", "storefront", "-n", NS, "--for=phase=InSync", "--timeout=180s"]);
    const status = plugin(["status", "-n", NS, "--watch"]);
    const history = plugin(["history", "storefront", "-n", NS, "--watch"]);
    // wait and status --watch each watch ptahschemas; history --watch one more, and events.
    await watching("ptahschemas", schemas, 3);
    await watching("events", events);
    expect(status.stdout()).toMatch(/ADDED ptahschema\/faults\/storefront phase=AwaitingApproval /u);

    stopApiserver();
    await new Promise((r) => setTimeout(r, 3000)); // down for a while: reconnects are refused
    expect(wait.child.exitCode).toBeNull();
    expect(status.child.exitCode).toBeNull();
    expect(history.child.exitCode).toBeNull();
    const before = pluginEvents().length;
    startApiserver();

    setPhase("storefront", "InSync");
    const r = await wait.done;
    expect({ status: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({ status: 0, stderr: "", stdout: "ptahschema.operator.ptah.run/storefront phase InSync met\n" });
    // The watches came back: new list/watch requests after the restart.
    await until("status --watch to print the change made after the restart", 60_000, () => /phase=InSync ready=True\(InSync\)/u.test(status.stdout()));
    await until("history --watch to print the new transition", 60_000, () => /InSync=True/u.test(history.stdout()));
    expect(pluginEvents().length).toBeGreaterThan(before);
    status.child.kill("SIGINT");
    history.child.kill("SIGINT");
    const [s, h] = await Promise.all([status.done, history.done]);
    for (const x of [s, h]) {
      expect(x.stderr).toBe("");
      expect(x.signal).toBeNull(); // ended by itself on SIGINT, not killed
    }
    covered.push("apiserver restart during wait (reconnect, exit 0)", "apiserver restart during status --watch", "apiserver restart during history --watch");
  });

  it("wait with the apiserver down for longer than --timeout: exit 1, one error line, empty stdout, at the timeout", async () => {
    const base = watches("ptahschemas");
    const wait = plugin(["wait", "catalog", "-n", NS, "--for=phase=InSync", "--timeout=8s"]);
    await watching("ptahschemas", base);
    const started = performance.now();
    stopApiserver();
    let r: Run;
    try {
      r = await wait.done;
    } finally {
      startApiserver();
    }
    expectOneErrorLine(r);
    expect(r.stderr).toBe("error: timed out waiting for phase InSync on ptahschema.operator.ptah.run/catalog; last seen: phase AwaitingApproval, Ready=False (AwaitingApproval)\n");
    expect(r.ms).toBeLessThan(8000 + 10_000);
    expect(performance.now() - started).toBeLessThan(8000 + 10_000);
    covered.push("apiserver down longer than wait --timeout (exit 1)");
  });

  it("with the apiserver down from the start, reads fail fast with the connection error", async () => {
    stopApiserver();
    try {
      const host = new URL(lab.server).host;
      for (const args of [
        ["status", "-n", NS],
        ["wait", "catalog", "-n", NS, "--for=phase=InSync", "--timeout=30s"],
        ["status", "-n", NS, "--watch"],
      ]) {
        const r = await plugin(args).done;
        expectOneErrorLine(r);
        expect(r.stderr).toBe(`error: the connection to the server ${host} was refused - did you specify the right host or port?\n`);
        expect(r.ms).toBeLessThan(15_000);
      }
    } finally {
      startApiserver();
    }
    covered.push("apiserver down at start (status, wait, status --watch refused)");
  });
});
