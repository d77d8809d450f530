// Every read command through the real `kubectl` (plugin found on PATH as kubectl-ptah)
// against the lab's real kube-apiserver, as lab-viewer unless a case says otherwise. Fixtures
// are written as lab-admin, the operator's way (plan → owned chunks → committed status).
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl, setStatus } from "../support/lab.ts";
import { ptah, schemaManifest } from "../support/plugin.ts";
import { labAwaitingStatus, publishPlanInLab, type LabPlan } from "../support/lab-publish.ts";

const skip = process.env.PTAH_E2E_SKIP;

let ns = "";
let plan: LabPlan;
let tamperedNs = "";

function publishFor(namespace: string, name: string, mutate?: Parameters<typeof publishPlanInLab>[1]): LabPlan {
  const schema = createObject(schemaManifest(namespace, name));
  const uid = (schema.metadata as { uid: string }).uid;
  const p = publishPlanInLab(
    {
      schema: { name, namespace, uid },
      statements: [
        { sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY NOT NULL, "email" text NOT NULL)', severity: "safe", reason: "tables_added" },
        { sql: "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$", severity: "info", reason: "functions_added" },
      ],
    },
    mutate,
  );
  setStatus(schema, labAwaitingStatus(p));
  return p;
}

describe.skipIf(skip)("commands through kubectl against the lab", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("cmd");
    plan = publishFor(ns, "storefront");
    tamperedNs = createNamespace("tamper");
    publishFor(tamperedNs, "storefront", (chunk) => {
      const spec = chunk.spec as { data: string };
      const bytes = Buffer.from(spec.data, "base64");
      bytes[10] = bytes[10]! ^ 0x20;
      return { ...chunk, spec: { data: bytes.toString("base64") } };
    });
  });

  it("version reports the server and the served Ptah kinds", () => {
    const r = ptah(["version"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Server Version: v1\.33\./u);
    expect(r.stdout).toContain("PtahSchemaApproval");
  });

  it("status lists the schema, and one schema in detail with the next command", () => {
    const list = ptah(["status", "-n", ns]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/storefront\s+AwaitingApproval\s+False \(AwaitingApproval\)/u);
    const detail = ptah(["status", "storefront", "-n", ns]);
    expect(detail.status, detail.stderr).toBe(0);
    expect(detail.stdout).toContain(`Next: read the plan with: kubectl ptah plan storefront -n ${ns}`);
  });

  it("prints exactly what kubectl prints for the seed's jsonpath line", () => {
    const template = '{.status.phase}{"\\n"}{.status.plan.fingerprint}{"\\n"}';
    const ours = ptah(["status", "storefront", "-n", ns, "-o", `jsonpath=${template}`]);
    const theirs = kubectl(["-n", ns, "get", "ptahschema", "storefront", "-o", `jsonpath=${template}`], { as: "viewer" });
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.stdout).toBe(`AwaitingApproval\n${plan.published.fingerprint}\n`);
  });

  it("schema prints upstream's view", () => {
    const r = ptah(["schema", "storefront", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Schema:           ${ns}/storefront\n`);
  });

  it("plan verifies the chunks and prints the SQL, one ; per statement", () => {
    const r = ptah(["plan", "storefront", "-n", ns, "-o", "sql"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'CREATE TABLE "customers" ("id" bigint PRIMARY KEY NOT NULL, "email" text NOT NULL);\nCREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;\n',
    );
  });

  it("plan refuses a tampered chunk with exit 1 and an empty stdout", () => {
    const r = ptah(["plan", "storefront", "-n", tamperedNs, "-o", "sql"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*plan chunk 0 does not match the manifest/u);
  });

  it("plan --verify prints the report of a tampered plan on stdout, the failed check marked, and exits 1", () => {
    const r = ptah(["plan", "storefront", "-n", tamperedNs, "--verify"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^CHECK +RESULT +DETAIL\n/u);
    expect(r.stdout).toMatch(/\nfingerprint +ok /u);
    expect(r.stdout).toMatch(/\nchunk 0 +FAILED +read the stored plan [^\n]*plan chunk 0 does not match the manifest/u);
    expect(r.stdout.endsWith(`\nThe current plan of ${tamperedNs}/storefront did not verify; nothing from it was printed.\n`)).toBe(true);
    expect(r.stdout).not.toMatch(/CREATE|SELECT|customers/u); // check names and results, never SQL
    expect(r.stderr).toMatch(/^error: read the stored plan [^\n]*plan chunk 0 does not match the manifest\n$/u);
    const ok = ptah(["plan", "storefront", "-n", ns, "--verify"]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ verified: \d+ checks held\.\n$/u);
    expect(ok.stdout).not.toMatch(/FAILED|CREATE|SELECT/u);
  });

  it("plan works for a user with upstream's minimal role, and says which rule is missing without it", () => {
    kubectl([
      "-n",
      ns,
      "create",
      "role",
      "review-application-plans",
      "--verb=get",
      "--resource=ptahschemas.operator.ptah.run,ptahschemaplans.operator.ptah.run,ptahschemaplanchunks.operator.ptah.run",
    ]);
    kubectl(["-n", ns, "create", "rolebinding", "review-application-plans", "--role=review-application-plans", "--user=lab-nobody"]);
    const ok = ptah(["plan", "storefront", "-n", ns, "-o", "sql"], "nobody");
    expect(ok.status, ok.stderr).toBe(0);
    const denied = ptah(["plan", "storefront", "-n", tamperedNs, "-o", "sql"], "nobody");
    expect(denied.status).toBe(1);
    expect(denied.stdout).toBe("");
    expect(denied.stderr).toMatch(/forbidden.*cannot get resource "ptahschemas"/u);
    const list = ptah(["status", "-n", ns], "nobody");
    expect(list.status).toBe(1);
    expect(list.stderr).toMatch(/cannot list resource "ptah\w+"/u);
  });

  it("approve prints a bound manifest as the read-only viewer; --dry-run=server needs create permission", () => {
    const r = ptah(["approve", "storefront", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`planFingerprint: ${plan.published.fingerprint}`);
    expect(r.stdout).toContain(`name: ${plan.published.name}`);
    const dry = ptah(["approve", "storefront", "-n", ns, "--dry-run=server"]);
    expect(dry.status).toBe(1);
    expect(dry.stdout).toBe("");
    expect(dry.stderr).toMatch(/cannot create resource "ptahschemaapprovals".*needs create permission/u);
  });

  it("approvals, history and not-found behave", () => {
    const approvals = ptah(["approvals", "-n", ns]);
    expect(approvals.status, approvals.stderr).toBe(0);
    expect(approvals.stderr).toBe(`No resources found in ${ns} namespace.\n`);
    const history = ptah(["history", "storefront", "-n", ns]);
    expect(history.status, history.stderr).toBe(0);
    expect(history.stdout).toContain("ApprovalRequired=True Waiting");
    const missing = ptah(["status", "nope", "-n", ns]);
    expect(missing).toMatchObject({ status: 3, stdout: "" });
    expect(missing.stderr).toBe(`error: no such schema: ${ns}/nope\n`);
  });

  it("explain works with no cluster and no kubeconfig", () => {
    const r = ptah(["explain", "stale"], "viewer", { KUBECONFIG: "/nonexistent/kubeconfig", HOME: "/nonexistent" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("kubectl ptah approve");
  });

  it("kubectl finds the plugin and passes --version through", () => {
    const r = ptah(["--version"]);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    expect(r.stdout).toMatch(/^kubectl-ptah v\d+\.\d+\.\d+/u);
  });
});
