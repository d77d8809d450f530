// HTTPS transport to the API server: TLS from the kubeconfig, auth headers, proxy tunnelling,
// per-request timeouts, bounded retries for reads (429 with Retry-After, 500/503), and
// streaming for watches. Errors become one kubectl-style line (api-errors.ts).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { ReadError } from "../errors.ts";
import { connectionError } from "./api-errors.ts";

export interface TransportConfig {
  readonly server: URL;
  readonly tls: tls.ConnectionOptions;
  readonly headers: Record<string, string>;
  readonly proxy: URL | undefined;
  readonly userAgent: string;
  /** Per-request timeout in ms; 0 = none. */
  readonly timeoutMs: number;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface RequestOptions {
  readonly method?: "GET" | "POST";
  readonly body?: Buffer;
  readonly signal?: AbortSignal;
  /** Overrides the transport's timeout (watches use their own). */
  readonly timeoutMs?: number;
}

const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Waits, or stops waiting when the signal aborts. The listener goes when the time is up: a
 * watch reconnecting for hours must not pile up listeners on one signal (Node warns after ten).
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Tunnels through an HTTP(S) proxy with CONNECT, as kubectl does for HTTPS_PROXY / proxy-url. */
class TunnelAgent extends https.Agent {
  readonly proxy: URL;
  constructor(proxy: URL, options: https.AgentOptions) {
    super(options);
    this.proxy = proxy;
  }
  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const tlsOptions = options as tls.ConnectionOptions & { host?: string; port?: number };
    const target = `${tlsOptions.host ?? ""}:${tlsOptions.port ?? 443}`;
    const headers: Record<string, string> = { host: target };
    if (this.proxy.username) {
      headers["proxy-authorization"] = `Basic ${Buffer.from(`${decodeURIComponent(this.proxy.username)}:${decodeURIComponent(this.proxy.password)}`).toString("base64")}`;
    }
    const req = (this.proxy.protocol === "https:" ? https : http).request({
      host: this.proxy.hostname,
      port: this.proxy.port || (this.proxy.protocol === "https:" ? 443 : 80),
      method: "CONNECT",
      path: target,
      headers,
    });
    req.once("connect", (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        callback?.(new Error(`proxy ${this.proxy.host} refused CONNECT ${target}: ${res.statusCode ?? 0}`), socket);
        return;
      }
      const secure = tls.connect({ ...tlsOptions, socket, servername: tlsOptions.servername ?? tlsOptions.host });
      callback?.(null, secure);
    });
    req.once("error", (err) => callback?.(err, new net.Socket()));
    req.end();
    return undefined;
  }
}

export class Transport {
  readonly config: TransportConfig;
  private readonly agent: https.Agent;

  constructor(config: TransportConfig) {
    this.config = config;
    // One TLS context (CA, client certificate and key parsed once) for every connection: parallel
    // reads open one connection each, and building a context per connection cost ~5 ms apiece
    // (issue 9's profile of status -A). If it cannot be built, each connection fails as before.
    let secureContext: tls.SecureContext | undefined;
    try {
      secureContext = tls.createSecureContext(config.tls);
    } catch {
      secureContext = undefined;
    }
    const options: https.AgentOptions = { ...config.tls, ...(secureContext ? { secureContext } : {}), keepAlive: true, maxSockets: 8 };
    this.agent = config.proxy ? new TunnelAgent(config.proxy, options) : new https.Agent(options);
  }

  close(): void {
    this.agent.destroy();
  }

  private once(pathAndQuery: string, options: RequestOptions): Promise<HttpResponse> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    return new Promise((resolve, reject) => {
      const url = new URL(pathAndQuery, this.config.server);
      const req = https.request(url, {
        method: options.method ?? "GET",
        agent: this.agent,
        headers: {
          ...this.config.headers,
          "user-agent": this.config.userAgent,
          accept: "application/json",
          ...(options.body ? { "content-type": "application/json", "content-length": String(options.body.length) } : {}),
        },
        signal: options.signal,
      });
      let timer: NodeJS.Timeout | undefined;
      if (timeoutMs > 0) {
        timer = setTimeout(() => req.destroy(Object.assign(new Error("timeout"), { code: "PTAH_TIMEOUT" })), timeoutMs);
      }
      req.on("response", (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => {
          if (timer) clearTimeout(timer);
          if (!res.complete) {
            reject(new ReadError(`the server closed the connection before the response to ${url.pathname} was complete`));
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) });
        });
        res.on("error", (err: NodeJS.ErrnoException) => {
          if (timer) clearTimeout(timer);
          // A body that breaks off after the headers (the connection closed before
          // Content-Length was reached) surfaces as an "aborted" reset on the response.
          if (err.code === "ECONNRESET" && !res.complete) {
            reject(new ReadError(`the server closed the connection before the response to ${url.pathname} was complete`));
            return;
          }
          reject(connectionError(err, this.config, timeoutMs));
        });
      });
      req.on("error", (err) => {
        if (timer) clearTimeout(timer);
        reject(connectionError(err, this.config, timeoutMs));
      });
      req.end(options.body);
    });
  }

  /** A request with bounded retries: 429 (honouring Retry-After), and 500/503 for reads. */
  async request(pathAndQuery: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const isRead = (options.method ?? "GET") === "GET";
    for (let attempt = 0; ; attempt++) {
      const res = await this.once(pathAndQuery, options);
      const retriable = res.status === 429 || (isRead && (res.status === 500 || res.status === 503 || res.status === 504));
      if (!retriable || attempt >= MAX_RETRIES || options.signal?.aborted) return res;
      const header = res.headers["retry-after"];
      const seconds = typeof header === "string" ? Number.parseInt(header, 10) : Number.NaN;
      const wait = Number.isFinite(seconds) ? Math.min(seconds * 1000, MAX_RETRY_WAIT_MS) : 200 * 2 ** attempt;
      await sleep(wait, options.signal);
    }
  }

  /**
   * Opens a streaming GET (a watch). Lines of JSON go to onLine; resolves when the server ends
   * the stream, rejects on an HTTP error status or a broken connection.
   */
  stream(pathAndQuery: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL(pathAndQuery, this.config.server);
      const req = https.request(url, {
        method: "GET",
        agent: this.agent,
        headers: { ...this.config.headers, "user-agent": this.config.userAgent, accept: "application/json" },
        signal,
      });
      req.on("response", (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          const parts: Buffer[] = [];
          res.on("data", (d: Buffer) => parts.push(d));
          res.on("end", () => reject(Object.assign(new Error("watch failed"), { response: { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) } })));
          return;
        }
        let buffered = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffered += chunk;
          let nl: number;
          while ((nl = buffered.indexOf("\n")) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (!line) continue;
            try {
              onLine(line);
            } catch (err) {
              // A handler's error (an object that does not fit the model) ends the watch with that
              // error; thrown from a stream event it would be an uncaught exception.
              req.destroy();
              reject(err);
              return;
            }
          }
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
