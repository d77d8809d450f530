// Lists that tolerate misfits, and the printing flags, on the lab through the real kubectl: a list with one object that fits the CRD but not
// the model shows the others; `status SCHEMA` as an identity that may get schemas but not list
// approvals prints the schema and names the gap; the printing flags print what `kubectl get` prints.
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl, labEnv, setStatus, condition, type KubeObject } from "../support/lab.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;

let ns = "";

function schema(name: string, labels: Record<string, string>, status: Record<string, unknown>): void {
  const manifest = schemaManifest(ns, name);
  const created = createObject({ ...manifest, metadata: { ...manifest.metadata, labels } } as KubeObject);
  setStatus(created, status);
}

describe.skipIf(skip)("list tolerance and printing flags against the lab", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("lists");
    const ready = (reason: string) => [condition("Ready", "False", reason, "waiting", { observedGeneration: 1 })];
    schema("storefront", { app: "shop", tier: "2" }, { observedGeneration: 1, phase: "AwaitingApproval", conditions: ready("AwaitingApproval") });
    schema("catalog", { app: "shop", tier: "1" }, { observedGeneration: 1, phase: "InSync", conditions: ready("InSync") });
    // activeOperation keeps unknown fields in the CRD, so a string where the model expects a
    // reference object is stored; the model rejects it.
    schema("odd", {}, { observedGeneration: 1, phase: "Applying", activeOperation: { type: "Apply", approvalRef: "storefront-v1" }, conditions: ready("Applying") });
    // lab-nobody may get and list PtahSchemas in this namespace, nothing else.
    const user = labEnv().users.nobody.name;
    kubectl(["create", "role", "schema-reader", "--verb=get,list", "--resource=ptahschemas.operator.ptah.run"], { namespace: ns });
    kubectl(["create", "rolebinding", "schema-reader", "--role=schema-reader", `--user=${user}`], { namespace: ns });
  });

  it("status prints every schema that fits and one warning for the one that does not; -o json prints all three", () => {
    const r = ptah(["status", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^NAME +PHASE/u);
    expect(r.stdout).toContain("catalog");
    expect(r.stdout).toContain("storefront");
    expect(r.stdout).not.toContain("odd");
    expect(r.stderr).toBe(
      `Warning: not shown: ptahschema ${ns}/odd does not fit the PtahSchema model: status.activeOperation.approvalRef: invalid input: expected object, received string\n`,
    );
    const json = ptah(["status", "-n", ns, "-o", "json"]);
    expect(json.status, json.stderr).toBe(0);
    const names = (JSON.parse(json.stdout) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
    expect(names).toEqual(["catalog", "odd", "storefront"]);
  });

  it("status SCHEMA as an identity that may get the schema but not list approvals: the schema, and the gap named", () => {
    expect(kubectl(["auth", "can-i", "list", "ptahschemaapprovals.operator.ptah.run"], { as: "nobody", namespace: ns, check: false }).stdout.trim()).toBe("no");
    const r = ptah(["status", "storefront", "-n", ns], "nobody");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Name:          ${ns}/storefront`);
    expect(r.stdout).toMatch(
      /\n {2}Approvals: +not shown: ptahschemaapprovals\.operator\.ptah\.run is forbidden: User "lab-nobody" cannot list resource "ptahschemaapprovals" in API group "operator\.ptah\.run" in the namespace "[^"]+" \(needs an RBAC rule granting "list" on ptahschemaapprovals\.operator\.ptah\.run\) \(kubectl ptah doctor explains what is missing\)\n/u,
    );
    expect(r.stderr).toMatch(/^Warning: approvals not shown: ptahschemaapprovals\.operator\.ptah\.run is forbidden: [^\n]+\n$/u);
    const history = ptah(["history", "storefront", "-n", ns], "nobody");
    expect(history.status, history.stderr).toBe(0);
    expect(history.stdout).toContain("ptahschema/storefront");
    expect(history.stdout).toMatch(/\nEvents: not shown: events is forbidden: User "lab-nobody" cannot list resource "events"/u);
  });

  it("inbox -A as an identity with only a namespaced RoleBinding: what waits where it may read, one line naming what it could not list; exit 0", () => {
    // A namespace of its own (the other cases count this file's schemas): one schema waits for an
    // approval, one does not fit the model; lab-nobody may list schemas and migrations here only.
    const here = createNamespace("inbox");
    const waiting = createObject(schemaManifest(here, "storefront"));
    setStatus(waiting, {
      observedGeneration: 1,
      phase: "AwaitingApproval",
      conditions: [condition("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint", { observedGeneration: 1 })],
    });
    const odd = createObject(schemaManifest(here, "odd"));
    setStatus(odd, { observedGeneration: 1, phase: "Applying", activeOperation: { type: "Apply", approvalRef: "storefront-v1" }, conditions: [] });
    const user = labEnv().users.nobody.name;
    kubectl(["create", "role", "inbox-reader", "--verb=get,list", "--resource=ptahschemas.operator.ptah.run", "--resource=ptahmigrations.operator.ptah.run"], { namespace: here });
    kubectl(["create", "rolebinding", "inbox-reader", "--role=inbox-reader", `--user=${user}`], { namespace: here });
    expect(kubectl(["auth", "can-i", "list", "ptahschemas.operator.ptah.run", "--all-namespaces"], { as: "nobody", check: false }).stdout.trim()).toBe("no");
    for (const argv of [
      ["inbox", "-A", "--namespaces", here],
      ["inbox", "-A", "-n", here],
    ]) {
      const r = ptah(argv, "nobody");
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\bptahschema\/storefront\b/u);
      const lines = r.stderr.split("\n").filter(Boolean);
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Warning: could not list across all namespaces, showing namespace ${here} only: ptah(schemas|migrations)\\.operator\\.ptah\\.run is forbidden: User "lab-nobody" cannot list resource "ptah(schemas|migrations)" in API group "operator\\.ptah\\.run" at the cluster scope`,
            "u",
          ),
        ),
        `Warning: not shown: ptahschema ${here}/odd does not fit the PtahSchema model: status.activeOperation.approvalRef: invalid input: expected object, received string`,
      ]);
    }
  });

  it.each([
    [["--sort-by=.metadata.labels.tier", "-o", "name"]],
    [["--sort-by={.metadata.name}", "-o", "custom-columns=NAME:.metadata.name,PHASE:.status.phase,TIER:.metadata.labels.tier,OP:.status.activeOperation"]],
    [["--field-selector=metadata.name=catalog", "-o", "name"]],
    // (one label: kubectl decodes objects into Go maps, so a wildcard over several labels comes out in a
    // different order from run to run of kubectl itself)
    [["--sort-by=.metadata.name", "-o", "custom-columns=N:metadata.name,L:{.metadata.labels.app}", "--no-headers"]],
  ])("kubectl ptah status %j prints what kubectl get ptahschemas prints", (args) => {
    const ours = ptah(["status", "-n", ns, ...args]);
    const theirs = kubectl(["get", "ptahschemas", ...args], { as: "viewer", namespace: ns });
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(theirs.stdout);
  });

  it("-L and --show-labels add the columns kubectl get adds", () => {
    const ours = ptah(["status", "-n", ns, "--sort-by=.metadata.name", "-L", "tier", "--show-labels"]);
    expect(ours.status, ours.stderr).toBe(0);
    const header = ours.stdout.split("\n")[0]!;
    expect(header).toMatch(/ AGE +TIER +LABELS$/u);
    expect(ours.stdout).toMatch(/\ncatalog .* 1 +app=shop,tier=1\n/u);
    const theirs = kubectl(["get", "ptahschemas", "--sort-by=.metadata.name", "-L", "tier", "--show-labels"], { as: "viewer", namespace: ns }).stdout;
    expect(theirs.split("\n")[0]).toMatch(/ AGE +TIER +LABELS$/u);
    expect(theirs).toMatch(/\ncatalog .* 1 +app=shop,tier=1\n/u);
  });

  it("a field the CRD does not serve is the server's refusal, as kubectl gets it", () => {
    const r = ptah(["status", "-n", ns, "--field-selector=status.phase=InSync"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*field label not supported: status\.phase[^\n]*\n$/u);
  });
});
