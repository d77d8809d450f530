// Real refusals, as the real kubectl prints them on the lab, fed to `kubectl ptah explain -`: the
// simulator's approval webhook (a missing schema reference; a plan that does not exist, NotFound),
// the apply-policy guard (a real ValidatingAdmissionPolicy, kubectl's "is invalid: :" form), and
// the manager-state guard's two messages, rendered here as real ValidatingAdmissionPolicies with
// upstream's messages and bound only in this test's namespace. The lines are kubectl's stderr,
// byte for byte; explain is run through kubectl as a plugin, reading them on standard input.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createNamespace, createObject, kubectl, uniqueName, type KubeObject } from "../support/lab.ts";
import { migrationManifest, pluginEnv } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const STATUS_MESSAGE = "Ptah status is written only by the operator's manager; settle an unresolved migration run with a PtahMigrationRunAcknowledgment";
const ANNOTATION_MESSAGE =
  "The operator.ptah.run/unresolved-run annotation is the manager's copy of an unresolved run; only the manager changes it, and a PtahMigrationRunAcknowledgment is how a person settles the run";
const ANNOTATION = "operator.ptah.run/unresolved-run";
const GUARD_LABEL = "lab.ptah.run/manager-state-guard";

/** `kubectl ptah explain -o FORMAT -` with `stderr` of a refused kubectl on its standard input. */
function explain(stderr: string, output: "name" | "json" | "text" = "name"): { status: number; stdout: string; stderr: string } {
  const args = ["ptah", "explain", "-", ...(output === "text" ? [] : ["-o", output])];
  const r = spawnSync("kubectl", args, { input: stderr, encoding: "utf8", env: pluginEnv("viewer"), timeout: 60_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** What kubectl printed when admission refused `args` (it must be refused). */
function refused(args: readonly string[], opts: { namespace: string; input?: string }): string {
  const r = kubectl(args, { ...opts, check: false });
  expect(r.code, r.stdout).not.toBe(0);
  return r.stderr;
}

function approval(namespace: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaApproval", metadata: { name: uniqueName("paste"), namespace }, spec });
}

/** The manager-state guard as upstream's chart describes it, bound where GUARD_LABEL=enabled. */
function managerStateGuard(name: string): string {
  const annotation = (o: string) => `(has(${o}.metadata.annotations) && '${ANNOTATION}' in ${o}.metadata.annotations ? ${o}.metadata.annotations['${ANNOTATION}'] : '')`;
  const policy = (suffix: string, resources: string, expression: string, message: string) => [
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name: `${name}-${suffix}`, labels: { "app.kubernetes.io/component": "manager-state-guard" } },
      spec: {
        failurePolicy: "Fail",
        matchConstraints: { resourceRules: [{ apiGroups: ["operator.ptah.run"], apiVersions: ["*"], operations: ["UPDATE"], resources: [resources] }] },
        validations: [{ expression, message }],
      },
    },
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicyBinding",
      metadata: { name: `${name}-${suffix}` },
      spec: { policyName: `${name}-${suffix}`, validationActions: ["Deny"], matchResources: { namespaceSelector: { matchLabels: { [GUARD_LABEL]: "enabled" } } } },
    },
  ];
  const manager = "request.userInfo.username == 'system:serviceaccount:ptah-system:ptah-operator'";
  return JSON.stringify({
    apiVersion: "v1",
    kind: "List",
    items: [
      ...policy("status", "ptahmigrations/status", manager, STATUS_MESSAGE),
      ...policy("annotation", "ptahmigrations", `${manager} || ${annotation("object")} == ${annotation("oldObject")}`, ANNOTATION_MESSAGE),
    ],
  });
}

/** A policy binding takes effect a moment after it is created: retry until kubectl is refused. */
async function refusedWhenBound(args: readonly string[], namespace: string): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const r = kubectl(args, { namespace, check: false });
    if (r.code !== 0) return r.stderr;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`kubectl ${args.join(" ")} was never refused`);
}

describe.skipIf(skip)("explain reads real refusals from kubectl's stderr", { timeout: 180_000 }, () => {
  it("the approval webhook's refusals, Forbidden and NotFound", () => {
    const ns = createNamespace("paste");
    kubectl(["label", "namespace", ns, "lab.ptah.run/operator-simulator=enabled"]);
    const fingerprint = `sha256:${"0".repeat(64)}`;
    const missing = refused(["create", "-f", "-"], { namespace: ns, input: approval(ns, { planFingerprint: fingerprint }) });
    expect(missing).toMatch(/^Error from server \(Forbidden\): error when creating "STDIN": admission webhook "[^"]+" denied the request: /u);
    expect(explain(missing)).toMatchObject({ status: 0, stdout: "concept/approval-refused\n", stderr: "" });

    const plan = uniqueName("ptah-plan");
    const notFound = refused(["create", "-f", "-"], {
      namespace: ns,
      input: approval(ns, { schemaRef: { name: "storefront", uid: "u-1" }, planRef: { name: plan, uid: "u-2" }, planFingerprint: fingerprint }),
    });
    expect(notFound).toMatch(/^Error from server \(NotFound\): /u);
    const r = explain(notFound, "json");
    expect(r.status, r.stderr).toBe(0);
    const [answer] = JSON.parse(r.stdout) as { topic: string; slots: { detail: string }; cause: string }[];
    expect(answer!.topic).toBe("concept/approval-refused");
    expect(answer!.slots.detail).toContain(plan);
    expect(answer!.cause).toContain(plan);
  });

  it("the apply-policy guard's refusal of a create, in the policy's form", () => {
    const ns = createNamespace("paste-guard");
    kubectl(["label", "namespace", ns, "lab.ptah.run/apply-policy-guard=enabled"]);
    kubectl(["create", "role", "writer", "--verb=create", "--resource=ptahschemas.operator.ptah.run"], { namespace: ns });
    kubectl(["create", "rolebinding", "writer", "--role=writer", "--user=paste-author"], { namespace: ns });
    const schema = {
      apiVersion: "operator.ptah.run/v1alpha1",
      kind: "PtahSchema",
      metadata: { name: "always", namespace: ns },
      spec: {
        target: { engine: "PostgreSQL", coordinationKey: "shop", urlFrom: { name: "db", key: "url" } },
        desired: { ociRef: "oci://registry.lab/schemas/demo:v1", verificationPolicyFrom: { name: "policy", key: "policy.json" } },
        policy: { apply: "Always" },
      },
    };
    const line = refused(["create", "--as=paste-author", "-f", "-"], { namespace: ns, input: JSON.stringify(schema) });
    expect(line).toContain("ValidatingAdmissionPolicy 'ptah-apply-policy-guard' with binding");
    const r = explain(line, "text");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^apply-policy-guard \(refused by ValidatingAdmissionPolicy ptah-apply-policy-guard\)\n/u);
    expect(r.stdout).toContain("Object:      ptahschemas always\n");
  });

  it("the manager-state guard's two messages, for a status write and the unresolved-run annotation", async () => {
    const ns = createNamespace("paste-state");
    const name = uniqueName("ptah-manager-state-guard");
    kubectl(["apply", "-f", "-"], { namespace: ns, input: managerStateGuard(name) });
    try {
      kubectl(["label", "namespace", ns, `${GUARD_LABEL}=enabled`]);
      const migration = createObject(migrationManifest(ns, "billing") as KubeObject);
      const status = await refusedWhenBound(["patch", "ptahmigration", migration.metadata.name, "--subresource=status", "--type=merge", "-p", '{"status":{"phase":"InSync"}}'], ns);
      const annotation = await refusedWhenBound(["annotate", "ptahmigration", migration.metadata.name, `${ANNOTATION}={}`], ns);
      const both = explain(`${status}${annotation}`);
      expect(both).toMatchObject({ status: 0, stdout: "concept/manager-only-status\nconcept/manager-only-status\n", stderr: "" });
      const text = explain(annotation, "text");
      expect(text.stdout).toContain(`kubectl ptah acknowledge billing | kubectl create -f -`);
    } finally {
      kubectl(["delete", "validatingadmissionpolicybinding,validatingadmissionpolicy", `${name}-status`, `${name}-annotation`, "--ignore-not-found"], { check: false });
    }
  });
});
