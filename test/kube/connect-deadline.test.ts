// Making a connection is bounded as client-go bounds it (kube/connect-deadline.ts: a dial 30 s, a TLS
// handshake 10 s), whatever --request-timeout says: a server that accepts and never answers the
// handshake fails a run with --request-timeout=0 (no timeout) with kubectl's words, where it waited
// forever; a fleet names it on one line and the others print. The limits are shortened here so a
// test does not wait 10 s: CONNECT_LIMITS is what the transport reads.
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { boundConnect, CONNECT_LIMITS } from "../../src/kube/connect-deadline.ts";
import { FaultServer, makePki, runRealCli, tempDir, writeKubeconfig } from "../support/fault-server.ts";

let silent: net.Server;
const sockets = new Set<net.Socket>();
let port = 0;
const dir = tempDir("ptah-connect-deadline-");
const saved = { ...CONNECT_LIMITS };

beforeAll(async () => {
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
  });
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  port = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});
afterEach(() => Object.assign(CONNECT_LIMITS, saved));

describe("connecting to a server that never answers", () => {
  it("is client-go's: 30 s to dial, 10 s for the TLS handshake", () => {
    expect(saved).toEqual({ dialMs: 30_000, handshakeMs: 10_000 });
  });

  // Without the bound this run never ends: the harness's own limit (not a time asserted) makes that a failure.
  it("--request-timeout=0: the TLS handshake's limit ends it with kubectl's words (exit 1)", { timeout: 15_000 }, async () => {
    CONNECT_LIMITS.handshakeMs = 200;
    const kubeconfig = writeKubeconfig(dir, "silent", { server: `https://127.0.0.1:${port}` });
    const r = await runRealCli(["status", "--request-timeout=0"], { kubeconfig, home: dir });
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(`error: unable to connect to the server 127.0.0.1:${port}: net/http: TLS handshake timeout\n`);
  });

  it("a shorter --request-timeout still decides first", async () => {
    CONNECT_LIMITS.handshakeMs = 60_000;
    const kubeconfig = writeKubeconfig(dir, "silent-short", { server: `https://127.0.0.1:${port}` });
    const r = await runRealCli(["status", "--request-timeout=300ms"], { kubeconfig, home: dir });
    expect(r.stderr).toBe(`error: the server 127.0.0.1:${port} did not answer within 0.3s (--request-timeout)\n`);
  });
});

// A kept-alive socket outlives its first request: a listener left on it holds that request and what its
// response was read into (a LIST page's items) for the rest of the run, 20 MB at 5,000 schemas.
describe("a connection once made", () => {
  const pki = makePki(tempDir("ptah-connect-listeners-"));
  let server: FaultServer;
  beforeAll(async () => {
    server = await new FaultServer(pki.serverCert, pki.serverKey).start();
  });
  afterAll(() => server.close());

  /** The listeners on the socket after one request over a new kept-alive connection, with or without the bound. */
  async function listenersAfterOneRequest(bound: boolean): Promise<Record<string, number>> {
    const agent = new https.Agent({ keepAlive: true, ca: fs.readFileSync(pki.caFile) });
    try {
      const req = https.request(`${server.url}/api`, { agent });
      if (bound) boundConnect(req, true);
      const socket = await new Promise<net.Socket>((resolve, reject) => {
        req.once("error", reject);
        req.once("response", (res) => {
          res.resume();
          res.once("end", () => setImmediate(() => resolve(req.socket as net.Socket)));
        });
        req.end();
      });
      return Object.fromEntries(["connect", "secureConnect", "close", "error", "timeout"].map((e) => [e, socket.listenerCount(e)]));
    } finally {
      agent.destroy();
    }
  }

  it("keeps no listener of the bound's: the socket holds nothing of the request", async () => {
    const without = await listenersAfterOneRequest(false);
    expect(await listenersAfterOneRequest(true)).toEqual(without);
  });
});
