// A fleet of 50 kubeconfig contexts for the bench's fleet case and test/e2e/fleet-fifty.e2e.test.ts:
// most point straight at the lab, some through a TCP proxy that holds every chunk a while each way
// (a far cluster), some at a port that never answers. The servers run in the calling process,
// so it must not block its event loop while the plugin runs (spawn, never spawnSync).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address().port));
  });
}

/** Holds each socket until close(): a server that hangs needs its sockets ended, or close() waits for them. */
function closer(server, sockets) {
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** A TCP proxy to `target` ({ host, port }) that delays every chunk by `delayMs` in each direction, in order. */
export async function slowProxy(target, delayMs) {
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const pipe = (from, to) => {
      from.on("data", (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
      from.on("end", () => setTimeout(() => to.destroyed || to.end(), delayMs));
    };
    pipe(client, upstream);
    pipe(upstream, client);
  });
  const port = await listen(server);
  return { port, close: closer(server, sockets) };
}

/** A port that accepts connections and never says a word (not even TLS's first): a cluster that hangs. */
export async function blackHole() {
  const sockets = new Set();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  const port = await listen(server);
  return { port, close: closer(server, sockets) };
}

/** A port nobody listens on (bound, then closed): connecting is refused at once. */
export async function closedPort() {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `contexts`: [{ name, port? }] in order; each is the source kubeconfig's current context (its
 * cluster's CA, its user) with the server's port replaced by `port` when given, on
 * 127.0.0.1. Written as JSON (a kubeconfig may be) to `file`; resolves to `file`.
 */
export async function writeFleetKubeconfig(source, contexts, namespace, file) {
  const yaml = (await import("js-yaml")).default;
  const doc = yaml.load(fs.readFileSync(source, "utf8"));
  const current = doc.contexts.find((c) => c.name === doc["current-context"]).context;
  const cluster = doc.clusters.find((c) => c.name === current.cluster).cluster;
  const user = doc.users.find((u) => u.name === current.user);
  const server = new URL(cluster.server);
  const clusters = [];
  const out = {
    apiVersion: "v1",
    kind: "Config",
    clusters,
    users: [{ ...user, name: "fleet-user" }],
    contexts: contexts.map((c) => {
      const url = new URL(server);
      if (c.port !== undefined) url.port = String(c.port);
      let name = clusters.find((k) => k.cluster.server === url.origin)?.name;
      if (!name) {
        name = `fleet-cluster-${clusters.length}`;
        clusters.push({ name, cluster: { ...cluster, server: url.origin } }); // the certificate names 127.0.0.1, whatever the port
      }
      return { name: c.name, context: { cluster: name, user: "fleet-user", namespace } };
    }),
    "current-context": contexts[0].name,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(out, null, 1));
  return file;
}

/**
 * The bench's and the e2e test's layout of `count` contexts: every 10th (from the 4th) through the slow
 * proxy, every 17th (from the 9th) at the dead port, the rest at the lab: 50 → 5 slow, 3 dead, 42 live.
 */
export function fleetLayout(count, ports) {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(2, "0");
    if (i % 10 === 3) return { name: `slow-${n}`, port: ports.slow, kind: "slow" };
    if (i % 17 === 8) return { name: `dead-${n}`, port: ports.dead, kind: "dead" };
    return { name: `live-${n}`, kind: "live" };
  });
}
