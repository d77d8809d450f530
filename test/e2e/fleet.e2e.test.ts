// `inbox`, `status` and `ledger` with `--all-contexts` on two real control planes: the shared lab (with the
// operator simulator) and a second, private lab started here (its own etcd, kube-apiserver, PKI,
// CRDs and audit log under .cache/e2e-fleet-lab; no simulator: its schema's status is written by
// hand, and one approval of it). One kubeconfig names lab-viewer of each as contexts `one` and `two`. Both answer: one table
// with a CONTEXT column holding both. The second kube-apiserver stopped: the first still prints,
// `two` is one stderr line naming it, exit 0. Afterwards the private lab's audit log shows only
// get/list/watch and access reviews from the plugin.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAuditEvent, pluginWrites, readAuditLog } from "../support/audit.ts";
import { kubectl, labEnv } from "../support/lab.ts";
import { runKubectl } from "../support/plugin.ts";
import { createScenarioNamespace, waitForSimulator } from "../scenarios/runner.ts";
import { storefrontSetup } from "./storefront-setup.ts";

const skip = process.env.PTAH_E2E_SKIP;
const REPO = path.resolve(import.meta.dirname, "..", "..");
const TWO_DIR = path.join(REPO, ".cache", "e2e-fleet-lab");

interface PrivateLab {
  readonly kubeconfig: string;
  readonly kubeconfigs: Record<"admin" | "viewer", string>;
  readonly pluginKubeconfigs: Record<"viewer", string>;
  readonly auditLog: string;
}

function labTwo(command: string, timeoutMs = 15 * 60_000): void {
  const r = spawnSync(process.execPath, [path.join(REPO, "lab", "lab.mjs"), command], {
    cwd: REPO,
    env: { ...process.env, PTAH_LAB_DIR: TWO_DIR, PTAH_LAB_SIM: "0" },
    encoding: "utf8",
    timeout: timeoutMs,
  });
  if (r.status !== 0) throw new Error(`PTAH_LAB_DIR=${TWO_DIR} node lab/lab.mjs ${command} exited ${String(r.status)}: ${r.stderr}`);
}

type Doc = { clusters: { name: string }[]; users: { name: string }[]; contexts: { name: string; context: Record<string, string> }[]; "current-context": string };

/**
 * Both labs' lab-viewer as contexts `one` and `two` of one kubeconfig (names prefixed so they
 * cannot collide), from their plugin twins (lab/config.ts PLUGIN_GROUP): only the plugin reads this
 * file, and the shared lab's read-only proof judges the plugin by those certificates. Each context
 * names its namespace (one: the test's, two: fleet) and the commands read those: the shared lab's
 * other namespaces hold other tests' deliberately malformed objects, whose warnings are not this
 * test's subject.
 */
function fleetKubeconfig(one: string, two: string, namespaces: Record<"one" | "two", string>): string {
  const named = (file: string, as: "one" | "two") => {
    const d = yaml.load(fs.readFileSync(file, "utf8")) as Doc;
    const ctx = d.contexts.find((c) => c.name === d["current-context"])!; // the file names every identity; lab-viewer is current
    return {
      cluster: { ...d.clusters.find((c) => c.name === ctx.context.cluster)!, name: `${as}-cluster` },
      user: { ...d.users.find((u) => u.name === ctx.context.user)!, name: `${as}-user` },
      context: { name: as, context: { ...ctx.context, cluster: `${as}-cluster`, user: `${as}-user`, namespace: namespaces[as] } },
    };
  };
  const parts = [named(one, "one"), named(two, "two")];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fleet-")), "config");
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: parts.map((p) => p.cluster),
    users: parts.map((p) => p.user),
    contexts: parts.map((p) => p.context),
    "current-context": "one",
  };
  fs.writeFileSync(file, yaml.dump(doc));
  return file;
}

let two: PrivateLab;
let merged: string;
let ns: string;

function twoKubectl(args: readonly string[], input = ""): void {
  const r = spawnSync("kubectl", ["--kubeconfig", two.kubeconfig, "--context", "lab-admin", ...args], { input, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(" ")} (lab two): ${r.stderr}`);
}

const now = (): string => new Date().toISOString().replace(/\.\d+Z$/u, "Z");
const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message, lastTransitionTime: now(), observedGeneration: 1 });

function inbox(args: readonly string[]) {
  return runKubectl(["ptah", "inbox", ...args], "viewer", { KUBECONFIG: merged });
}

describe.skipIf(skip)("inbox, status and ledger across two real control planes", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    labTwo("stop");
    labTwo("start");
    two = JSON.parse(fs.readFileSync(path.join(TWO_DIR, "lab.json"), "utf8")) as PrivateLab;
    // Lab one: the simulator brings storefront to a plan waiting for approval.
    await waitForSimulator();
    ns = createScenarioNamespace("fleet");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: storefrontSetup() });
    const ready = runKubectl(["ptah", "wait", "storefront", "-n", ns, "--for=condition=ApprovalRequired", "--timeout=90s"], "viewer");
    expect(ready.status, ready.stderr).toBe(0);
    merged = fleetKubeconfig(labEnv().pluginKubeconfigs.viewer, two.pluginKubeconfigs.viewer, { one: ns, two: "fleet" });
    // Lab two: a schema whose status says it waits, written by hand.
    twoKubectl(["create", "namespace", "fleet"]);
    twoKubectl(["apply", "-n", "fleet", "-f", "-"], storefrontSetup().replace(/name: storefront\}/u, "name: catalog}"));
    const status = {
      observedGeneration: 1,
      phase: "AwaitingApproval",
      conditions: [cond("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"), cond("Ready", "False", "AwaitingApproval", "x")],
    };
    twoKubectl(["patch", "ptahschemas.operator.ptah.run", "catalog", "-n", "fleet", "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
    // And an approval of it, written by hand too (lab two has no admission webhook to stamp one).
    const uid = spawnSync(
      "kubectl",
      ["--kubeconfig", two.kubeconfig, "--context", "lab-admin", "get", "ptahschemas.operator.ptah.run", "catalog", "-n", "fleet", "-o", "jsonpath={.metadata.uid}"],
      {
        encoding: "utf8",
      },
    ).stdout;
    expect(uid).toMatch(/^[0-9a-f-]{36}$/u);
    const approval = {
      apiVersion: "operator.ptah.run/v1alpha1",
      kind: "PtahSchemaApproval",
      metadata: { name: "catalog-v1" },
      spec: {
        schemaRef: { name: "catalog", uid },
        planRef: { name: "ptah-plan-0123456789abcdef01234567", uid: "plan-uid" },
        planFingerprint: `sha256:${"0123456789abcdef".repeat(4)}`,
        approver: { username: "lab-approver", groups: ["system:authenticated"] },
        approvedAt: now(),
        mutationRequestUID: "by-hand",
      },
    };
    twoKubectl(["create", "-n", "fleet", "-f", "-"], JSON.stringify(approval));
  }, 20 * 60_000);

  afterAll(() => {
    if (!two) return;
    try {
      const events = readAuditLog(two.auditLog).filter((e) => (e.userAgent ?? "").startsWith("kubectl-ptah/"));
      const writes = pluginWrites(events, { allowAccessReviews: true }); // inbox asks the authorizer (SelfSubjectAccessReview), which stores nothing
      console.log(`read-only proof (private fleet lab): ${events.length} plugin requests, ${writes.length} mutating (access reviews aside)`);
      if (writes.length > 0) throw new Error(`the plugin wrote to lab two:\n${writes.map(formatAuditEvent).join("\n")}`);
    } finally {
      labTwo("stop", 120_000);
    }
  });

  it("--all-contexts shows what waits in both, one CONTEXT column", () => {
    const r = inbox(["--all-contexts"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAMESPACE +OBJECT +WAITING /u);
    expect(r.stdout).toMatch(new RegExp(`^one +${ns} +ptahschema/storefront .* read only +kubectl ptah --context one plan storefront -n ${ns}$`, "mu"));
    expect(r.stdout).toMatch(/^two +fleet +ptahschema\/catalog .* read only +kubectl ptah --context two plan catalog -n fleet$/mu);
    const json = inbox(["--contexts", "two,one", "-o", "json"]);
    const items = (JSON.parse(json.stdout) as { items: { context: string; name: string }[] }).items;
    expect(items.filter((i) => i.context === "two").map((i) => i.name)).toEqual(["catalog"]);
    expect(items.find((i) => i.context === "one" && i.name === "storefront")).toBeDefined();
  });

  it("status and ledger --all-contexts show both control planes, one CONTEXT column", () => {
    const status = runKubectl(["ptah", "status", "--all-contexts"], "viewer", { KUBECONFIG: merged });
    expect(status.stderr).toBe("");
    expect(status.status).toBe(0);
    expect(status.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAME +PHASE /u);
    expect(status.stdout).toMatch(/^one +(ptahschema\/)?storefront +AwaitingApproval /mu);
    expect(status.stdout).toMatch(/^two +(ptahschema\/)?catalog +AwaitingApproval /mu);
    const ledger = runKubectl(["ptah", "ledger", "--contexts", "two"], "viewer", { KUBECONFIG: merged });
    expect(ledger).toMatchObject({ status: 0, stderr: "" });
    expect(ledger.stdout).toMatch(/^CONTEXT +APPROVAL +OBJECT /u);
    expect(ledger.stdout).toMatch(/^two +catalog-v1 +catalog +ptah-plan-0123456789abcdef01234567 +sha256:0123456789ab +lab-approver /mu);
    const json = runKubectl(["ptah", "ledger", "--all-contexts", "-o", "json"], "viewer", { KUBECONFIG: merged });
    expect(json.status, json.stderr).toBe(0);
    const items = (JSON.parse(json.stdout) as { items: { context: string; name: string }[] }).items;
    expect(items.filter((i) => i.context === "two").map((i) => i.name)).toEqual(["catalog-v1"]);
  });

  it("with the second kube-apiserver stopped, shows the first and names the stopped one (exit 0)", () => {
    labTwo("stop-apiserver", 60_000);
    const r = inbox(["--all-contexts"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^error: context "two": [^\n]+\n$/u);
    expect(r.stdout).toMatch(new RegExp(`^one +${ns} +ptahschema/storefront `, "mu"));
    expect(r.stdout).not.toMatch(/^two /mu);
    const only = inbox(["--contexts", "two"]);
    expect(only).toMatchObject({ status: 1, stdout: "" });
    expect(only.stderr).toMatch(/^error: context "two": [^\n]+\n$/u);
    const status = runKubectl(["ptah", "status", "--all-contexts"], "viewer", { KUBECONFIG: merged });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stderr).toMatch(/^error: context "two": [^\n]+\n$/u);
    expect(status.stdout).toMatch(/^one +(ptahschema\/)?storefront /mu);
  });
});
