// doctor's reads in the kube layer over a stub transport: the access review's request and its
// answer (the reader's one reviewAccess, which the inspector delegates to), /version with its Date header, discovery (404 = not served), CRD annotations and the
// webhook configurations' targets; cluster strings sanitised.
import { describe, expect, it } from "vitest";
import type { CreateRequest, HttpResponse, Transport } from "../../src/kube/http.ts";
import { HttpClusterInspector } from "../../src/kube/inspect.ts";
import { HttpClusterReader } from "../../src/kube/reader.ts";

interface Seen {
  readonly path: string;
  readonly method: string;
  readonly body: unknown;
}

function stub(answer: (path: string, body: unknown) => { status?: number; body: unknown; headers?: Record<string, string> }): { transport: Transport; seen: Seen[] } {
  const seen: Seen[] = [];
  const respond = (path: string, method: string, body: unknown): HttpResponse => {
    seen.push({ path, method, body });
    const a = answer(path, body);
    return { status: a.status ?? 200, headers: a.headers ?? {}, body: Buffer.from(typeof a.body === "string" ? a.body : JSON.stringify(a.body)) };
  };
  // The transport's two request methods: get, and the closed create (here: the review's kind stands for its path).
  const transport = {
    get: async (path: string): Promise<HttpResponse> => respond(path, "GET", undefined),
    create: async (request: CreateRequest): Promise<HttpResponse> => respond(`create ${request.kind}`, "POST", request.body),
  } as unknown as Transport;
  return { transport, seen };
}

function inspectorOver(transport: Transport): HttpClusterInspector {
  return new HttpClusterInspector(transport, new HttpClusterReader(transport));
}

describe("reviewAccess", () => {
  it("sends one SelfSubjectAccessReview per check and returns the answers in order", async () => {
    const { transport, seen } = stub((_p, body) => {
      const verb = (body as { spec: { resourceAttributes: { verb: string } } }).spec.resourceAttributes.verb;
      return { status: 201, body: { status: { allowed: verb === "get", reason: verb === "get" ? 'RBAC: allowed by ClusterRoleBinding "x"' : undefined } } };
    });
    const answers = await inspectorOver(transport).reviewAccess([
      { verb: "get", group: "operator.ptah.run", resource: "ptahschemas", namespace: "app" },
      { verb: "create", group: "operator.ptah.run", resource: "ptahschemaapprovals", namespace: "app" },
    ]);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST create SelfSubjectAccessReview", "POST create SelfSubjectAccessReview"]);
    expect(seen[1]!.body).toEqual({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "create", group: "operator.ptah.run", resource: "ptahschemaapprovals", namespace: "app" } },
    });
    expect(answers.map((a) => a.allowed)).toEqual([true, false]);
    expect(answers[0]!.reason).toBe('RBAC: allowed by ClusterRoleBinding "x"');
  });

  it("turns a refused review into a ReadError with the status", async () => {
    const { transport } = stub(() => ({ status: 403, body: { kind: "Status", message: "forbidden: nope" } }));
    await expect(inspectorOver(transport).reviewAccess([{ verb: "get", group: "", resource: "events", namespace: "app" }])).rejects.toMatchObject({ httpStatus: 403 });
  });
});

describe("HttpClusterInspector", () => {
  it("reads /version with the Date header and a vendor minor such as 32+", async () => {
    const { transport } = stub(() => ({ body: { gitVersion: "v1.32.4-gke.1", major: "1", minor: "32+" }, headers: { date: "Mon, 30 Nov 2026 12:00:01 GMT" } }));
    expect(await inspectorOver(transport).serverVersion()).toEqual({ gitVersion: "v1.32.4-gke.1", major: 1, minor: 32, date: "Mon, 30 Nov 2026 12:00:01 GMT" });
  });

  it("reports a 404 group as not served, and lists kinds without subresources", async () => {
    const missing = stub(() => ({ status: 404, body: "404 page not found" }));
    expect(await inspectorOver(missing.transport).discoverGroup("operator.ptah.run/v1alpha1")).toEqual({ served: false, kinds: [] });
    const served = stub(() => ({
      body: {
        resources: [
          { name: "ptahschemas", kind: "PtahSchema" },
          { name: "ptahschemas/status", kind: "PtahSchema" },
          { name: "ptahrealms", kind: "PtahRealm\u001b[31m" },
        ],
      },
    }));
    expect((await inspectorOver(served.transport).discoverGroup("operator.ptah.run/v1alpha1")).kinds).toEqual(["PtahRealm^[[31m", "PtahSchema"]);
  });

  it("gets a CRD's annotations by name; a 404 is a CRD not found", async () => {
    const { transport, seen } = stub((p) =>
      p.endsWith("/ptahschemas.operator.ptah.run")
        ? { body: { metadata: { annotations: { "operator.ptah.run/crd-schema-version": "1" } } } }
        : { status: 404, body: { kind: "Status", message: "not found" } },
    );
    const inspector = inspectorOver(transport);
    expect(await inspector.getCrd("ptahschemas.operator.ptah.run")).toEqual({
      name: "ptahschemas.operator.ptah.run",
      found: true,
      annotations: { "operator.ptah.run/crd-schema-version": "1" },
    });
    expect((await inspector.getCrd("ptahmigrations.operator.ptah.run")).found).toBe(false);
    expect(seen[0]!.path).toBe("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahschemas.operator.ptah.run");
  });

  it("lists webhook configurations with each webhook's service or URL and rules, following continue", async () => {
    const pages = [
      {
        metadata: { continue: "2" },
        items: [
          {
            metadata: { name: "ptah" },
            webhooks: [
              {
                name: "m.a",
                clientConfig: { service: { namespace: "ptah-system", name: "hook", port: 443, path: "/mutate" } },
                rules: [{ apiGroups: ["operator.ptah.run"], resources: ["ptahschemaapprovals"], operations: ["CREATE"] }],
              },
            ],
          },
        ],
      },
      {
        items: [
          {
            metadata: { name: "other" },
            webhooks: [
              { name: "m.b", clientConfig: { url: "https://hooks.example/x" } },
              { name: "m.c", clientConfig: {} },
            ],
          },
        ],
      },
    ];
    let page = 0;
    const { transport, seen } = stub(() => ({ body: pages[page++] }));
    const hooks = await inspectorOver(transport).listWebhooks("mutating");
    expect(seen.map((s) => s.path)).toEqual([
      "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations?limit=500",
      "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations?limit=500&continue=2",
    ]);
    expect(hooks.map((h) => [h.configuration, h.name, h.target])).toEqual([
      ["ptah", "m.a", "service ptah-system/hook:443/mutate"],
      ["other", "m.b", "https://hooks.example/x"],
      ["other", "m.c", undefined],
    ]);
    expect(hooks[0]!.rules).toEqual([{ groups: ["operator.ptah.run"], resources: ["ptahschemaapprovals"], operations: ["CREATE"] }]);
  });
});
