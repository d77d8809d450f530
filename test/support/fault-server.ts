// A local fault-injecting HTTPS API server for the fault matrix: node:https
// on 127.0.0.1:0 with a throwaway PKI made by `openssl` in a temp dir, a generated kubeconfig
// pointing at it, and a runner for the REAL CLI in-process (kubeconfig loading, TLS, exec
// plugins, transport, reader, error mapping: no fake reader anywhere).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { REAL_CONNECTION, runCliWith, type CliRun } from "./cli.ts";

/** A fresh temp folder (the caller removes it). */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Pki {
  readonly dir: string;
  /** The CA the kubeconfig trusts; signs `serverCert` and `expiredCert`. */
  readonly caFile: string;
  /** A second, unrelated CA: a kubeconfig trusting it sees a CA mismatch. */
  readonly otherCaFile: string;
  readonly serverCert: Buffer;
  readonly serverKey: Buffer;
  /** Signed by the CA, for 127.0.0.1, valid until yesterday. */
  readonly expiredCert: Buffer;
}

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

/** Two CAs, a server certificate for 127.0.0.1/localhost, and an expired one. */
export function makePki(dir: string): Pki {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(dir, ["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=ptah-fault-ca"]);
  openssl(dir, ["req", "-x509", ...ec, "-keyout", "other-ca.key", "-out", "other-ca.crt", "-days", "2", "-subj", "/CN=ptah-other-ca"]);
  openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  fs.writeFileSync(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  const sign = (out: string, days: string): void =>
    openssl(dir, ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-set_serial", String(Date.now()), "-out", out, "-days", days, "-extfile", "san.ext"]);
  sign("server.crt", "2");
  // openssl 3 accepts a negative validity: notAfter lands a day before notBefore (now).
  sign("expired.crt", "-1");
  return {
    dir,
    caFile: path.join(dir, "ca.crt"),
    otherCaFile: path.join(dir, "other-ca.crt"),
    serverCert: fs.readFileSync(path.join(dir, "server.crt")),
    serverKey: fs.readFileSync(path.join(dir, "server.key")),
    expiredCert: fs.readFileSync(path.join(dir, "expired.crt")),
  };
}

export interface SeenRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: readonly SeenRequest[]) => void;

export class FaultServer {
  readonly requests: SeenRequest[] = [];
  handler: Handler = (_req, res) => sendJson(res, 200, emptyList());
  /**
   * When set, only requests bearing this token are recorded and handled; others get a bare
   * 401. A CLI run that failed fast may leave sibling requests in flight (retrying, say):
   * the token keeps them out of the next case's counts.
   */
  token: string | undefined;
  private readonly server: https.Server;
  port = 0;

  constructor(cert: Buffer, key: Buffer) {
    this.server = https.createServer({ cert, key }, (req, res) => {
      if (this.token !== undefined && req.headers.authorization !== `Bearer ${this.token}`) {
        res.writeHead(401).end();
        return;
      }
      this.requests.push({ method: req.method ?? "", url: req.url ?? "" });
      try {
        this.handler(req, res, this.requests);
      } catch (err) {
        res.destroy(err as Error);
      }
    });
    // A TLS failure on the client side shows up here as a handshake error: not our concern.
    this.server.on("tlsClientError", () => {});
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `https://${this.host}`;
  }

  /** Forget earlier requests and connections between cases. */
  reset(handler?: Handler): void {
    this.requests.length = 0;
    this.server.closeAllConnections();
    if (handler) this.handler = handler;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A Kubernetes `Status` failure body, as the API server sends it. */
export function statusBody(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code };
}

export function emptyList(resourceVersion = "1"): Record<string, unknown> {
  return { apiVersion: "v1", kind: "List", metadata: { resourceVersion }, items: [] };
}

export function list(items: readonly Record<string, unknown>[], resourceVersion = "1"): Record<string, unknown> {
  return { apiVersion: "v1", kind: "List", metadata: { resourceVersion }, items };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface KubeconfigSpec {
  readonly server: string;
  /** certificate-authority path, written relative to the kubeconfig's folder when inside it. */
  readonly caFile?: string;
  readonly user?: Record<string, unknown>;
  readonly namespace?: string;
}

/** Writes a one-context kubeconfig into `dir` and returns its path. */
export function writeKubeconfig(dir: string, name: string, spec: KubeconfigSpec): string {
  const ca = spec.caFile ? (path.dirname(spec.caFile) === dir ? path.basename(spec.caFile) : spec.caFile) : undefined;
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "fault", cluster: { server: spec.server, ...(ca ? { "certificate-authority": ca } : {}) } }],
    users: [{ name: "tester", user: spec.user ?? { token: "fault-token" } }],
    contexts: [{ name: "fault", context: { cluster: "fault", user: "tester", namespace: spec.namespace ?? "app" } }],
    "current-context": "fault",
  };
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(doc, null, 2)); // JSON is YAML
  return file;
}

export interface RealRunOptions {
  /** KUBECONFIG for the run; omitted = no KUBECONFIG at all. */
  readonly kubeconfig?: string;
  /** HOME for the run (default: an empty folder, so ~/.kube/config is never read). */
  readonly home: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** The real CLI, in-process, talking to a real server through the real connection code. */
export async function runRealCli(argv: readonly string[], options: RealRunOptions): Promise<CliRun> {
  return runCliWith(argv, REAL_CONNECTION, {
    // Only what a run needs: no proxies or kubeconfig from the developer's environment.
    env: {
      NO_COLOR: "1",
      PATH: process.env.PATH,
      HOME: options.home,
      ...(options.kubeconfig ? { KUBECONFIG: options.kubeconfig } : {}),
      ...options.env,
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export interface FaultFixture {
  dir: string;
  home: string;
  pki: Pki;
  server: FaultServer;
}

/**
 * A temp folder with an empty HOME, a PKI and a started FaultServer, made before the file's tests
 * and removed after them (vitest hooks). Read the fields inside tests, not at import time.
 */
export function useFaultServer(prefix: string, hooks: { beforeAll: (fn: () => Promise<void>) => void; afterAll: (fn: () => Promise<void>) => void }): FaultFixture {
  const f = {} as FaultFixture;
  hooks.beforeAll(async () => {
    f.dir = tempDir(prefix);
    f.home = path.join(f.dir, "home");
    fs.mkdirSync(f.home);
    f.pki = makePki(f.dir);
    f.server = await new FaultServer(f.pki.serverCert, f.pki.serverKey).start();
  });
  hooks.afterAll(async () => {
    await f.server?.close();
    if (f.dir) fs.rmSync(f.dir, { recursive: true, force: true });
  });
  return f;
}
