// Completion through the REAL kubectl (>= 1.26 plugin completion): `kubectl __complete ptah …`
// finds kubectl_complete-ptah on PATH (written here from `kubectl ptah completion kubectl`), which
// runs `kubectl ptah __complete …`, which runs our plugin against the lab as lab-viewer.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, labEnv } from "../support/lab.ts";
import { migrationManifest, runKubectl, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;

interface Completion {
  readonly values: string[];
  readonly lines: string[];
  readonly directive: number;
  readonly stderr: string;
  readonly ms: number;
}

/** `kubectl __complete ptah ARGS…` as viewer; the kubectl's debug lines go to stderr. */
function kubectlComplete(args: readonly string[], env: NodeJS.ProcessEnv = {}): Completion {
  const started = Date.now();
  const r = runKubectl(["__complete", "ptah", ...args], "viewer", env);
  const ms = Date.now() - started;
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  const last = lines.pop() ?? "";
  expect(last).toMatch(/^:\d+$/u);
  return { values: lines.map((l) => l.split("\t")[0]!), lines, directive: Number(last.slice(1)), stderr: r.stderr, ms };
}

let ns = "";
let other = "";

describe.skipIf(skip)("completion through kubectl's plugin completion against the lab", { timeout: 120_000 }, () => {
  beforeAll(() => {
    const dir = process.env.PTAH_BIN_DIR;
    if (!dir) throw new Error("PTAH_BIN_DIR is not set: run through the e2e project (its globalSetup)");
    const helper = spawnSync(path.join(dir, "kubectl-ptah"), ["completion", "kubectl"], { encoding: "utf8" });
    expect(helper.status, helper.stderr).toBe(0);
    fs.writeFileSync(path.join(dir, "kubectl_complete-ptah"), helper.stdout, { mode: 0o755 });
    ns = createNamespace("complete");
    other = createNamespace("complete-other");
    createObject(schemaManifest(ns, "storefront"));
    createObject(schemaManifest(ns, "orders"));
    createObject(schemaManifest(other, "billing"));
    createObject(migrationManifest(ns, "backfill"));
  });

  it('kubectl __complete ptah "" lists the plugin\'s commands (no file completion)', () => {
    const r = kubectlComplete([""]);
    expect(r.values).toEqual(expect.arrayContaining(["status", "plan", "approve", "explain", "completion"]));
    expect(r.values).not.toContain("__complete");
    expect(r.lines.find((l) => l.startsWith("status\t"))).toMatch(/^status\t\S/u);
    expect(r.directive).toBe(4);
    // kubectl's own debug lines only; nothing from the plugin.
    expect(r.stderr).not.toMatch(/error|Error/u);
  });

  it('kubectl __complete ptah status "" lists the schema names of the namespace', () => {
    expect(kubectlComplete(["status", "-n", ns, ""]).values).toEqual(["orders", "storefront"]);
    expect(kubectlComplete(["-n", other, "status", ""]).values).toEqual(["billing"]);
    expect(kubectlComplete(["plan", `--namespace=${ns}`, "st"]).values).toEqual(["storefront"]);
  });

  it("takes the namespace from the kubeconfig context when -n is not typed", () => {
    const lab = labEnv();
    // Only the plugin reads this kubeconfig: made from the viewer's plugin twin (lab/config.ts
    // PLUGIN_GROUP), so the read-only proof sees its requests as the plugin's.
    const config = path.join(path.dirname(lab.pluginKubeconfigs.viewer), `viewer-in-${ns}.yaml`);
    const r = spawnSync("kubectl", ["--kubeconfig", lab.pluginKubeconfigs.viewer, "config", "view", "--raw", "--flatten", "-o", "json"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { contexts: Array<{ context: Record<string, unknown> }> };
    for (const c of doc.contexts) c.context.namespace = ns;
    fs.writeFileSync(config, JSON.stringify(doc));
    try {
      expect(kubectlComplete(["status", ""], { KUBECONFIG: config }).values).toEqual(["orders", "storefront"]);
    } finally {
      fs.rmSync(config, { force: true });
    }
  });

  it("approve <TAB> offers schemas and `migration`; approve migration <TAB> offers migrations", () => {
    expect(kubectlComplete(["approve", "-n", ns, ""]).values).toEqual(["orders", "storefront", "migration"]);
    expect(kubectlComplete(["approve", "migration", "-n", ns, ""]).values).toEqual(["backfill"]);
  });

  it("completes flags, --output values and explain topics", () => {
    expect(kubectlComplete(["status", "--wa"]).values).toEqual(["--watch", "--warnings-as-errors"]);
    expect(kubectlComplete(["status", "-o", ""]).values).toEqual(["wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", "custom-columns-file="]);
    expect(kubectlComplete(["explain", "Stal"]).values).toEqual(expect.arrayContaining(["Stale", "StalePlan"]));
  });

  it("--context values come from the kubeconfig", () => {
    const lab = labEnv();
    const r = kubectlComplete(["--kubeconfig", lab.kubeconfig, "--context", "lab-"]);
    expect(r.values).toEqual(expect.arrayContaining(["lab-admin", "lab-viewer"]));
  });

  it("is fast and silent when the cluster cannot be reached: `:4`, no candidates, no plugin error", () => {
    const r = kubectlComplete(["status", "--kubeconfig", "/nonexistent/kubeconfig", ""]);
    expect(r.values).toEqual([]);
    expect(r.directive).toBe(4);
    expect(r.stderr).not.toMatch(/error: /u);
    expect(r.ms).toBeLessThan(10_000);
  });

  it("an identity that may not list schemas gets no candidates, silently", () => {
    const lab = labEnv();
    const r = kubectlComplete(["status", "-n", ns, ""], { KUBECONFIG: lab.kubeconfigs.nobody });
    expect(r.values).toEqual([]);
    expect(r.stderr).not.toMatch(/forbidden|error: /iu);
  });
});
