// The transport to the API server (https://, or http:// as kubectl allows): TLS from the kubeconfig,
// credentials asked before every request (and once more after a 401), impersonation, proxy tunnelling,
// per-request timeouts and client-go's connect bounds (connect-deadline.ts), bounded retries for reads (429
// with Retry-After, 500/503/504), streaming for watches, -v request logs. It can send GETs and one closed
// set of creates, nothing else (read-only by construction; test/architecture.test.ts checks its shape).
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import { ReadError, ReadOnlyError, sanitize } from "../errors.ts";
import { KINDS } from "../model/parse.ts";
import { connectionError } from "./api-errors.ts"; // errors become one kubectl-style line
import { boundConnect } from "./connect-deadline.ts";
import type { AuthState, CredentialSource } from "./credentials.ts";
import { DoorAgent, NODE_DOOR, TunnelAgent, plainDoorAgent, type Door } from "./proxy-tunnel.ts";
import { MAX_RETRIES, retryWait, sleep } from "./retry.ts";
import { RequestLog } from "./request-log.ts";
import { REVIEW_PATHS, guardRequest, type DryRunKind } from "./request-guard.ts";
import { retireAgent } from "./retire-agent.ts";
import { collect, eachLine, warningText } from "./response.ts";

export interface TransportConfig {
  readonly server: URL;
  readonly tls: tls.ConnectionOptions;
  /** The user's credentials, asked before every request (they may rotate). */
  readonly credentials: CredentialSource;
  /** Impersonation headers (sent over http:// too, as kubectl does). */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly proxy: URL | undefined;
  readonly userAgent: string;
  /** Per-request timeout in ms; 0 = none. */
  readonly timeoutMs: number;
  /** -v level (request log at 6 and above, kube/request-log.ts). */
  readonly verbosity?: number;
  readonly warningsAsErrors?: boolean;
  /** stderr, for -v and the server's warnings. */
  readonly log?: (line: string) => void;
  /** The one way to connect (the egress guard's door, to the server and the proxy); Node's own without it. */
  readonly door?: Door;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Options of a read. There is no method: reads are GETs. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Overrides the transport's timeout (watches use their own). */
  readonly timeoutMs?: number;
  /**
   * A 200 answer's body goes to this sink as it arrives (a LIST page, kube/list-page.ts) and the
   * response holds none: a page is never held whole. A sink that throws ends the request with
   * its error. Asked once per answer (a retried request starts a new sink).
   */
  readonly sink?: () => (chunk: Buffer) => void;
}

/**
 * The kinds the plugin may create, and how (developers' guide "Read-only"): the three approval
 * kinds only as a dry run (the transport adds dryRun=All itself), and the reviews it sends, which
 * store nothing. Both tables live in kube/request-guard.ts, which refuses anything else at run time.
 */
export type { DryRunKind } from "./request-guard.ts";
export type ReviewKind = Exclude<keyof typeof REVIEW_PATHS, IdentityKind>;
export type IdentityKind = "SelfSubjectReview";
type Body = Record<string, unknown>;
export type CreateRequest = { readonly kind: DryRunKind; readonly namespace: string; readonly body: Body } | { readonly kind: ReviewKind | IdentityKind; readonly body: Body };

function createPath(r: CreateRequest): string {
  if (!("namespace" in r)) return REVIEW_PATHS[r.kind];
  const info = KINDS[r.kind];
  return `/apis/${info.group}/${info.version}/namespaces/${encodeURIComponent(r.namespace)}/${info.plural}?dryRun=All`;
}

type Method = "GET" | "POST";

export class Transport {
  readonly config: TransportConfig;
  private agent: http.Agent | undefined;
  /** The client certificate and key the agent was built with (an exec plugin may rotate them). */
  private agentAuth: AuthState | undefined;
  private readonly log: RequestLog;
  /** Agents of an earlier client certificate (kube/retire-agent.ts). */
  private readonly retired = new Set<http.Agent>();

  constructor(config: TransportConfig) {
    this.config = config;
    this.log = new RequestLog(config.verbosity ?? 0, config.log ?? (() => {}));
  }

  close(): void {
    for (const agent of [this.agent, ...this.retired]) agent?.destroy();
  }

  /**
   * One TLS context (CA, client certificate and key parsed once) for every connection: one per connection cost
   * ~5 ms apiece (`status -A`'s profile, test/bench/profile.mjs). Rebuilt only when the client certificate changes.
   */
  private agentFor(auth: AuthState): http.Agent {
    const door = this.config.door ?? NODE_DOOR;
    if (this.config.server.protocol === "http:") return (this.agent ??= plainDoorAgent(door));
    if (this.agent && this.agentAuth && sameBytes(this.agentAuth.cert, auth.cert) && sameBytes(this.agentAuth.key, auth.key)) return this.agent;
    if (this.agent) this.retired.add(retireAgent(this.agent));
    const tlsOptions: tls.ConnectionOptions = { ...this.config.tls, ...(auth.cert ? { cert: auth.cert } : {}), ...(auth.key ? { key: auth.key } : {}) };
    let secureContext: tls.SecureContext | undefined;
    try {
      secureContext = tls.createSecureContext(tlsOptions);
    } catch {
      secureContext = undefined; // each connection then fails with its own error
    }
    const options: https.AgentOptions = { ...tlsOptions, ...(secureContext ? { secureContext } : {}), keepAlive: true, maxSockets: 8 };
    this.agent = this.config.proxy ? new TunnelAgent(this.config.proxy, this.config.server, options, door) : new DoorAgent(door, options);
    this.agentAuth = auth;
    return this.agent;
  }

  private async headers(body: Buffer | undefined): Promise<{ auth: AuthState; headers: http.OutgoingHttpHeaders }> {
    const auth = await this.config.credentials.current();
    return {
      auth,
      headers: {
        ...auth.headers,
        ...this.config.headers,
        "user-agent": this.config.userAgent,
        accept: "application/json",
        ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
      },
    };
  }

  private async once(method: Method, pathAndQuery: string, options: RequestOptions, body?: Buffer): Promise<HttpResponse> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const url = new URL(pathAndQuery, this.config.server);
    guardRequest(method, url, this.config.server); // before credentials are even asked
    const { auth, headers } = await this.headers(body);
    const started = this.log.request(method, url, headers);
    return new Promise((resolve, reject) => {
      const req = send(url, this.config.server, { method, agent: this.agentFor(auth), headers, signal: options.signal });
      boundConnect(req, url.protocol === "https:");
      let timer: NodeJS.Timeout | undefined;
      if (timeoutMs > 0) {
        timer = setTimeout(() => req.destroy(Object.assign(new Error("timeout"), { code: "PTAH_TIMEOUT" })), timeoutMs);
      }
      req.on("response", (res) => {
        const cutShort = (): ReadError => new ReadError(`the server closed the connection before the response to ${url.pathname} was complete`);
        let failed = false;
        const parts = collect(res, res.statusCode === 200 ? options.sink?.() : undefined, this.log.level >= 8, (err) => {
          failed = true;
          if (timer) clearTimeout(timer);
          req.destroy();
          reject(err);
        });
        res.on("end", () => {
          if (failed) return;
          if (timer) clearTimeout(timer);
          if (!res.complete) {
            reject(cutShort());
            return;
          }
          const response = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) };
          this.log.response(method, url, response, started);
          try {
            this.warnings(res.headers);
          } catch (err) {
            reject(err);
            return;
          }
          resolve(response);
        });
        res.on("error", (err: NodeJS.ErrnoException) => {
          if (timer) clearTimeout(timer);
          // A body that breaks off after the headers (the connection closed before
          // Content-Length was reached) surfaces as an "aborted" reset on the response.
          if (err.code === "ECONNRESET" && !res.complete) {
            reject(cutShort());
            return;
          }
          reject(connectionError(err, this.config, timeoutMs));
        });
      });
      req.on("error", (err) => {
        if (timer) clearTimeout(timer);
        this.log.failure(method, url, started);
        reject(err instanceof ReadOnlyError ? err : connectionError(err, this.config, timeoutMs));
      });
      req.end(body);
    });
  }

  /** Warning headers: `Warning: …` on stderr once each, as kubectl prints them; an error with --warnings-as-errors. */
  private readonly warned = new Set<string>();
  private warnings(headers: http.IncomingHttpHeaders): void {
    const raw = headers.warning;
    if (!raw) return;
    for (const text of (Array.isArray(raw) ? raw : [raw]).map(warningText)) {
      if (this.config.warningsAsErrors) throw new ReadError(`the server sent a warning and --warnings-as-errors is set: ${sanitize(text)}`);
      if (this.warned.has(text)) continue;
      this.warned.add(text);
      this.config.log?.(`Warning: ${sanitize(text)}`);
    }
  }

  /**
   * A 401 is answered once with fresh credentials (an exec plugin re-run, a token file re-read),
   * as client-go does; then the 401 stands.
   */
  private async withFreshCredentials(send: () => Promise<HttpResponse>): Promise<HttpResponse> {
    const res = await send();
    if (res.status !== 401 || !this.config.credentials.invalidate()) return res;
    return send();
  }

  /** A GET with bounded retries: 429 (honouring Retry-After) and 500/503/504. */
  async get(pathAndQuery: string, options: RequestOptions = {}): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.withFreshCredentials(() => this.once("GET", pathAndQuery, options));
      const retriable = res.status === 429 || res.status === 500 || res.status === 503 || res.status === 504;
      if (!retriable || attempt >= MAX_RETRIES || options.signal?.aborted) return res;
      await sleep(retryWait(res.headers["retry-after"], attempt), options.signal);
    }
  }

  /**
   * The transport's only request that is not a GET: a create of one of the closed set of kinds
   * above, to a path built here (so a dry run cannot lose its dryRun=All). Retried on 429 only.
   */
  async create(request: CreateRequest, options: RequestOptions = {}): Promise<HttpResponse> {
    const body = Buffer.from(JSON.stringify(request.body));
    const target = createPath(request);
    for (let attempt = 0; ; attempt++) {
      const res = await this.withFreshCredentials(() => this.once("POST", target, options, body));
      if (res.status !== 429 || attempt >= MAX_RETRIES || options.signal?.aborted) return res;
      await sleep(retryWait(res.headers["retry-after"], attempt), options.signal);
    }
  }

  /**
   * Opens a streaming GET (a watch). Lines of JSON go to onLine; resolves when the server ends
   * the stream, rejects on an HTTP error status or a broken connection. A 401 is retried once
   * with fresh credentials.
   */
  async stream(pathAndQuery: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    try {
      await this.streamOnce(pathAndQuery, onLine, signal);
    } catch (err) {
      const status = (err as { response?: { status?: number } }).response?.status;
      if (status !== 401 || !this.config.credentials.invalidate()) throw err;
      await this.streamOnce(pathAndQuery, onLine, signal);
    }
  }

  private async streamOnce(pathAndQuery: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    const url = new URL(pathAndQuery, this.config.server);
    guardRequest("GET", url, this.config.server);
    const { auth, headers } = await this.headers(undefined);
    const started = this.log.request("GET", url, headers);
    return new Promise((resolve, reject) => {
      const req = send(url, this.config.server, { method: "GET", agent: this.agentFor(auth), headers, signal });
      req.on("response", (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          const parts = collect(res, undefined, false, () => {});
          res.on("end", () => {
            const response = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) };
            this.log.response("GET", url, response, started);
            reject(Object.assign(new Error("watch failed"), { response }));
          });
          return;
        }
        this.log.response("GET", url, { status: res.statusCode ?? 0, headers: res.headers, body: undefined }, started);
        // A handler's error (an object that does not fit the model) ends the watch with that
        // error; thrown from a stream event it would be an uncaught exception.
        eachLine(res, onLine, (err) => {
          req.destroy();
          reject(err);
        });
        res.on("end", () => resolve());
        res.on("error", (err) => reject(err));
      });
      req.on("error", (err) => {
        if (signal.aborted) resolve();
        else reject(err);
      });
      req.end();
    });
  }
}

/** The one place a request leaves: kube/request-guard.ts checks its method and URL first (nothing sent unless allowed). */
function send(url: URL, server: URL, options: http.RequestOptions): http.ClientRequest {
  guardRequest(options.method ?? "GET", url, server);
  return (url.protocol === "http:" ? http : https).request(url, options);
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.equals(b));
}
