// doctor through the real CLI shell (argv strings, fixed clock) over a FakeReader and a
// FakeInspector: one golden per situation the issue names, and the exit status of each.
import { describe, expect, it } from "vitest";
import type { LocalFacts } from "../../../src/commands/command-types.ts";
import { ALL_COMMANDS } from "../../../src/commands/all-commands.ts";
import { ReadError } from "../../../src/errors.ts";
import type { KubeconfigOrigin } from "../../../src/kube/types.ts";
import { awaitingSchema } from "../../support/builders.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { ACCESS, ALL_PTAH_KINDS, FakeInspector } from "../../support/fake-inspector.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";

const CONFIG = "/Users/alice/.kube/config";
const ORIGIN: KubeconfigOrigin = {
  context: { name: "prod-alice", from: `current-context in ${CONFIG}` },
  cluster: { name: "prod", server: "https://prod.example:6443", from: CONFIG },
  user: { name: "alice", from: CONFIG },
  namespace: { name: "app", from: "-n/--namespace" },
};
const MACHINE: LocalFacts = {
  kubectl: { gitVersion: "v1.32.4", minor: 32 },
  plugins: [{ path: "/Users/alice/.krew/bin/kubectl-ptah", self: true }],
  selfPath: "/Users/alice/.krew/store/ptah/v0.1.0/kubectl-ptah",
  processGuard: true,
};

type Identity = keyof typeof ACCESS;

/** The inspector as each lab identity sees a cluster with the operator installed. */
function clusterAs(who: Identity): FakeInspector {
  const i = new FakeInspector();
  i.allow = ACCESS[who];
  if (who !== "admin") {
    i.crds = "forbidden";
    i.webhooks = { mutating: "forbidden", validating: "forbidden" };
    i.admission = "forbidden";
    i.guards = "forbidden";
  }
  return i;
}

function doctor(args: readonly string[], inspector: FakeInspector, reader = new FakeReader([])) {
  return runCliWith(["doctor", "-n", "app", ...args], reader, { inspector, origin: ORIGIN, machine: MACHINE });
}

/** The Permissions rows of a text report: form → verdict. */
function permissionRows(stdout: string): Map<string, string> {
  const section = stdout.slice(stdout.indexOf("Permissions ("));
  const rows = section.split("\n").filter((l) => /^ {31}\S/u.test(l) && !l.trimStart().startsWith("fix: "));
  return new Map(rows.map((l) => /^ {31}(.*?) {2,}(\S.*)$/u.exec(l)!.slice(1, 3) as [string, string]));
}

describe("doctor", () => {
  it("admin on a cluster with the operator: every check ok, exit 0", async () => {
    const i = clusterAs("admin");
    const r = await doctor([], i);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "doctor/admin.txt");
    expect(i.requests).toContain("get /apis/operator.ptah.run/v1alpha1");
    expect(i.requests.filter((q) => q.startsWith("get crd "))).toHaveLength(8);
  });

  it("-o json carries every check and the counts", async () => {
    const r = await doctor(["-o", "json"], clusterAs("admin"));
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "doctor/admin.json");
    const doc = JSON.parse(r.stdout) as { problems: number; checks: { status: string }[] };
    expect(doc.problems).toBe(0);
    expect(doc.checks.every((c) => c.status === "ok")).toBe(true);
  });

  it("viewer: approve --dry-run=server is named as not permitted, ptah-approver fixes it; CRDs and webhooks skipped, exit 1", async () => {
    const r = await doctor([], clusterAs("viewer"));
    expect(r.status).toBe(1);
    await expectGolden(r.stdout, "doctor/viewer.txt");
    // One row per form of every command, from the commands' own declarations.
    const rows = permissionRows(r.stdout);
    expect([...rows.keys()]).toEqual(ALL_COMMANDS.flatMap((c) => c.permissions.map((f) => f.form)));
    expect(rows.get("approve SCHEMA --dry-run=server")).toBe("missing create ptahschemaapprovals");
    expect([...rows].filter(([, v]) => v.startsWith("missing")).map(([form]) => form)).toEqual([
      "approve SCHEMA --dry-run=server",
      "approve SCHEMA | kubectl create -f -",
      "approve migration MIGRATION --dry-run=server",
      "acknowledge MIGRATION --dry-run=server",
    ]);
    expect(r.stdout).toMatch(/skipped +CRD generation/u);
    expect(r.stdout).not.toMatch(/ok +(mutating|validating) webhooks/u);
  });

  it("nobody: every command is a problem, the binding that fixes it is ptah-approver", async () => {
    const r = await doctor([], clusterAs("nobody"));
    expect(r.status).toBe(1);
    await expectGolden(r.stdout, "doctor/nobody.txt");
    const missing = [...permissionRows(r.stdout)].filter(([, v]) => v !== "missing" && !v.startsWith("missing ")).map(([form]) => form);
    // Only what needs no Ptah permission is left: the offline forms and version. doctor itself runs,
    // but its spec-writer check lists schemas and migrations, which nobody may.
    expect(missing).toEqual(ALL_COMMANDS.flatMap((c) => c.permissions.filter((f) => f.rules.length === 0).map((f) => f.form)));
    expect(permissionRows(r.stdout).get("doctor")).toBe("missing list ptahschemas, ptahmigrations");
    expect(r.stdout).toMatch(/ptah-viewer alone fixes every command but the creates/u);
  });

  it("CRDs but no webhooks: both webhook checks are problems that say what is missing", async () => {
    const i = clusterAs("admin");
    i.webhooks = { mutating: [], validating: [] };
    const r = await doctor([], i);
    expect(r.status).toBe(1);
    await expectGolden(r.stdout, "doctor/no-webhooks.txt");
  });

  it("no CRDs: the API check is a problem naming every kind and its CRD", async () => {
    const i = clusterAs("admin");
    i.kinds = undefined;
    const r = await doctor([], i);
    expect(r.status).toBe(1);
    await expectGolden(r.stdout, "doctor/no-crds.txt");
    expect(i.requests.some((q) => q.startsWith("get crd "))).toBe(false);
  });

  it("names only the missing kinds when some CRDs are installed", async () => {
    const i = clusterAs("admin");
    i.kinds = ALL_PTAH_KINDS.filter((k) => k !== "PtahSchemaApproval" && k !== "PtahMigrationRunAcknowledgment");
    const r = await doctor([], i);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/problem +kinds served +2 of 8 Ptah kinds are not served by operator\.ptah\.run\/v1alpha1: PtahSchemaApproval, PtahMigrationRunAcknowledgment/u);
    expect(r.stdout).toMatch(/PtahSchemaApproval: CRD ptahschemaapprovals\.operator\.ptah\.run/u);
  });

  it("an unreachable server: the server check is a problem, the cluster checks are skipped", async () => {
    const i = clusterAs("admin");
    i.version = new ReadError("the connection to the server prod.example:6443 was refused - did you specify the right host or port?");
    const r = await doctor([], i);
    expect(r.status).toBe(1);
    await expectGolden(r.stdout, "doctor/unreachable.txt");
  });

  it("a broken kubeconfig: the kubeconfig check is a problem, nothing is asked of a server", async () => {
    const r = await runCliWith(["doctor"], new FakeReader([]), { machine: MACHINE, connectError: new ReadError('context "nope" does not exist in the kubeconfig') });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/problem +kubeconfig +context "nope" does not exist in the kubeconfig/u);
    expect(r.stdout).toMatch(/skipped +server +no kubeconfig to connect with/u);
  });

  it("refuses arguments and unknown formats as usage errors", async () => {
    expect((await doctor(["storefront"], clusterAs("admin"))).status).toBe(2);
    const bad = await doctor(["-o", "yaml"], clusterAs("admin"));
    expect(bad).toMatchObject({ status: 2, stdout: "" });
    expect(bad.stderr).toMatch(/^error: unknown output format "yaml"/u);
  });
});

describe("doctor --probe", () => {
  const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
  const plan = publishSchemaPlan({ schema: SCHEMA, statements: [{ sql: 'CREATE TABLE "t" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }] });
  const reader = (): FakeReader => new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan) }) }, ...fakeObjectsOf(plan)]);

  it("reports an admitted dry-run create with the approver admission stamped", async () => {
    const fake = reader();
    fake.dryRun = (_kind, _ns, body) => ({ object: { ...body, spec: { ...(body.spec as object), approver: { username: "alice" } } } });
    const r = await doctor(["--probe", "storefront"], clusterAs("admin"), fake);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "doctor/probe-admitted.txt");
    expect(fake.requests.filter((q) => q.startsWith("create"))).toEqual(["create?dryRun=All PtahSchemaApproval app"]);
  });

  it("reports admission's refusal as a problem", async () => {
    const fake = reader();
    fake.dryRun = () => {
      throw new ReadError('PtahSchemaApproval.operator.ptah.run "storefront-0a" is invalid: spec.approver: Required value (422)', 422);
    };
    const r = await doctor(["--probe", "storefront"], clusterAs("admin"), fake);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/problem +probe +admission refused the approval for app\/storefront: .*spec\.approver: Required value/u);
    expect(r.stdout).toMatch(/fix: the mutating webhook did not stamp the approval/u);
  });

  it("is skipped, with why, when the account may not create approvals or there is nothing to approve", async () => {
    const fake = reader();
    fake.dryRun = () => {
      throw new ReadError(
        'ptahschemaapprovals.operator.ptah.run is forbidden: User "bob" cannot create resource "ptahschemaapprovals" in API group "operator.ptah.run" in the namespace "app"',
        403,
      );
    };
    const forbidden = await doctor(["--probe", "storefront"], clusterAs("viewer"), fake);
    expect(forbidden.stdout).toMatch(/skipped +probe +the account may not create ptahschemaapprovals in app/u);
    const missing = await doctor(["--probe", "orders"], clusterAs("admin"), reader());
    expect(missing.stdout).toMatch(/skipped +probe +nothing to probe: no such schema: app\/orders/u);
  });
});
