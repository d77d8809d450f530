// Proves the lab itself: discovery of every operator kind, the CRDs' shape (scope, short names,
// status subresources, printer columns, immutability CEL), the recommended ClusterRoles as bound
// to the lab identities, the status helpers and the audit log reader. Needs a running lab
// (`npm run lab`); the e2e globalSetup starts it.
import { beforeAll, describe, expect, it } from "vitest";
import { formatAuditEvent, isDryRun, pluginWrites } from "../support/audit.ts";
import {
  API_VERSION,
  LAB_KINDS,
  auditEventsSince,
  auditMark,
  condition,
  createNamespace,
  createObject,
  getObject,
  kubectl,
  labEnv,
  resourceOf,
  sendAsSentinel,
  setStatus,
  type KubeObject,
  type LabKind,
  type LabUser,
} from "../support/lab.ts";

const SHA = (c: string) => `sha256:${c.repeat(64)}`;
const UID = "00000000-0000-4000-8000-000000000001";
const IMAGE = `registry.example/ptah/manager@${SHA("a")}`;

let ns = "";

beforeAll(() => {
  labEnv(); // fails with a clear message when the lab is not running
  ns = createNamespace("lab-e2e");
});

function canI(user: LabUser, verb: string, resource: string, namespace?: string): boolean {
  const [res, sub] = resource.split("/");
  const args = ["auth", "can-i", verb, res ?? resource, ...(sub ? [`--subresource=${sub}`] : [])];
  if (namespace === "*") args.push("--all-namespaces");
  const r = kubectl(args, { as: user, namespace: namespace && namespace !== "*" ? namespace : undefined, check: false });
  expect(r.stdout.trim(), `can-i ${verb} ${resource} as ${user}: ${r.stderr}`).toMatch(/^(yes|no)$/);
  return r.code === 0 && r.stdout.trim() === "yes";
}

function meta(name: string, namespace: string | undefined = ns): KubeObject["metadata"] {
  return namespace ? { name, namespace } : { name };
}

// Minimal valid objects for every kind whose spec is immutable.
function schemaPlan(name: string): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: "PtahSchemaPlan",
    metadata: meta(name),
    spec: {
      contractVersion: 1,
      schemaRef: { name: "s", uid: UID },
      fingerprint: SHA("1"),
      contentDigest: SHA("2"),
      size: 10,
      artifactDigest: SHA("3"),
      coordinationDigest: SHA("4"),
      targetIdentityDigest: SHA("5"),
      actualStateFingerprint: SHA("6"),
      desiredStateFingerprint: SHA("7"),
      policyFingerprint: SHA("8"),
      verificationPolicyUID: UID,
      verificationPolicyDigest: SHA("9"),
      executionBindingID: `v1-${"0".repeat(32)}`,
      controllerImage: IMAGE,
      controllerRevision: "r1",
      controllerStateVersion: 2,
      ptahVersion: "v1.0.0",
      executorImage: "registry.example/ptah/executor:1",
      runnerImage: "registry.example/ptah/runner:1",
      runnerProtocolVersion: 1,
      dialect: "postgres",
      destructive: false,
      statementCount: 1,
      chunks: [{ name: `${name}-000`, index: 0, digest: SHA("a"), size: 10 }],
    },
  };
}

const identity = { username: "lab-approver", groups: ["system:authenticated"] };

const IMMUTABLE: Array<{ kind: LabKind; object: () => KubeObject; patch: Record<string, unknown>; message: string }> = [
  {
    kind: "PtahSchemaPlan",
    object: () => schemaPlan("ptah-plan-immutable"),
    patch: { spec: { statementCount: 2 } },
    message: "a plan is immutable; generate a new plan instead",
  },
  {
    kind: "PtahSchemaPlanChunk",
    object: () => ({ apiVersion: API_VERSION, kind: "PtahSchemaPlanChunk", metadata: meta("chunk-immutable"), spec: { data: "U0VMRUNUIDE7" } }),
    patch: { spec: { data: "U0VMRUNUIDI7" } },
    message: "a plan chunk is immutable; generate a new plan instead",
  },
  {
    kind: "PtahSchemaApproval",
    object: () => ({
      apiVersion: API_VERSION,
      kind: "PtahSchemaApproval",
      metadata: meta("approval-immutable"),
      spec: {
        schemaRef: { name: "s", uid: UID },
        planRef: { name: "p", uid: UID },
        planFingerprint: SHA("1"),
        approver: identity,
        approvedAt: "2026-01-01T00:00:00Z",
        mutationRequestUID: UID,
      },
    }),
    patch: { spec: { planFingerprint: SHA("2") } },
    message: "an approval is immutable; create a new approval instead",
  },
  {
    kind: "PtahMigrationPlan",
    object: () => ({
      apiVersion: API_VERSION,
      kind: "PtahMigrationPlan",
      metadata: meta("mplan-immutable"),
      spec: {
        contractVersion: 1,
        migrationRef: { name: "m", uid: UID },
        fingerprint: SHA("1"),
        migrations: [{ version: 2, checksum: "abc" }],
        historyFingerprint: SHA("2"),
        currentVersion: 1,
      },
    }),
    patch: { spec: { currentVersion: 0 } },
    message: "a plan is immutable; generate a new plan instead",
  },
  {
    kind: "PtahMigrationApproval",
    object: () => ({
      apiVersion: API_VERSION,
      kind: "PtahMigrationApproval",
      metadata: meta("mapproval-immutable"),
      spec: { migrationRef: { name: "m", uid: UID }, planRef: { name: "p", uid: UID }, planFingerprint: SHA("1") },
    }),
    patch: { spec: { planFingerprint: SHA("2") } },
    message: "an approval is immutable; create a new approval instead",
  },
  {
    kind: "PtahMigrationRunAcknowledgment",
    object: () => ({
      apiVersion: API_VERSION,
      kind: "PtahMigrationRunAcknowledgment",
      metadata: meta("ack-immutable"),
      spec: { migrationRef: { name: "m", uid: UID }, operationID: SHA("1") },
    }),
    patch: { spec: { operationID: SHA("2") } },
    message: "an acknowledgment is immutable; create a new acknowledgment instead",
  },
  {
    kind: "PtahResultRecord",
    object: () => ({ apiVersion: API_VERSION, kind: "PtahResultRecord", metadata: meta("record-immutable"), spec: { type: "intent", data: "aGk=" } }),
    patch: { spec: { type: "complete" } },
    message: "a result record is immutable; create a new operation instead",
  },
];

describe("lab control plane", { timeout: 120_000 }, () => {
  it("serves every operator kind in discovery with its short name and scope", () => {
    const out = kubectl(["api-resources", "--api-group=operator.ptah.run", "--no-headers"]).stdout;
    const rows = new Map(
      out
        .trim()
        .split("\n")
        .map((line) => line.trim().split(/\s+/))
        .map((cols) => [cols[0], cols] as const),
    );
    expect(rows.size).toBe(10);
    for (const [kind, info] of Object.entries(LAB_KINDS)) {
      expect(rows.get(info.plural), kind).toEqual([info.plural, info.shortName, API_VERSION, String(info.namespaced), kind]);
    }
  });

  it("declares a status subresource exactly where the contract says", () => {
    for (const [kind, info] of Object.entries(LAB_KINDS)) {
      const crd = JSON.parse(kubectl(["get", "crd", `${info.plural}.operator.ptah.run`, "-o", "json"]).stdout);
      const version = crd.spec.versions[0];
      expect(Boolean(version.subresources?.status), kind).toBe(info.status);
      expect(crd.spec.scope, kind).toBe(info.namespaced ? "Namespaced" : "Cluster");
      expect(crd.status.conditions.find((c: { type: string }) => c.type === "Established")?.status, kind).toBe("True");
    }
  });

  it("binds ptah-viewer and ptah-approver: only the approver may create approvals and acknowledgments", () => {
    for (const resource of ["ptahschemaapprovals", "ptahmigrationapprovals", "ptahmigrationrunacknowledgments"]) {
      expect(canI("viewer", "create", resource, ns), `viewer create ${resource}`).toBe(false);
      expect(canI("approver", "create", resource, ns), `approver create ${resource}`).toBe(true);
      expect(canI("approver", "create", resource, "*"), `approver create ${resource} everywhere`).toBe(true);
      expect(canI("nobody", "create", resource, ns), `nobody create ${resource}`).toBe(false);
    }
    for (const user of ["viewer", "approver"] as const) {
      for (const info of Object.values(LAB_KINDS)) {
        if (info.plural === "ptahresultrecords") continue;
        for (const verb of ["get", "list", "watch"]) {
          expect(canI(user, verb, info.plural, info.namespaced ? "*" : undefined), `${user} ${verb} ${info.plural}`).toBe(true);
        }
        for (const verb of ["update", "patch", "delete"]) {
          expect(canI(user, verb, info.plural, info.namespaced ? ns : undefined), `${user} ${verb} ${info.plural}`).toBe(false);
        }
      }
      expect(canI(user, "list", "events", "*")).toBe(true);
      expect(canI(user, "list", "events.events.k8s.io", "*")).toBe(true);
      expect(canI(user, "get", "ptahresultrecords", ns)).toBe(false);
      expect(canI(user, "list", "ptahresultrecords", "*")).toBe(false);
      expect(canI(user, "get", "secrets", ns)).toBe(false);
      expect(canI(user, "list", "configmaps", ns)).toBe(false);
      expect(canI(user, "update", "ptahschemas/status", ns)).toBe(false);
    }
    expect(canI("nobody", "list", "ptahschemas", ns)).toBe(false);
    expect(canI("admin", "create", "ptahresultrecords", ns)).toBe(true);
  });

  it("answers Forbidden to the viewer for result records and secrets", () => {
    for (const resource of ["ptahresultrecords", "secrets"]) {
      const r = kubectl(["get", resource], { as: "viewer", namespace: ns, check: false });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/Forbidden/);
      expect(r.stderr).toContain('User "lab-viewer" cannot list resource');
    }
    const nobody = kubectl(["get", "ptahschemas"], { as: "nobody", namespace: ns, check: false });
    expect(nobody.stderr).toContain('User "lab-nobody" cannot list resource "ptahschemas"');
    expect(kubectl(["get", "ptahschemas", "-A"], { as: "viewer" }).code).toBe(0);
  });

  it.each(IMMUTABLE.map((c) => [c.kind, c] as const))("refuses a spec update of a %s with the contract's CEL message", (_kind, c) => {
    const created = createObject(c.object());
    const r = kubectl(["patch", resourceOf(c.kind), created.metadata.name, "--type=merge", "-p", JSON.stringify(c.patch)], { namespace: ns, check: false });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(c.message);
    // metadata-only updates stay possible
    const labelled = kubectl(["label", resourceOf(c.kind), created.metadata.name, "lab-e2e=yes"], { namespace: ns, check: false });
    expect(labelled.stderr).toBe("");
  });

  it("refuses a change of a realm's engine but allows other spec changes", () => {
    const name = `realm-${ns}`;
    createObject({
      apiVersion: API_VERSION,
      kind: "PtahRealm",
      metadata: { name },
      spec: { engine: "PostgreSQL", namespaces: [ns], sharing: "Shared" },
    });
    const engine = kubectl(["patch", resourceOf("PtahRealm"), name, "--type=merge", "-p", '{"spec":{"engine":"MySQL"}}'], { check: false });
    expect(engine.stderr).toContain("engine is immutable; a realm is one physical database");
    kubectl(["patch", resourceOf("PtahRealm"), name, "--type=merge", "-p", '{"spec":{"sharing":"Exclusive"}}']);
    expect(getObject("PtahRealm", name)?.spec?.sharing).toBe("Exclusive");
  });

  it("enforces the PtahSchema name limit and the target rules", () => {
    const schema = (name: string, target: Record<string, unknown>): KubeObject => ({
      apiVersion: API_VERSION,
      kind: "PtahSchema",
      metadata: meta(name),
      spec: {
        target,
        desired: { ociRef: "oci://registry.example/app/schema:1", verificationPolicyFrom: { name: "policy", key: "policy.yaml" } },
      },
    });
    const long = kubectl(["create", "-f", "-"], {
      input: JSON.stringify(schema("s".repeat(64), { engine: "PostgreSQL", coordinationKey: "db", urlFrom: { name: "db", key: "url" } })),
      check: false,
    });
    expect(long.stderr).toContain("metadata.name must be at most 63 bytes");
    const both = kubectl(["create", "-f", "-"], {
      input: JSON.stringify(schema("both", { engine: "PostgreSQL", coordinationKey: "db", realmRef: { name: "r" }, urlFrom: { name: "db", key: "url" } })),
      check: false,
    });
    expect(both.stderr).toContain("set exactly one of coordinationKey and realmRef");
  });

  it("writes status through the status subresource and shows it in the printer columns", () => {
    const schema = createObject({
      apiVersion: API_VERSION,
      kind: "PtahSchema",
      metadata: meta("orders"),
      spec: {
        target: { engine: "PostgreSQL", coordinationKey: "orders-db", urlFrom: { name: "orders-db", key: "url" } },
        desired: { ociRef: "oci://registry.example/orders/schema:1", verificationPolicyFrom: { name: "policy", key: "policy.yaml" } },
      },
      status: {
        phase: "AwaitingApproval",
        source: { digest: SHA("d") },
        conditions: [
          condition("DriftDetected", "True", "ScopedChanges", "changes"),
          condition("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint"),
          condition("Ready", "False", "AwaitingApproval", "The current plan requires a new approval"),
        ],
      },
    });
    expect(schema.status?.phase).toBe("AwaitingApproval");
    expect(schema.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    // defaults from the CRD are applied like on a real cluster
    expect((schema.spec?.policy as Record<string, unknown>).apply).toBe("OnApproval");

    const table = kubectl(["get", "ptahschemas", "orders", "-o", "wide"], { as: "viewer", namespace: ns }).stdout;
    const [head, row] = table.trim().split("\n");
    expect(head?.split(/\s{2,}/)).toEqual(["NAME", "PHASE", "DIGEST", "DRIFT", "APPROVAL", "IN SYNC", "READY", "AGE"]);
    expect(row).toMatch(new RegExp(`^orders\\s+AwaitingApproval\\s+${SHA("d")}\\s+True\\s+True\\s+False\\s+\\d+s$`));

    const updated = setStatus(schema, { phase: "InSync", conditions: [condition("Ready", "True", "InSync", "in sync")] });
    expect(updated.status?.phase).toBe("InSync");
    expect((updated.status?.conditions as unknown[]).length).toBe(1);

    // a status-less kind has no status endpoint
    const chunk = createObject({ apiVersion: API_VERSION, kind: "PtahSchemaPlanChunk", metadata: meta("chunk-status"), spec: { data: "eA==" } });
    const r = kubectl(["patch", resourceOf("PtahSchemaPlanChunk"), chunk.metadata.name, "--subresource=status", "--type=merge", "-p", '{"status":{}}'], {
      namespace: ns,
      check: false,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/NotFound|not found/);
  });

  it("records plugin requests in the audit log and flags every non-read", async () => {
    const mark = auditMark();
    const call = sendAsSentinel;
    const base = `/apis/operator.ptah.run/v1alpha1/namespaces/${ns}`;
    expect(await call("GET", `${base}/ptahschemas`)).toBe(200);
    // the approval lacks the fields the operator's webhook would stamp: refused, but logged
    await call("POST", `${base}/ptahschemaapprovals?dryRun=All`, {
      apiVersion: API_VERSION,
      kind: "PtahSchemaApproval",
      metadata: { name: "dry" },
      spec: { schemaRef: { name: "s", uid: UID }, planRef: { name: "p", uid: UID }, planFingerprint: SHA("1") },
    });
    expect(await call("DELETE", `${base}/ptahschemaapprovals/does-not-exist`)).toBe(403);

    const events = auditEventsSince(mark).filter((e) => e.userAgent?.startsWith("kubectl-ptah/0.0.0-e2e"));
    expect(events.map((e) => e.verb)).toEqual(["list", "create", "delete"]);
    expect(events[1] && isDryRun(events[1])).toBe(true);
    expect(events.every((e) => e.user.username === "lab-sentinel")).toBe(true);

    const strict = pluginWrites(events);
    expect(
      strict.map((e) => e.verb),
      strict.map(formatAuditEvent).join("\n"),
    ).toEqual(["create", "delete"]);
    const lenient = pluginWrites(events, { allowDryRunCreate: true });
    expect(lenient.map((e) => e.verb)).toEqual(["delete"]);
    expect(formatAuditEvent(lenient[0]!)).toContain("user=lab-sentinel");
  });
});
