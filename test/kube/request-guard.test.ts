// The read-only rule at run time (kube/request-guard.ts): a table of requests the plugin sends
// (each passes) and of requests it must never send (each refused, naming method and path); then,
// through the real connection code (kubeconfig, TLS, credentials, the transport) against the fault
// server, a planted DELETE, a POST without dryRun and a forbidden watch are refused with nothing
// received by the server and no credentials asked, and a CONNECT through a proxy for another host
// never reaches the proxy. test/guarantees/request-guard-cli.test.ts runs every command's requests past it.
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadOnlyError, exitStatusOf, formatError } from "../../src/errors.ts";
import { connect } from "../../src/kube/connect.ts";
import type { Transport } from "../../src/kube/http.ts";
import { startCredentialPlugin } from "../../src/cli/process-guard.ts";
import { NODE_DOOR, TunnelAgent } from "../../src/kube/proxy-tunnel.ts";
import { guardRequest, guardTunnel } from "../../src/kube/request-guard.ts";
import { useFaultServer, writeKubeconfig } from "../support/fault-server.ts";

const SERVER = new URL("https://api.example.com:6443");
const P = "/apis/operator.ptah.run/v1alpha1";
const WHY = "the plugin only reads (and dry-runs approvals)";

const check = (method: string, path: string): void => guardRequest(method, new URL(path, SERVER), SERVER);

/** What a refusal prints: the one stderr line. */
function refusal(run: () => void): string | undefined {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ReadOnlyError);
    expect(exitStatusOf(err)).toBe(1);
    return formatError(err);
  }
  return undefined;
}

/** Requests the plugin's code builds (kube/reader.ts, kube/inspect.ts, kube/http.ts's create). */
const ALLOWED: readonly (readonly [string, string])[] = [
  ["GET", "/version"],
  ["GET", P],
  ["GET", `${P}/namespaces/app/ptahschemas/storefront`],
  ["GET", `${P}/namespaces/a%20b/ptahschemaplans/storefront-1`],
  ["GET", `${P}/namespaces/app/ptahschemaplanchunks/storefront-1-0`],
  ["GET", `${P}/namespaces/app/ptahschemaapprovals?limit=500`],
  ["GET", `${P}/ptahschemas?limit=500&continue=abc`],
  ["GET", `${P}/namespaces/app/ptahschemaplans?limit=500&labelSelector=operator.ptah.run%2Fschema%3Dstorefront`],
  ["GET", `${P}/namespaces/app/ptahmigrations?watch=true&allowWatchBookmarks=true&resourceVersion=7&timeoutSeconds=300`],
  ["GET", `${P}/ptahmigrationrunacknowledgments?watch=true&allowWatchBookmarks=true&labelSelector=a%3Db&fieldSelector=metadata.name%3Dx&timeoutSeconds=300`],
  ["GET", "/api/v1/namespaces/app/configmaps/storefront-1-0"],
  ["GET", "/api/v1/namespaces/app/events?limit=500&fieldSelector=involvedObject.uid%3Du1"],
  ["GET", "/api/v1/events?limit=500"],
  ["GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahschemas.operator.ptah.run"],
  ["GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahmigrationrunacknowledgments.operator.ptah.run"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations?limit=500"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations?limit=500&continue=x"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/ptah-operator-admission"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?labelSelector=app.kubernetes.io%2Fcomponent%3Dapply-policy-guard&limit=500"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings?limit=500&continue=y"],
  ["GET", "/apis/coordination.k8s.io/v1/namespaces/ptah-system/leases?limit=500"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/deployments/ptah-operator"],
  ["GET", `${P}/ptahrealms/orders-db`],
  ["POST", `${P}/namespaces/app/ptahschemaapprovals?dryRun=All`],
  ["POST", `${P}/namespaces/app/ptahmigrationapprovals?dryRun=All`],
  ["POST", `${P}/namespaces/a%20b/ptahmigrationrunacknowledgments?dryRun=All`],
  ["POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"],
  ["POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews"],
];

/** Requests the plugin must never send: writes, secrets, subresources, proxies, other paths. */
const FORBIDDEN: readonly (readonly [string, string])[] = [
  ["DELETE", `${P}/namespaces/app/ptahschemas/storefront`],
  ["DELETE", `${P}/namespaces/app/ptahschemaapprovals`],
  ["PATCH", `${P}/namespaces/app/ptahschemas/storefront`],
  ["PUT", `${P}/namespaces/app/ptahschemas/storefront`],
  ["PUT", `${P}/namespaces/app/ptahschemas/storefront/status`],
  ["POST", `${P}/namespaces/app/ptahschemaapprovals`],
  ["POST", `${P}/namespaces/app/ptahschemaapprovals?dryRun=All&dryRun=`],
  ["POST", `${P}/namespaces/app/ptahschemaapprovals?dryRun=None`],
  ["POST", `${P}/namespaces/app/ptahschemas?dryRun=All`],
  ["POST", `${P}/namespaces/app/ptahschemaapprovals/x?dryRun=All`],
  ["POST", "/api/v1/namespaces/app/configmaps?dryRun=All"],
  ["POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews"],
  ["POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews?dryRun=All&x=1"],
  ["POST", "/api/v1/namespaces/app/serviceaccounts/default/token"],
  ["GET", "/api/v1/namespaces/app/secrets"],
  ["GET", "/api/v1/namespaces/app/secrets/db-credentials"],
  ["GET", "/api/v1/secrets?watch=true"],
  ["GET", "/api/v1/namespaces/app/services/db:5432/proxy/"],
  ["GET", "/api/v1/namespaces/app/pods/db-0/exec?command=sh"],
  ["GET", "/api/v1/namespaces/app/pods/db-0/log"],
  ["GET", "/api/v1/namespaces/app/pods"],
  ["GET", `${P}/namespaces/app/ptahschemas/storefront/status`],
  ["GET", `${P}/namespaces/app/ptahschemas/storefront%2Fstatus`],
  ["GET", `${P}/namespaces/app/ptahresultrecords`],
  ["GET", `${P}/namespaces/app/ptahschemas/storefront?dryRun=All`],
  ["GET", `${P}/namespaces/app/ptahschemas?watch=1`],
  ["GET", `${P}/namespaces/app/ptahschemas?pretty=true`],
  ["GET", `${P}/namespaces//ptahschemas`],
  ["GET", "/api/v1/namespaces/app"],
  ["GET", "/metrics"],
  ["GET", "/healthz"],
  ["GET", "/api"],
  ["GET", "/apis"],
  ["GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"],
  ["GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/certificates.cert-manager.io"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/x"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/ptah-operator-admission?watch=true"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?limit=500"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies?labelSelector=app%3Dother"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/some-policy"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings?watch=true"],
  ["GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/b"],
  ["GET", "/apis/coordination.k8s.io/v1/leases?limit=500"],
  ["GET", "/apis/coordination.k8s.io/v1/namespaces/ptah-system/leases?watch=true"],
  ["GET", "/apis/coordination.k8s.io/v1/namespaces/ptah-system/leases/ptah-t-abc"],
  ["GET", "/apis/coordination.k8s.io/v1/namespaces/../leases"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/deployments"],
  ["GET", "/apis/apps/v1/deployments/ptah-operator"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/deployments/ptah-operator?watch=true"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/deployments/ptah-operator/scale"],
  ["GET", "/apis/apps/v1/namespaces/../deployments/ptah-operator"],
  // Each segment one name: an encoded slash in the namespace or in the name is refused on its own.
  ["GET", "/apis/apps/v1/namespaces/ptah%2Fsystem/deployments/ptah-operator"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/deployments/ptah%2Foperator"],
  ["GET", "/apis/apps/v1/namespaces/ptah-system/statefulsets/ptah-operator"],
  ["GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles"],
  // A PtahRealm by name only: never the list, a watch, a namespaced path or a parameter.
  ["GET", `${P}/ptahrealms`],
  ["GET", `${P}/ptahrealms?limit=500`],
  ["GET", `${P}/ptahrealms?watch=true`],
  ["GET", `${P}/ptahrealms/orders-db?watch=true`],
  ["GET", `${P}/ptahrealms/..`],
  ["GET", `${P}/ptahrealms/orders-db/status`],
  ["GET", `${P}/namespaces/app/ptahrealms/orders-db`],
  // Parameters where the path takes none, a list's parameters on one object, a watch of one object.
  ["GET", "/version?x=1"],
  ["GET", `${P}?watch=true`],
  ["GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ptahschemas.operator.ptah.run?limit=1"],
  ["GET", `${P}/namespaces/app/ptahschemas/storefront?limit=500`],
  ["GET", `${P}/ptahschemas/storefront?watch=true`],
  // A plural the plugin reads, reached under segments that are not namespaces/NS.
  ["GET", `${P}/foo/bar/ptahschemas`],
  // A namespace that does not decode.
  ["GET", `${P}/namespaces/%E0%A4%A/ptahschemas`],
  // A dry-run create outside a namespace, and the dry-run and review paths under another method.
  ["POST", `${P}/ptahschemaapprovals?dryRun=All`],
  ["DELETE", `${P}/namespaces/app/ptahschemaapprovals?dryRun=All`],
  ["PUT", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"],
  ["HEAD", "/version"],
  ["OPTIONS", "/version"],
  ["get", "/version"],
  ["CONNECT", "/version"],
];

describe("guardRequest", () => {
  it.each(ALLOWED)("lets %s %s through", (method, path) => {
    expect(refusal(() => check(method, path))).toBeUndefined();
  });

  it.each(FORBIDDEN)("refuses %s %s, naming both", (method, path) => {
    const url = new URL(path, SERVER);
    expect(refusal(() => check(method, path))).toBe(`error: refused to send ${method} ${url.pathname}${url.search}: ${WHY}\n`);
  });

  it("refuses an allowed path on any host but the API server's, naming the host", () => {
    for (const other of ["https://api.example.com:6444", "http://api.example.com:6443", "https://evil.example.com:6443", "https://u:p@api.example.com:6443"]) {
      const url = new URL("/version", other);
      expect(refusal(() => guardRequest("GET", url, SERVER))).toBe(`error: refused to send GET ${url.origin}/version: ${WHY}\n`);
    }
  });
});

describe("guardTunnel", () => {
  it("lets a CONNECT for the API server's host and port through, and refuses any other", () => {
    expect(refusal(() => guardTunnel("api.example.com:6443", SERVER))).toBeUndefined();
    expect(refusal(() => guardTunnel("127.0.0.1:443", new URL("https://127.0.0.1")))).toBeUndefined();
    expect(refusal(() => guardTunnel("::1:6443", new URL("https://[::1]:6443")))).toBeUndefined();
    expect(refusal(() => guardTunnel("metadata.internal:80", SERVER))).toBe(
      "error: refused to send CONNECT metadata.internal:80: the plugin only tunnels to the API server api.example.com:6443\n",
    );
    expect(refusal(() => guardTunnel("api.example.com:443", SERVER))).toBeDefined();
    // A server URL without a port: 443 for https, 80 for http, as the transport dials them.
    expect(refusal(() => guardTunnel("api.example.com:80", new URL("http://api.example.com")))).toBeUndefined();
    expect(refusal(() => guardTunnel("api.example.com:443", new URL("http://api.example.com")))).toBeDefined();
    expect(refusal(() => guardTunnel("api.example.com:80", new URL("https://api.example.com")))).toBeDefined();
  });
});

describe("a planted violation, through the real connection code", () => {
  const f = useFaultServer("ptah-guard-", { beforeAll, afterAll });
  let asked = 0;

  /** The transport connect() builds for a kubeconfig naming the fault server (its token asked through a counter). */
  async function realTransport(): Promise<Transport> {
    const kubeconfig = writeKubeconfig(f.dir, "guard.kubeconfig", { server: f.server.url, caFile: f.pki.caFile });
    const c = await connect(
      { kubeconfig, context: undefined, namespace: undefined, requestTimeoutMs: 5000, overrides: {}, verbosity: 0, warningsAsErrors: false },
      { env: { HOME: f.home }, version: "v0.0.0-test", stdinIsTTY: false, log: () => {}, startCredentialPlugin },
    );
    const transport = (c.reader as unknown as { transport: Transport }).transport;
    const credentials = transport.config.credentials;
    const current = credentials.current.bind(credentials);
    (credentials as { current: typeof current }).current = () => {
      asked++;
      return current();
    };
    return transport;
  }

  /** The transport's private request function, as a careless change inside it would call it. */
  type Once = (method: string, pathAndQuery: string, options: object) => Promise<unknown>;
  const once = (t: Transport): Once => (t as unknown as { once: Once }).once.bind(t);

  it("the real transport still sends what the plugin reads (the fault server answers)", async () => {
    f.server.reset();
    const t = await realTransport();
    try {
      expect((await t.get(`${P}/namespaces/app/ptahschemas?limit=500`)).status).toBe(200);
      expect(f.server.requests).toEqual([{ method: "GET", url: `${P}/namespaces/app/ptahschemas?limit=500` }]);
    } finally {
      t.close();
    }
  });

  it.each([
    ["DELETE", `${P}/namespaces/app/ptahschemas/storefront`],
    ["PATCH", `${P}/namespaces/app/ptahschemas/storefront`],
    ["POST", `${P}/namespaces/app/ptahschemaapprovals`],
    ["GET", "/api/v1/namespaces/app/secrets"],
  ])("%s %s is refused with one line, and the server receives nothing", async (method, path) => {
    f.server.reset();
    asked = 0;
    const t = await realTransport();
    try {
      const err = await once(t)(method, path, {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ReadOnlyError);
      expect(formatError(err)).toBe(`error: refused to send ${method} ${path}: ${WHY}\n`);
      expect(f.server.requests).toEqual([]);
      expect(asked).toBe(0);
    } finally {
      t.close();
    }
  });

  it("a watch of a path the plugin does not read is refused, and the server receives nothing", async () => {
    f.server.reset();
    const t = await realTransport();
    try {
      const err = await t
        .stream("/api/v1/secrets?watch=true", () => {}, new AbortController().signal)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(formatError(err)).toBe(`error: refused to send GET /api/v1/secrets?watch=true: ${WHY}\n`);
      expect(f.server.requests).toEqual([]);
    } finally {
      t.close();
    }
  });

  it("a CONNECT for another host never reaches the proxy", async () => {
    const connects: string[] = [];
    const proxy = http.createServer();
    proxy.on("connect", (req: http.IncomingMessage, socket: net.Socket) => {
      connects.push(req.url ?? "");
      socket.destroy();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = new URL(`http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`);
    const agent = new TunnelAgent(proxyUrl, new URL(f.server.url), {}, NODE_DOOR);
    try {
      const refused = await new Promise<unknown>((resolve) => {
        const req = https.request("https://metadata.internal:443/computeMetadata/v1/", { agent }, () => resolve(undefined));
        req.on("error", resolve);
        req.end();
      });
      expect(formatError(refused)).toBe(`error: refused to send CONNECT metadata.internal:443: the plugin only tunnels to the API server ${f.server.host}\n`);
      expect(connects).toEqual([]);
      // The API server's own host and port pass: the proxy sees that CONNECT.
      await new Promise<unknown>((resolve) => {
        const req = https.request(`${f.server.url}/version`, { agent }, () => resolve(undefined));
        req.on("error", resolve);
        req.end();
      });
      expect(connects).toEqual([f.server.host]);
    } finally {
      agent.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
