// Serves the admission webhooks over HTTPS on 127.0.0.1 with a serving certificate signed by a
// CA of its own (openssl, kept in <lab>/sim-pki), and registers them with the API server as a
// MutatingWebhookConfiguration and a ValidatingWebhookConfiguration (CREATE/UPDATE of schema
// approvals, migration approvals and run acknowledgments; sideEffects None; admissionReview v1;
// failurePolicy Fail), limited to the namespaces the simulator manages; the mutating one also
// stamps the last spec writer of PtahSchema and PtahMigration (spec-writer.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { mutate, validate, type AdmissionRequest, type AdmissionResponse } from "./admission.ts";
import { MANAGED_LABEL, MANAGED_VALUE, MANAGER } from "./common.ts";
import { ApiError, type Kube } from "./kube.ts";

export const WEBHOOK_CONFIG_NAME = "ptah-operator-simulator";

interface Pki {
  caPem: string;
  certPem: string;
  keyPem: string;
}

function ensurePki(dir: string): Pki {
  const f = (n: string) => path.join(dir, n);
  const files = ["ca.crt", "serving.crt", "serving.key"];
  if (!files.every((n) => fs.existsSync(f(n)))) {
    fs.mkdirSync(dir, { recursive: true });
    const o = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"], timeout: 30_000 });
    o("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=ptah-operator-simulator-ca", "-keyout", "ca.key", "-out", "ca.crt");
    fs.writeFileSync(f("serving.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n");
    o("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=ptah-operator-simulator-webhook", "-keyout", "serving.key", "-out", "serving.csr");
    o("x509", "-req", "-in", "serving.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "3650", "-extfile", "serving.ext", "-out", "serving.crt");
    for (const n of ["ca.key", "serving.key"]) fs.chmodSync(f(n), 0o600);
  }
  return { caPem: fs.readFileSync(f("ca.crt"), "utf8"), certPem: fs.readFileSync(f("serving.crt"), "utf8"), keyPem: fs.readFileSync(f("serving.key"), "utf8") };
}

function readBody(req: import("node:http").IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

export async function startWebhookServer(
  kube: Kube,
  labDir: string,
  preferredPort: number | undefined,
  log: (m: string) => void,
): Promise<{ port: number; caPem: string; close: () => void }> {
  const pki = ensurePki(path.join(labDir, "sim-pki"));
  const server = https.createServer({ key: pki.keyPem, cert: pki.certPem }, async (req, res) => {
    const send = (code: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(code, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method === "GET" && req.url === "/healthz") return send(200, { ok: true });
    if (req.method !== "POST" || (req.url?.split("?")[0] !== "/mutate" && req.url?.split("?")[0] !== "/validate")) return send(404, { message: "not found" });
    let review: { apiVersion?: string; request?: AdmissionRequest };
    try {
      review = JSON.parse(await readBody(req));
    } catch {
      return send(400, { message: "bad AdmissionReview" });
    }
    const request = review.request;
    if (!request) return send(400, { message: "AdmissionReview without request" });
    const pass = req.url.startsWith("/mutate") ? "mutate" : "validate";
    let response: AdmissionResponse;
    try {
      response = pass === "mutate" ? await mutate(kube, request, MANAGER.executionBindingID) : await validate(kube, request, MANAGER.executionBindingID);
    } catch (err) {
      response = { uid: request.uid, allowed: false, status: { code: 500, message: `internal error: ${(err as Error).message}`, reason: "InternalError" } };
    }
    const who = request.userInfo?.username ?? "?";
    const obj = `${request.resource?.resource}/${request.namespace}/${request.object?.metadata?.name ?? request.oldObject?.metadata?.name ?? "?"}`;
    log(`admission ${pass} ${request.operation}${request.dryRun ? " (dryRun)" : ""} ${obj} by ${who}: ${response.allowed ? "allowed" : `denied: ${response.status?.message}`}`);
    send(200, { apiVersion: review.apiVersion ?? "admission.k8s.io/v1", kind: "AdmissionReview", response });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as import("node:net").AddressInfo).port);
      });
    });
  let port: number;
  try {
    port = await listen(preferredPort ?? 0);
  } catch {
    port = await listen(0);
  }
  await register(kube, port, pki.caPem);
  return { port, caPem: pki.caPem, close: () => server.close() };
}

function webhooks(kind: "m" | "v", port: number, caBundle: string): unknown[] {
  const entries: [string, string][] = [
    ["approval", "ptahschemaapprovals"],
    ["migrationapproval", "ptahmigrationapprovals"],
    ["runacknowledgment", "ptahmigrationrunacknowledgments"],
    // four-eyes (spec-writer.ts): the mutating pass stamps the last spec writer
    ...(kind === "m"
      ? ([
          ["schemaspecwriter", "ptahschemas"],
          ["migrationspecwriter", "ptahmigrations"],
        ] as [string, string][])
      : []),
  ];
  return entries.map(([name, resource]) => ({
    name: `${kind}${name}.operator.ptah.run`,
    admissionReviewVersions: ["v1"],
    sideEffects: "None",
    failurePolicy: "Fail",
    matchPolicy: "Equivalent",
    timeoutSeconds: 10,
    ...(kind === "m" ? { reinvocationPolicy: "Never" } : {}),
    namespaceSelector: { matchLabels: { [MANAGED_LABEL]: MANAGED_VALUE } },
    clientConfig: { url: `https://127.0.0.1:${port}/${kind === "m" ? "mutate" : "validate"}`, caBundle },
    rules: [{ apiGroups: ["operator.ptah.run"], apiVersions: ["v1alpha1"], operations: ["CREATE", "UPDATE"], resources: [resource], scope: "Namespaced" }],
  }));
}

async function register(kube: Kube, port: number, caPem: string): Promise<void> {
  const caBundle = Buffer.from(caPem).toString("base64");
  for (const [kind, plural, k] of [
    ["MutatingWebhookConfiguration", "mutatingwebhookconfigurations", "m"],
    ["ValidatingWebhookConfiguration", "validatingwebhookconfigurations", "v"],
  ] as const) {
    const base = `/apis/admissionregistration.k8s.io/v1/${plural}`;
    const body = {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind,
      metadata: { name: WEBHOOK_CONFIG_NAME, labels: { "app.kubernetes.io/managed-by": "ptah-operator-simulator" } },
      webhooks: webhooks(k, port, caBundle),
    };
    const existing = await kube.get(`${base}/${WEBHOOK_CONFIG_NAME}`);
    try {
      if (existing) await kube.put(`${base}/${WEBHOOK_CONFIG_NAME}`, { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata.resourceVersion } });
      else await kube.create(base, body);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return register(kube, port, caPem);
      throw err;
    }
  }
}
