// The transport's connections: every one is made through the door it is handed (the egress
// guard's, cli/egress-guard.ts: once that guard is installed, a connection made any other way is
// refused at the socket), directly or through an HTTP(S) proxy with CONNECT, as kubectl does for
// HTTPS_PROXY / proxy-url. The CONNECT goes to the proxy, never to the API server, and only for
// the API server's host and port (kube/request-guard.ts's guardTunnel, checked before it is sent).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { guardTunnel } from "./request-guard.ts";

/** The transport's one way to connect: TLS when `secure`, plain TCP otherwise. */
export interface Door {
  connect(options: tls.ConnectionOptions, secure: boolean): net.Socket;
}

/** Node's own connect: the door where no egress guard is installed (the in-process test tiers). */
export const NODE_DOOR: Door = { connect: (options, secure) => (secure ? tls.connect(options) : net.connect(options as net.NetConnectOpts)) };

type AgentKey = { _agentKey?: string };
interface SessionCache {
  _getSession(key: string): Buffer | undefined;
  _cacheSession(key: string, session: Buffer): void;
  _evictSession(key: string): void;
}

/** https.Agent connecting through a door, keeping TLS sessions for resumption as Node's own does. */
export class DoorAgent extends https.Agent {
  readonly door: Door;
  constructor(door: Door, options: https.AgentOptions) {
    super(options);
    this.door = door;
  }
  override createConnection(options: http.RequestOptions): Duplex | null | undefined {
    const key = (options as AgentKey)._agentKey;
    const cache = this as unknown as SessionCache;
    const session = key ? cache._getSession(key) : undefined;
    const socket = this.door.connect({ ...(options as tls.ConnectionOptions), ...(session ? { session } : {}) }, true);
    if (key) {
      socket.on("session", (s: Buffer) => cache._cacheSession(key, s));
      socket.once("close", (hadError: boolean) => hadError && cache._evictSession(key));
    }
    return socket;
  }
}

/** http.Agent (an http:// server) connecting through a door. */
export function plainDoorAgent(door: Door): http.Agent {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  (agent as unknown as { createConnection: (options: net.NetConnectOpts) => net.Socket }).createConnection = (options) => door.connect(options as tls.ConnectionOptions, false);
  return agent;
}

/** Tunnels through an HTTP(S) proxy with CONNECT, as kubectl does for HTTPS_PROXY / proxy-url. */
export class TunnelAgent extends DoorAgent {
  readonly proxy: URL;
  /** The API server: the one host and port a CONNECT may name. */
  readonly server: URL;
  constructor(proxy: URL, server: URL, options: https.AgentOptions, door: Door) {
    super(door, options);
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
      createConnection: (options) => this.door.connect(options as tls.ConnectionOptions, this.proxy.protocol === "https:"),
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
