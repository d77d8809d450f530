// Tunnels to the API server through an HTTP(S) proxy with CONNECT, as kubectl does for
// HTTPS_PROXY / proxy-url. The CONNECT goes to the proxy, never to the API server, and only for
// the API server's host and port (kube/request-guard.ts's guardTunnel, checked before it is sent).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { guardTunnel } from "./request-guard.ts";

/** Tunnels through an HTTP(S) proxy with CONNECT, as kubectl does for HTTPS_PROXY / proxy-url. */
export class TunnelAgent extends https.Agent {
  readonly proxy: URL;
  /** The API server: the one host and port a CONNECT may name. */
  readonly server: URL;
  constructor(proxy: URL, server: URL, options: https.AgentOptions) {
    super(options);
    this.proxy = proxy;
    this.server = server;
  }
  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const tlsOptions = options as tls.ConnectionOptions & { host?: string; port?: number };
    const target = `${tlsOptions.host ?? ""}:${tlsOptions.port ?? 443}`;
    try {
      guardTunnel(target, this.server);
    } catch (err) {
      callback?.(err as Error, new net.Socket());
      return undefined;
    }
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
