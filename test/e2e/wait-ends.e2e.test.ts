// `kubectl ptah wait --for=approval=consumed` against the lab and its operator simulator: a
// new desired schema makes the simulator discard the waiting plan and publish another,
// and the running wait ends at once with exit 1 and one line naming both plans (before, it waited
// out its timeout). Then, with --for given twice, a wait holds only once the approval was consumed
// and the schema is InSync (the simulator clears status.plan by then: the wait remembers the
// approval it waited for).
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEventsSince, auditMark, getObject, kubectl, type KubeObject } from "../support/lab.ts";
import { pluginEnv, ptah } from "../support/plugin.ts";
import { createScenarioNamespace, waitForSimulator } from "../scenarios/runner.ts";
import { storefrontSetup } from "./storefront-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `kubectl ptah ARGS…` as lab-viewer, in the background. */
function background(args: readonly string[]): Promise<Run> {
  const child = spawn("kubectl", ["ptah", ...args], { env: pluginEnv("viewer"), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

async function until(what: string, probe: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The plugin's watches on `resource` in `namespace` the audit log shows open since `mark`. */
function openWatches(mark: number, namespace: string, resource: string): number {
  return auditEventsSince(mark).filter(
    (e) =>
      (e.userAgent ?? "").startsWith("kubectl-ptah/") &&
      e.verb === "watch" &&
      e.objectRef?.resource === resource &&
      e.objectRef.namespace === namespace &&
      e.stage !== "RequestReceived",
  ).length;
}

const SETUP = (ociRef: string): string => storefrontSetup({ ociRef, apply: "OnApproval" });

let ns: string;

function currentPlan(): { name: string; fingerprint: string } {
  const s = getObject<KubeObject>("PtahSchema", "storefront", ns);
  return (s?.status as { plan: { name: string; fingerprint: string } }).plan;
}

/** Starts `wait storefront ARGS…` and resolves once its watches on the schema and the approvals are open. */
async function startWait(args: readonly string[]): Promise<{ readonly done: Promise<Run> }> {
  const mark = auditMark();
  const run = background(["wait", "storefront", "-n", ns, ...args]);
  await until("the wait's watches", () => openWatches(mark, ns, "ptahschemas") >= 1 && openWatches(mark, ns, "ptahschemaapprovals") >= 1);
  return { done: run };
}

describe.skipIf(skip)("wait --for=approval=consumed on the lab", () => {
  beforeAll(async () => {
    await waitForSimulator();
    ns = createScenarioNamespace("wait-ends");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: SETUP("oci://registry.lab/schemas/demo:v1") });
    const ready = ptah(["wait", "storefront", "-n", ns, "--for=condition=ApprovalRequired", "--timeout=90s"]);
    expect(ready.status, ready.stderr).toBe(0);
  });

  it("ends at once with exit 1 when a new plan supersedes the one it waited for", async () => {
    const before = currentPlan();
    const wait = await startWait(["--for=approval=consumed", "--timeout=170s"]);
    kubectl(["patch", "ptahschema", "storefront", "--type=merge", "-p", JSON.stringify({ spec: { desired: { ociRef: "oci://registry.lab/schemas/demo:v2" } } })], {
      namespace: ns,
    });
    const r = await wait.done;
    expect(r.stdout).toBe("");
    expect(r.status, r.stderr).toBe(1);
    const after = currentPlan();
    expect(after.name).not.toBe(before.name);
    expect(r.stderr).toBe(
      `error: stopped waiting for approval consumed on ptahschema.operator.ptah.run/storefront: the plan it waited for, ${before.name} (${before.fingerprint}), was superseded by ${after.name}\n`,
    );
  });

  it("with --for repeated, holds once the approval was consumed and the schema is InSync", async () => {
    const ready = ptah(["wait", "storefront", "-n", ns, "--for=condition=ApprovalRequired", "--timeout=90s"]);
    expect(ready.status, ready.stderr).toBe(0);
    const wait = await startWait(["--for=approval=consumed", "--for=phase=InSync", "--timeout=170s"]);
    const manifest = ptah(["approve", "storefront", "-n", ns, "--name", "storefront-v2"], "approver");
    expect(manifest.status, manifest.stderr).toBe(0);
    kubectl(["create", "-f", "-"], { as: "approver", namespace: ns, input: manifest.stdout });
    const r = await wait.done;
    expect(r.stderr).toBe("");
    expect(r).toMatchObject({
      status: 0,
      stdout: "ptahschema.operator.ptah.run/storefront approval consumed met\nptahschema.operator.ptah.run/storefront phase InSync met\n",
    });
  });
});
