// Loopback networking: free ports from the OS, and a GET for health and readiness probes.
import http from "node:http";
import https from "node:https";
import net from "node:net";

/** `n` distinct free 127.0.0.1 ports (listened on at once, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(0, "127.0.0.1", resolve);
      });
      servers.push(s);
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Client TLS material (CA, certificate, key), or none for plain HTTP. */
export interface ClientTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export function httpGet(url: string, tls: ClientTls, timeoutMs = 5_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const request = u.protocol === "https:" ? https.request : http.request;
    const req = request({ method: "GET", host: u.hostname, port: u.port, path: u.pathname + u.search, timeout: timeoutMs, ...tls, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}
