// Plan retention, the ledger and export on the lab, through the real kubectl: after the stale-approval story (and one more
// desired change, so that a plan is left that nothing names), `plans --unpinned` lists exactly the
// plans nothing references, checked against pins computed here from raw `kubectl get -o json`;
// an exported plan verifies offline and a changed byte in it is refused; `ledger` shows the
// manager that dispatched the Apply; with only the chart's approver ClusterRole, `history` names
// the Events it could not read in one stderr line and prints the rest.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl, kubectlJson } from "../support/lab.ts";
import { ptah } from "../support/plugin.ts";
import { createScenarioNamespace, formatFailures, loadScenario, runScenario, SCENARIO_DIR } from "../scenarios/runner.ts";

const skip = process.env.PTAH_E2E_SKIP;

type Raw = Record<string, any>;
let ns = "";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-plans-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const list = (kinds: string): Raw[] => kubectlJson<{ items: Raw[] }>(["get", kinds], { namespace: ns }).items;

/** The pins, as upstream's operations guide collects them, from the objects as the server has them. */
function pinsFromRawJson(): { schema: Set<string>; migration: Set<string> } {
  const schema = new Set<string>();
  const migration = new Set<string>();
  const add = (set: Set<string>, name: unknown) => typeof name === "string" && name !== "" && set.add(name);
  for (const s of list("ptahschemas")) {
    add(schema, s.status?.plan?.name);
    add(schema, s.status?.pendingObservation?.plan?.name);
    add(schema, s.status?.applied?.planRef?.name);
    add(schema, s.status?.pendingBindingRetirement?.plan?.name);
  }
  for (const m of list("ptahmigrations")) {
    add(migration, m.status?.plan?.name);
    add(migration, m.status?.activeOperation?.planRef?.name);
    add(migration, m.status?.unresolvedRun?.planRef?.name);
  }
  for (const a of list("ptahschemaapprovals")) add(schema, a.spec?.planRef?.name);
  for (const a of list("ptahmigrationapprovals")) add(migration, a.spec?.planRef?.name);
  return { schema, migration };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.skipIf(Boolean(skip))("plans, exports and the dispatching manager, after the stale-approval story", { timeout: 240_000 }, () => {
  let leftOver = "";

  beforeAll(async () => {
    const result = await runScenario(loadScenario(path.join(SCENARIO_DIR, "stale-approval.yaml")), { binDir: process.env.PTAH_BIN_DIR! });
    expect(result.passed, formatFailures(result.checks)).toBe(true);
    ns = result.namespace;
    // The story ends with v2 waiting. One more desired change publishes v3, and v2's plan is then
    // named by nothing: the plan a person would prune.
    const before = kubectlJson<Raw>(["get", "ptahschema", "storefront"], { namespace: ns }).status.plan.name as string;
    // v3 drops a column: allowed, so that it waits for an approval rather than being Blocked.
    kubectl(
      ["patch", "ptahschema", "storefront", "--type=merge", "-p", '{"spec":{"desired":{"ociRef":"oci://registry.lab/schemas/demo:v3"},"policy":{"allowDestructive":true}}}'],
      {
        namespace: ns,
      },
    );
    await until("a new current plan", () => {
      const name = kubectlJson<Raw>(["get", "ptahschema", "storefront"], { namespace: ns }).status?.plan?.name as string | undefined;
      return name && name !== before ? name : undefined;
    });
    leftOver = before;
  }, 240_000);

  it("plans --unpinned lists exactly the plans nothing references, by pins computed from kubectl get -o json", () => {
    const pins = pinsFromRawJson();
    const expected = [
      ...list("ptahschemaplans")
        .filter((p) => !pins.schema.has(p.metadata.name))
        .map((p) => `ptahschemaplan.operator.ptah.run/${p.metadata.name}`),
      ...list("ptahmigrationplans")
        .filter((p) => !pins.migration.has(p.metadata.name))
        .map((p) => `ptahmigrationplan.operator.ptah.run/${p.metadata.name}`),
    ].sort();
    expect(expected, "the story leaves a plan nothing names").toContain(`ptahschemaplan.operator.ptah.run/${leftOver}`);
    expect(list("ptahschemaplans").length, "and plans that are pinned").toBeGreaterThan(expected.length);
    const r = ptah(["plans", "-n", ns, "--unpinned", "-o", "name"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean).sort()).toEqual(expected);
    const table = ptah(["plans", "storefront", "-n", ns]);
    expect(table.stdout).toMatch(/ptahschema\/storefront status\.applied\.planRef, ptahschemaapproval\/storefront-v1 spec\.planRef/u);
    expect(table.stdout).toMatch(/ptahschema\/storefront status\.plan$/mu);
  });

  it("exports the left-over plan, verifies the file offline, and refuses it with one byte changed", () => {
    const file = path.join(dir, "plan.json");
    const exported = ptah(["plan", "storefront", "-n", ns, "--plan", leftOver, "--export", file]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(new RegExp(`^ptahschemaplan/${leftOver} exported to ${file} \\(\\d+ bytes, fingerprint sha256:[0-9a-f]{64}, 0 approvals\\)\\n$`, "u"));
    // Offline: no kubeconfig that reaches anything.
    const offline = { KUBECONFIG: path.join(dir, "no-such-kubeconfig") };
    const ok = ptah(["plan", "--verify", "-f", file], "viewer", offline);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`The exported plan ${leftOver} of ${ns}/storefront verified:`);
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf(Buffer.from('"base64": "')) + 20;
    bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    const changed = path.join(dir, "changed.json");
    fs.writeFileSync(changed, bytes);
    const refused = ptah(["plan", "--verify", "-f", changed], "viewer", offline);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^error: the export file was changed after it was written: [^\n]+\n$/u);
    expect(refused.stdout).toContain("did not verify; nothing from it was printed.");
  });

  it("ledger shows the manager that dispatched the Apply, as status.applied.dispatchedBy records it", () => {
    const applied = kubectlJson<Raw>(["get", "ptahschema", "storefront"], { namespace: ns }).status.applied;
    expect(applied.dispatchedBy).toMatchObject({ controllerRevision: expect.any(String), controllerImage: expect.stringMatching(/@sha256:/u) });
    const json = ptah(["ledger", "storefront", "-n", ns, "-o", "json"]);
    const v1 = (JSON.parse(json.stdout) as { items: Raw[] }).items.find((i) => i.name === "storefront-v1");
    expect(v1?.dispatchedBy).toEqual(applied.dispatchedBy);
    const table = ptah(["ledger", "storefront", "-n", ns]);
    const d = applied.dispatchedBy as { controllerRevision: string; controllerImage: string };
    expect(table.stdout).toContain(`${d.controllerRevision} ${d.controllerImage.slice(0, d.controllerImage.indexOf("@sha256:") + 20)}, runner `);
  });

  it("history with only the chart's approver ClusterRole: everything but the Events, which one stderr line names", () => {
    kubectl(["create", "rolebinding", "chart-approver", "--clusterrole=ptah-operator-approver", "--user=chart-approver"], { namespace: ns });
    const r = ptah(["history", "storefront", "-n", ns, "--as", "chart-approver"], "admin");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Warning: events not shown: [^\n]*events[^\n]*forbidden[^\n]*\n$/u);
    expect(r.stdout).toMatch(/ptahschemaapproval\/storefront-v1 +ledger +approved +approved by lab-approver/u);
    const file = path.join(dir, "chart-approver.json");
    for (const args of [
      ["status"],
      ["status", "storefront"],
      ["schema", "storefront"],
      ["plan", "storefront"],
      ["plan", "storefront", "--plan", leftOver],
      ["plan", "storefront", "--plan", leftOver, "--export", file],
      ["plans"],
      ["diff", "storefront", "--from", "applied"],
      ["approvals"],
      ["ledger", "storefront"],
      ["inbox"],
      ["explain", "storefront"],
      ["approve", "storefront", "--dry-run=server"],
    ]) {
      const run = ptah([...args, "-n", ns, "--as", "chart-approver"], "admin");
      expect(run.status, `${args.join(" ")}: ${run.stderr}`).toBe(0);
    }
  });
});

describe.skipIf(Boolean(skip))("Ptah v0.13's drift categories in the lab's CRD", { timeout: 180_000 }, () => {
  it("a schema whose artifact declares a database schema reports schemas_added, and the CRD stores it", async () => {
    const where = createScenarioNamespace("drift-categories");
    kubectl(["apply", "-f", "-"], {
      namespace: where,
      input: [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata: {name: verification-policy}",
        "immutable: true",
        "data: {policy.json: '{}'}",
        "---",
        "apiVersion: v1",
        "kind: Secret",
        "metadata: {name: reporting-db}",
        "stringData: {url: 'postgres://reporting@db.lab:5432/reporting'}",
        "---",
        "apiVersion: operator.ptah.run/v1alpha1",
        "kind: PtahSchema",
        "metadata: {name: reporting}",
        "spec:",
        "  target: {engine: PostgreSQL, coordinationKey: reporting, urlFrom: {name: reporting-db, key: url}}",
        "  desired: {ociRef: 'oci://registry.lab/schemas/reporting:v1', verificationPolicyFrom: {name: verification-policy, key: policy.json}}",
        "",
      ].join("\n"),
    });
    const findings = await until("drift findings", () => {
      const f = kubectlJson<Raw>(["get", "ptahschema", "reporting"], { namespace: where }).status?.target?.driftFindings as Raw[] | undefined;
      return f && f.length > 0 ? f : undefined;
    });
    expect(findings).toEqual([{ category: "schemas_added", count: 1, severity: "safe" }]);
    const view = ptah(["schema", "reporting", "-n", where]);
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/schemas_added/u);
  });
});
