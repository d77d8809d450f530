// The read-only verdict (test/support/audit.ts) as a table: which plugin requests it passes,
// which it names, and the floor. test/e2e/read-only-proof.e2e.test.ts proves the same on the
// lab's real audit log.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FORBIDDEN_READ_RESOURCES, parseAuditLog, readOnlyVerdict, readOnlyViolation, verdictFailures, type AuditEvent } from "./audit.ts";
import { ALLOWED_READS, NON_RESOURCE_PATHS } from "./wire-allowlist.ts";

let n = 0;
function ev(verb: string, uri: string, ref: AuditEvent["objectRef"], userAgent = "kubectl-ptah/0.1.0 (linux/amd64)"): AuditEvent {
  n++;
  return {
    level: "Metadata",
    auditID: `id-${n}`,
    stage: "ResponseComplete",
    requestURI: uri,
    verb,
    user: { username: "lab-viewer", groups: ["ptah:plugin-under-test", "system:authenticated"] },
    userAgent,
    objectRef: ref,
  };
}
const ptah = (resource: string, extra: Partial<NonNullable<AuditEvent["objectRef"]>> = {}) => ({
  apiGroup: "operator.ptah.run",
  apiVersion: "v1alpha1",
  namespace: "ns",
  resource,
  ...extra,
});
const P = "/apis/operator.ptah.run/v1alpha1/namespaces/ns";

describe("readOnlyViolation", () => {
  it.each([
    ["get", `${P}/ptahschemas/s`, ptah("ptahschemas", { name: "s" })],
    ["list", `${P}/ptahschemaplans?limit=500`, ptah("ptahschemaplans")],
    ["watch", `${P}/ptahschemas?watch=true`, ptah("ptahschemas")],
    ["list", "/api/v1/namespaces/ns/events", { apiVersion: "v1", namespace: "ns", resource: "events" }],
    ["watch", "/api/v1/namespaces/ns/events?watch=true", { apiVersion: "v1", namespace: "ns", resource: "events" }],
    ["list", `/apis/operator.ptah.run/v1alpha1/ptahmigrationrunacknowledgments?limit=500`, ptah("ptahmigrationrunacknowledgments", { namespace: undefined })],
    ["get", `${P}/ptahschemaplanchunks/c`, ptah("ptahschemaplanchunks", { name: "c" })],
    // older installs' plan chunks
    ["get", "/api/v1/namespaces/ns/configmaps/chunk-0", { apiVersion: "v1", namespace: "ns", resource: "configmaps", name: "chunk-0" }],
    // doctor
    [
      "get",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahschemas.operator.ptah.run",
      { apiGroup: "apiextensions.k8s.io", apiVersion: "v1", resource: "customresourcedefinitions" },
    ],
    [
      "list",
      "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations?limit=500",
      { apiGroup: "admissionregistration.k8s.io", apiVersion: "v1", resource: "mutatingwebhookconfigurations" },
    ],
    [
      "list",
      "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations?limit=500",
      { apiGroup: "admissionregistration.k8s.io", apiVersion: "v1", resource: "validatingwebhookconfigurations" },
    ],
    // non-resource: version, doctor; kubectl's own GET /version before it runs a plugin
    ["get", "/version", undefined],
    ["get", "/version?timeout=5s", undefined],
    ["get", "/apis/operator.ptah.run/v1alpha1", undefined],
    ["create", `${P}/ptahschemaapprovals?dryRun=All`, ptah("ptahschemaapprovals")],
    ["create", `${P}/ptahmigrationapprovals?dryRun=All`, ptah("ptahmigrationapprovals")],
    ["create", `${P}/ptahmigrationrunacknowledgments?dryRun=All&fieldManager=x`, ptah("ptahmigrationrunacknowledgments")],
    ["create", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", { apiGroup: "authorization.k8s.io", apiVersion: "v1", resource: "selfsubjectaccessreviews" }],
    // Who am I (four-eyes)
    ["create", "/apis/authentication.k8s.io/v1/selfsubjectreviews", { apiGroup: "authentication.k8s.io", apiVersion: "v1", resource: "selfsubjectreviews" }],
  ])("passes %s %s", (verb, uri, ref) => {
    expect(readOnlyViolation(ev(verb, uri, ref))).toBeUndefined();
  });

  it.each([
    ["patch", `${P}/ptahschemas/s`, ptah("ptahschemas", { name: "s" }), "a patch of ptahschemas"],
    ["update", `${P}/ptahschemas/s/status`, ptah("ptahschemas", { name: "s", subresource: "status" }), "a update of ptahschemas/status"],
    ["delete", `${P}/ptahschemaapprovals/a`, ptah("ptahschemaapprovals", { name: "a" }), "a delete of ptahschemaapprovals"],
    ["deletecollection", `${P}/ptahschemaapprovals`, ptah("ptahschemaapprovals"), "a deletecollection of ptahschemaapprovals"],
    ["create", `${P}/ptahschemaapprovals`, ptah("ptahschemaapprovals"), "a create of ptahschemaapprovals without dryRun=All"],
    ["create", `${P}/ptahschemaapprovals?dryRun=Nope`, ptah("ptahschemaapprovals"), "a create of ptahschemaapprovals without dryRun=All"],
    ["create", `${P}/ptahschemas?dryRun=All`, ptah("ptahschemas"), "a dry-run create of ptahschemas, which is not an approval kind"],
    ["create", "/api/v1/namespaces/ns/configmaps?dryRun=All", { apiVersion: "v1", namespace: "ns", resource: "configmaps" }, "a dry-run create of configmaps"],
    [
      "create",
      `${P}/ptahschemaapprovals?dryRun=All`,
      { apiGroup: "other.example", apiVersion: "v1", resource: "ptahschemaapprovals" },
      "a dry-run create of ptahschemaapprovals, which is not an approval kind",
    ],
    [
      "create",
      "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
      { apiGroup: "authorization.k8s.io", apiVersion: "v1", resource: "selfsubjectrulesreviews" },
      "a create of selfsubjectrulesreviews",
    ],
    [
      "create",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      { apiGroup: "authorization.k8s.io", apiVersion: "v1", resource: "subjectaccessreviews" },
      "a create of subjectaccessreviews",
    ],
    ["create", "/apis/authentication.k8s.io/v1/tokenreviews", { apiGroup: "authentication.k8s.io", apiVersion: "v1", resource: "tokenreviews" }, "a create of tokenreviews"],
    [
      "create",
      "/api/v1/namespaces/ns/serviceaccounts/default/token",
      { apiVersion: "v1", namespace: "ns", resource: "serviceaccounts", subresource: "token" },
      "a create of serviceaccounts/token",
    ],
    ["get", "/api/v1/namespaces/ns/secrets/db", { apiVersion: "v1", namespace: "ns", resource: "secrets", name: "db" }, "a get of secrets"],
    ["list", `${P}/ptahresultrecords`, ptah("ptahresultrecords"), "a list of ptahresultrecords"],
    ["watch", "/api/v1/secrets?watch=true", { apiVersion: "v1", resource: "secrets" }, "a watch of secrets"],
    // reads by verb that reach a workload: a closed allowlist names each
    ["get", "/api/v1/namespaces/x/services/y/proxy/z", { apiVersion: "v1", namespace: "x", resource: "services", name: "y", subresource: "proxy" }, "a get of services/proxy"],
    ["get", "/api/v1/nodes/n/proxy/configz", { apiVersion: "v1", resource: "nodes", name: "n", subresource: "proxy" }, "a get of nodes/proxy"],
    ["get", "/api/v1/namespaces/x/pods/p/exec?command=sh", { apiVersion: "v1", namespace: "x", resource: "pods", name: "p", subresource: "exec" }, "a get of pods/exec"],
    ["create", "/api/v1/namespaces/x/pods/p/exec?command=sh", { apiVersion: "v1", namespace: "x", resource: "pods", name: "p", subresource: "exec" }, "a create of pods/exec"],
    ["get", "/api/v1/namespaces/x/pods/p/attach", { apiVersion: "v1", namespace: "x", resource: "pods", name: "p", subresource: "attach" }, "a get of pods/attach"],
    ["get", "/api/v1/namespaces/x/pods/p/portforward", { apiVersion: "v1", namespace: "x", resource: "pods", name: "p", subresource: "portforward" }, "a get of pods/portforward"],
    ["get", "/api/v1/namespaces/x/pods/p/log", { apiVersion: "v1", namespace: "x", resource: "pods", name: "p", subresource: "log" }, "a get of pods/log"],
    [
      "list",
      "/apis/apps/v1/namespaces/x/deployments",
      { apiGroup: "apps", apiVersion: "v1", namespace: "x", resource: "deployments" },
      "a list of deployments (apps): the plugin sends only get of it",
    ],
    [
      "get",
      `${P}/ptahschemas/s/status`,
      ptah("ptahschemas", { name: "s", subresource: "status" }),
      "a get of ptahschemas/status (operator.ptah.run): the plugin reads no subresource",
    ],
    [
      "list",
      "/apis/operator.ptah.run/v1alpha1/ptahrealms",
      ptah("ptahrealms", { namespace: undefined }),
      "a list of ptahrealms (operator.ptah.run): the plugin sends only get of it",
    ],
    [
      "list",
      "/apis/events.k8s.io/v1/namespaces/ns/events",
      { apiGroup: "events.k8s.io", apiVersion: "v1", namespace: "ns", resource: "events" },
      "a list of events (events.k8s.io): not a resource",
    ],
    [
      "get",
      "/apis/other.example/v1/namespaces/ns/ptahschemas/s",
      { apiGroup: "other.example", apiVersion: "v1", namespace: "ns", resource: "ptahschemas" },
      "a get of ptahschemas (other.example)",
    ],
    [
      "list",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      { apiGroup: "apiextensions.k8s.io", apiVersion: "v1", resource: "customresourcedefinitions" },
      "the plugin sends only get of it",
    ],
    ["get", "/metrics", undefined, "a get of the non-resource URL /metrics, which the plugin does not send"],
    ["get", "/logs/kube-apiserver.log", undefined, "a get of the non-resource URL /logs/kube-apiserver.log"],
    ["get", "/api", undefined, "a get of the non-resource URL /api,"],
    ["get", "/apis/apps/v1", undefined, "a get of the non-resource URL /apis/apps/v1,"],
    ["get", "/version?other=1", undefined, "a get of the non-resource URL /version with other"],
    ["post", "/version", undefined, "a post of the non-resource URL /version"],
  ])("names %s %s", (verb, uri, ref, why) => {
    expect(readOnlyViolation(ev(verb, uri, ref))).toContain(why);
  });
});

describe("the allowlist (test/support/wire-allowlist.ts)", () => {
  it("reads none of the forbidden resources, and no subresource", () => {
    expect(ALLOWED_READS.filter((r) => FORBIDDEN_READ_RESOURCES.has(r.resource))).toEqual([]);
    expect(ALLOWED_READS.filter((r) => r.resource.includes("/"))).toEqual([]);
  });

  // Every path the code asks the transport to GET (or stream), by its text: a new one fails here
  // until the allowlist has been checked for it and this list extended.
  it("covers every GET the code builds", () => {
    const SRC = path.resolve(import.meta.dirname, "..", "..", "src");
    const files = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]));
    const calls: string[] = [];
    for (const f of files(SRC).filter((x) => x.endsWith(".ts"))) {
      const visit = (n: ts.Node): void => {
        if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ["get", "stream", "discoverGroup"].includes(n.expression.name.text)) {
          const on = n.expression.expression.getText();
          if (/transport$/iu.test(on) || n.expression.name.text === "discoverGroup") {
            calls.push(`${path.relative(SRC, f).split(path.sep).join("/")} ${n.expression.name.text} ${n.arguments[0]!.getText().split("\n")[0]!.trim()}`);
          }
        }
        n.forEachChild(visit);
      };
      visit(ts.createSourceFile(f, fs.readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true));
    }
    expect(calls.sort()).toEqual(
      [
        "commands/doctor/doctor-command.ts discoverGroup PTAH_API_VERSION", // NON_RESOURCE_PATHS /apis/operator.ptah.run/v1alpha1
        'kube/inspect.ts get "/version"', // NON_RESOURCE_PATHS
        "kube/inspect.ts get `/apis/${groupVersion}`", // discoverGroup's argument, above
        "kube/inspect.ts get `${CRD_PATH}/${encodeURIComponent(name)}`", // ALLOWED_READS get (CRD_PATH: kube/request-guard.ts)
        "kube/inspect.ts get `${WEBHOOK_PATH}/${plural}?${q.toString()}`", // ALLOWED_READS list, both webhook kinds (WEBHOOK_PATH: kube/request-guard.ts)
        "kube/admission-reads.ts get `${WEBHOOK_PATH}/mutatingwebhookconfigurations/${name}`", // ALLOWED_READS get, ptah-operator-admission only
        "kube/admission-reads.ts get `${path}?${q.toString()}`", // ALLOWED_READS list: the guard's policies and bindings, a namespace's leases
        "kube/admission-reads.ts get `${DEPLOYMENT_PATH}/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}`", // ALLOWED_READS get, the manager Deployment
        "kube/realm-read.ts get `${REALM_PATH}/${encodeURIComponent(name)}`", // ALLOWED_READS get, one PtahRealm by name
        "kube/reader.ts get `${basePath(info, namespace)}/${encodeURIComponent(name)}`", // KINDS, get
        "kube/reader.ts get basePath(info, options.namespace) +", // KINDS, list
        "kube/reader.ts stream basePath(info, options.namespace) +", // KINDS, watch
        'kube/reader.ts get "/version"', // NON_RESOURCE_PATHS
        "kube/reader.ts get `/apis/${group}/${KINDS.PtahSchema.version}`", // NON_RESOURCE_PATHS /apis/operator.ptah.run/v1alpha1
      ].sort(),
    );
    expect([...NON_RESOURCE_PATHS].sort()).toEqual(["/apis/operator.ptah.run/v1alpha1", "/version"]);
  });
});

describe("readOnlyVerdict", () => {
  const reads = Array.from({ length: 5 }, () => ev("get", `${P}/ptahschemas/s`, ptah("ptahschemas")));

  it("judges the plugin's identities whatever the agent, and the plugin's agent whoever sent it; the sentinel left out", () => {
    const as = (e: AuditEvent, username: string, groups: string[]): AuditEvent => ({ ...e, user: { username, groups } });
    const plugin = (e: AuditEvent) => as(e, "lab-viewer", ["ptah:plugin-under-test", "system:authenticated"]);
    const patch = plugin(ev("patch", `${P}/ptahschemas/s`, ptah("ptahschemas")));
    const spawned = plugin(ev("delete", `${P}/ptahschemas/s`, ptah("ptahschemas"), "kubectl/v1.33.0 (linux/amd64)"));
    const fetched = plugin(ev("patch", `${P}/ptahschemas/s`, ptah("ptahschemas"), "node"));
    const anonymous = as(ev("delete", `${P}/ptahschemas/s`, ptah("ptahschemas"), "curl/8"), "system:anonymous", ["system:unauthenticated"]);
    const sentinel = as(ev("patch", `${P}/ptahschemas/t`, ptah("ptahschemas"), "kubectl-ptah/0.0.0-e2e (linux/amd64)"), "lab-sentinel", ["ptah:plugin-under-test"]);
    const person = as(ev("patch", `${P}/ptahschemas/u`, ptah("ptahschemas"), "kubectl/v1.32.0 (linux/amd64)"), "lab-approver", ["system:authenticated"]);
    const v = readOnlyVerdict([...reads.map(plugin), patch, spawned, fetched, anonymous, sentinel, person]);
    expect(v.requests).toHaveLength(9);
    expect(v.byAgent).toBe(6);
    expect(verdictFailures(v)).toEqual([
      `read-only proof: forbidden plugin request (a patch of ptahschemas): patch ${P}/ptahschemas/s user=lab-viewer ua=kubectl-ptah/0.1.0 (linux/amd64)`,
      `read-only proof: forbidden plugin request (a delete of ptahschemas): delete ${P}/ptahschemas/s user=lab-viewer ua=kubectl/v1.33.0 (linux/amd64)`,
      `read-only proof: forbidden plugin request (a patch of ptahschemas): patch ${P}/ptahschemas/s user=lab-viewer ua=node`,
      `read-only proof: forbidden plugin request (a delete of ptahschemas): delete ${P}/ptahschemas/s user=system:anonymous ua=curl/8`,
    ]);
    expect(readOnlyVerdict([sentinel], { exemptUser: null }).offending).toHaveLength(1);
  });

  it("names a plugin user agent from an identity not reserved for the plugin: the tier ran it as a person", () => {
    const v = readOnlyVerdict(reads.map((e) => ({ ...e, user: { username: "u", groups: ["system:authenticated"] } })));
    expect(v.offending).toEqual([]);
    expect(verdictFailures(v)).toEqual([
      `read-only proof: 5 requests with the plugin's user agent came from identities not reserved for it (the tier ran the plugin as a person), e.g. get ${P}/ptahschemas/s user=u ua=kubectl-ptah/0.1.0 (linux/amd64)`,
    ]);
  });

  it("fails a run that sent fewer plugin requests than the floor, and passes one that sent enough", () => {
    expect(verdictFailures(readOnlyVerdict(reads, { floor: 6 }))).toEqual([
      "read-only proof: the plugin sent 5 requests, fewer than the 6 the end-to-end tier is known to send: the tier did not exercise the plugin",
    ]);
    expect(verdictFailures(readOnlyVerdict(reads, { floor: 5 }))).toEqual([]);
    expect(verdictFailures(readOnlyVerdict([], { floor: 1 }))).toHaveLength(1);
  });

  it("reads one event per request from the log's stages", () => {
    const line = (stage: string) => JSON.stringify({ ...ev("create", `${P}/ptahschemaapprovals?dryRun=All`, ptah("ptahschemaapprovals")), auditID: "same", stage });
    const events = parseAuditLog(`${line("RequestReceived")}\n${line("ResponseComplete")}\n{"partial`);
    expect(events.map((e) => e.stage)).toEqual(["ResponseComplete"]);
    expect(readOnlyVerdict(events).dryRunCreates).toBe(1);
  });
});
