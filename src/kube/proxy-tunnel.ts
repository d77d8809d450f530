// Tunnels to the API server through an HTTP(S) proxy with CONNECT, as kubectl does for
// HTTPS_PROXY / proxy-url. The CONNECT goes to the proxy, never to the API server.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";

/** Tunnels through an HTTP(S) proxy with CONNECT, as kubectl does for HTTPS_PROXY / proxy-url. */
export class TunnelAgent extends https.Agent {
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
