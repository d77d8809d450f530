// The egress guard (src/cli/egress-guard.ts) is an allowlist, proven on generated cases: in a child
// process with the built guard installed as the npm bin installs it (test/support/egress-probe.cjs),
// every way out the probe knows is tried through every route to a built-in (require,
// getBuiltinModule, createRequire, mainModule.require, a vm context, an import() in a code string),
// and each must be refused while this process's listeners (TCP, UDP, a Unix socket, an inherited
// connected socket) see no connection, no byte and no datagram, and the probe's folder stays empty.
// What the probe cannot list is classified instead: every built-in module of the Node that runs
// the probe, every global it adds to a bare V8 context, and every method of the socket handles
// the guard patches is allowed, guarded or irrelevant — an unclassified one fails, so a new Node
// cannot add a way out unseen. Each guarded module must have a way in the probe, and each guarded
// handle method is called directly on its handle, refused with its own line and EACCES. The
// transport's door (openDoor) reaches its destinations, by address, name, IPv6 and over TLS, and
// no other host or port.
import { spawn } from "node:child_process";
import dgram from "node:dgram";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUARDED_HANDLE_METHODS } from "../../src/cli/egress-guard.ts";
import { unclassified, BUILTIN_CLASSES, GLOBAL_CLASSES, HARMLESS_HANDLE_METHODS } from "../support/egress-classes.ts";
import { ensureNpmBundle, mutantEnv, REPO } from "../support/npm-bundle.ts";

interface Row {
  readonly way: string;
  readonly route: string;
  readonly refused: boolean;
  readonly message: string;
  /** A handle method's return value (route "binding"). */
  readonly returned?: unknown;
  /** Whether a door's socket connected (route "door"). */
  readonly connected?: boolean;
  /** A guarded method's property after the guard (route "shape"): replaced, with Node's flags kept. */
  readonly replaced?: boolean;
  readonly flags?: object;
  readonly nodeFlags?: object;
}
interface Facts {
  readonly builtinModules: readonly string[];
  readonly globals: readonly string[];
  readonly ways: readonly (readonly [string, string])[];
}

const seen = { connections: 0, bytes: 0, datagrams: 0 };
/** Connections the transport's door made to the one listener it may reach. */
let doorSeen = 0;
const closers: (() => void)[] = [];
let dir = "";
let config: Record<string, unknown> = {};
let inherited: net.Socket;

function listening<T extends net.Server>(server: T, ...args: unknown[]): Promise<T> {
  return new Promise((resolve) => server.listen(...(args as []), () => resolve(server)));
}

beforeAll(async () => {
  ensureNpmBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-egress-"));
  fs.mkdirSync(path.join(dir, "out"));
  const count = (s: net.Socket): void => {
    seen.connections++;
    s.on("data", (d: Buffer) => (seen.bytes += d.length));
    s.on("error", () => {});
  };
  const tcp = await listening(net.createServer(count), 0, "127.0.0.1");
  const unix = await listening(net.createServer(count), path.join(dir, "unix.sock"));
  const udp = dgram.createSocket("udp4").on("message", () => seen.datagrams++);
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  // A connected socket handed to the probe as descriptor 3; its peer counts what arrives.
  const peer = await listening(net.createServer(count), 0, "127.0.0.1");
  inherited = net.connect((peer.address() as net.AddressInfo).port, "127.0.0.1");
  await new Promise((resolve) => inherited.once("connect", resolve));
  await new Promise((resolve) => setImmediate(resolve));
  seen.connections = 0;
  closers.push(
    () => tcp.close(),
    () => unix.close(),
    () => udp.close(),
    () => peer.close(),
    () => inherited.destroy(),
  );
  // The door's destination, on every loopback address (a name, 127.0.0.1 and ::1 all reach it).
  const door = await listening(
    net.createServer((sock) => {
      doorSeen++;
      sock.on("error", () => {}).destroy();
    }),
    0,
    "::",
  );
  closers.push(() => door.close());
  config = {
    host: "127.0.0.1",
    tcpPort: (tcp.address() as net.AddressInfo).port,
    udpPort: udp.address().port,
    unixPath: path.join(dir, "unix.sock"),
    dir: path.join(dir, "out"),
    doorPort: (door.address() as net.AddressInfo).port,
  };
});
afterAll(() => {
  for (const close of closers) close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the probe; `guard: false` runs it with no guard installed (the control). */
function probe(extra: Record<string, unknown> = {}): Promise<{ facts: Facts; rows: Row[]; stderr: string }> {
  const guardModule = path.join(REPO, "dist", "npm", "process-guard.cjs");
  const child = spawn(process.execPath, [path.join(REPO, "test", "support", "egress-probe.cjs"), guardModule, JSON.stringify({ ...config, ...extra })], {
    stdio: ["ignore", "pipe", "pipe", inherited],
    // The mutation runner names its active mutant in the environment (test/mutation/mutate.mjs):
    // the probe's guard must see it too, or every mutant would be judged on the unmutated guard.
    env: { PATH: process.env.PATH, NODE_NO_WARNINGS: "1", ...mutantEnv() },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`the probe exited ${String(code)}: ${stderr}`));
      const [first, ...rest] = stdout.trim().split("\n");
      // Whatever got out has arrived at a listener by the time the probe's next attempt ends;
      // one more turn of this process's loop lets the listeners count it.
      setImmediate(() => resolve({ facts: JSON.parse(first!) as Facts, rows: rest.map((l) => JSON.parse(l) as Row), stderr }));
    });
  });
}

interface DoorCase {
  readonly name: string;
  /** The destinations the door is opened to. */
  readonly urls: readonly string[];
  /** What it is then asked to connect to. */
  readonly options: Record<string, unknown>;
  readonly secure: boolean;
  readonly outcome: Partial<Row>;
}

/** The door's cases, each with what must happen (the probe runs them; this file judges them). */
function doorCases(): DoorCase[] {
  const { host, tcpPort, doorPort: port } = config as { host: string; tcpPort: number; doorPort: number };
  const refusedAt = (target: string) => ({
    refused: true,
    message: `refused to connect to ${target}: the plugin only reads (its one connection is its transport's, to the API server or its proxy)`,
  });
  const reached = { refused: false, message: "", connected: true };
  // Nothing listens on 80 or 443 here: allowed means not refused by the guard.
  const allowed = { refused: false };
  const c = (name: string, url: string, options: Record<string, unknown>, secure: boolean, outcome: Partial<Row>): DoorCase => ({ name, urls: [url], options, secure, outcome });
  return [
    c("its destination", `http://${host}:${port}`, { host, port }, false, reached),
    c("its destination over TLS", `https://${host}:${port}`, { host, port, rejectUnauthorized: false }, true, reached),
    c("its destination by name", `http://localhost:${port}`, { host: "localhost", port }, false, reached),
    c("its destination with no host (localhost)", `http://localhost:${port}`, { port }, false, reached),
    c("its IPv6 destination", `http://[::1]:${port}`, { host: "::1", port }, false, reached),
    c("another port", `http://${host}:${port}`, { host, port: tcpPort }, false, refusedAt(`${host}:${tcpPort}`)),
    c("another host", `http://localhost:${port}`, { host, port }, false, refusedAt(`${host}:${port}`)),
    c("https, no port: 443", `https://${host}`, { host, port: 443, rejectUnauthorized: false }, true, allowed),
    c("https, no port: 80 refused", `https://${host}`, { host, port: 80 }, true, refusedAt(`${host}:80`)),
    c("https, no port asked: 443", `https://${host}`, { host, rejectUnauthorized: false }, true, allowed),
    c("http, no port: 80", `http://${host}`, { host, port: 80 }, false, allowed),
    c("http, no port: 443 refused", `http://${host}`, { host, port: 443 }, false, refusedAt(`${host}:443`)),
    c("http, no port asked: 80", `http://${host}`, { host }, false, allowed),
  ];
}

describe("the egress guard, in a child process", () => {
  let facts: Facts;
  let rows: Row[];
  beforeAll(async () => {
    ({ facts, rows } = await probe({ handles: GUARDED_HANDLE_METHODS, doorCases: doorCases().map(({ outcome: _, ...c }) => c) }));
  }, 120_000);

  it("refuses every way out through every route, with one refusal line each", () => {
    const ways = new Set(facts.ways.map(([w]) => w));
    const outs = rows.filter((r) => !["binding", "door", "shape", "stdin"].includes(r.route));
    expect(outs.length).toBe(ways.size * 6 + 1);
    const through = outs.filter((r) => !r.refused).map((r) => `${r.way} via ${r.route}: ${r.message}`);
    expect(through).toEqual([]);
    for (const r of outs) expect(r.message).toMatch(/^refused to [^\n]+: the plugin only reads \([^\n]+\)$/u);
  });

  it("refuses every guarded handle method called directly: its own line, and EACCES to the caller", () => {
    const { host, tcpPort, udpPort, unixPath } = config as { host: string; tcpPort: number; udpPort: number; unixPath: string };
    const socket = { listen: "listen for connections", open: "open socket descriptor 3" };
    const said: Record<string, Record<string, string>> = {
      "tcp_wrap.TCP": {
        ...socket,
        connect: `connect to ${host}:${tcpPort}`,
        connect6: `connect to [::1]:${tcpPort}`,
        bind: `bind a socket to ${host}:0`,
        bind6: "bind a socket to [::1]:0",
      },
      "pipe_wrap.Pipe": { ...socket, connect: `connect to socket ${unixPath}`, bind: `bind socket ${unixPath}.2` },
      "udp_wrap.UDP": {
        open: socket.open,
        connect: `connect a datagram socket to ${host}:${udpPort}`,
        connect6: `connect a datagram socket to [::1]:${udpPort}`,
        bind: `bind a datagram socket to ${host}:0`,
        bind6: "bind a datagram socket to [::1]:0",
        send: `send a datagram to ${host}:${udpPort}`,
        send6: `send a datagram to [::1]:${udpPort}`,
      },
      "cares_wrap.ChannelWrap": Object.fromEntries(
        GUARDED_HANDLE_METHODS["cares_wrap.ChannelWrap"]!.map((m) => [
          m,
          m === "getHostByAddr" ? `query DNS for ${host}` : m === "setLocalAddress" ? "query DNS for ::1" : "query DNS for example.org",
        ]),
      ),
      cares_wrap: { getaddrinfo: "look up example.org", getnameinfo: `look up the name of ${host}` },
    };
    const WHY = "the plugin only reads (its one connection is its transport's, to the API server or its proxy)";
    const expected = Object.entries(GUARDED_HANDLE_METHODS).flatMap(([where, methods]) =>
      methods.map((m) => ({ way: `${where}.${m}`, refused: true, message: `refused to ${said[where]![m]!}: ${WHY}`, returned: -os.constants.errno.EACCES })),
    );
    expect(rows.filter((r) => r.route === "binding").map(({ way, refused, message, returned }) => ({ way, refused, message, returned }))).toEqual(expected);
  });

  it("replaces each guarded method, keeping the property's flags as Node defines them, and lets stdin open", () => {
    const shapes = rows.filter((r) => r.route === "shape");
    expect(shapes.map((r) => r.way)).toEqual(Object.entries(GUARDED_HANDLE_METHODS).flatMap(([where, methods]) => methods.map((m) => `${where}.${m}`)));
    for (const r of shapes) {
      expect(r.replaced, r.way).toBe(true);
      expect(r.flags, r.way).toEqual(r.nodeFlags);
    }
    expect(rows.filter((r) => r.route === "stdin").map(({ way, refused }) => ({ way, refused }))).toEqual([
      { way: "tcp_wrap.TCP.open(0)", refused: false },
      { way: "pipe_wrap.Pipe.open(0)", refused: false },
    ]);
  });

  it("lets the transport's door reach its destinations, and no other host or port", () => {
    const door = Object.fromEntries(rows.filter((r) => r.route === "door").map((r) => [r.way.replace(/^door: /u, ""), r]));
    expect(door).toEqual({
      ...Object.fromEntries(doorCases().map((c) => [c.name, expect.objectContaining(c.outcome)])),
      "its name looked up afterwards, outside it": expect.objectContaining({
        refused: true,
        message: "refused to look up localhost: the plugin only reads (its one connection is its transport's, to the API server or its proxy)",
      }),
    });
    expect(doorSeen).toBe(5);
  });

  it("lets nothing reach a listener or the disk", () => {
    expect(seen).toEqual({ connections: 0, bytes: 0, datagrams: 0 });
    expect(fs.readdirSync(path.join(dir, "out"))).toEqual([]);
  });

  it("classifies every built-in module and every global of this Node", () => {
    expect(unclassified(facts.builtinModules, BUILTIN_CLASSES)).toEqual([]);
    // Under `npm run mutate` the guard's bundle carries Stryker's instrumentation, which keeps its
    // state in one global of its own; nothing else is excused.
    const globals = process.env.PTAH_UNDER_MUTATION ? facts.globals.filter((g) => g !== "__stryker__") : facts.globals;
    expect(unclassified(globals, GLOBAL_CLASSES)).toEqual([]);
  });

  it("has a way in the probe for every guarded module and global", () => {
    const probed = new Set(facts.ways.map(([, id]) => id.replace(/^node:/u, "")));
    const missing = Object.entries(BUILTIN_CLASSES)
      .filter(([name, c]) => c === "guarded" && !probed.has(name))
      .map(([name]) => name);
    expect(missing).toEqual([]);
    expect(
      Object.entries(GLOBAL_CLASSES)
        .filter(([, c]) => c === "guarded")
        .map(([name]) => name),
    ).toEqual(["fetch"]);
  });

  it("classifies every method of the socket handles it patches", () => {
    for (const [where, guarded] of Object.entries(GUARDED_HANDLE_METHODS)) {
      const [name, cls] = where.split(".");
      const bound = (process as unknown as { binding(n: string): Record<string, { prototype: object }> }).binding(name!);
      const target = cls ? bound[cls]!.prototype : bound;
      const methods = Object.getOwnPropertyNames(target).filter((k) => k !== "constructor" && typeof Object.getOwnPropertyDescriptor(target, k)?.value === "function");
      const harmless = HARMLESS_HANDLE_METHODS[where] ?? [];
      expect(
        methods.filter((m) => !guarded.includes(m) && !harmless.includes(m)),
        where,
      ).toEqual([]);
    }
  });
});

describe("the probe can fail", () => {
  it("without the guard, the same ways reach the listeners", async () => {
    const before = seen.connections + seen.datagrams;
    const { rows } = await probe({ noGuard: true, only: ["net.connect", "net.connect (unix socket)", "dgram.send"] });
    expect(rows.filter((r) => r.refused)).toEqual([]);
    for (let i = 0; i < 100 && seen.connections + seen.datagrams === before; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.connections + seen.datagrams - before).toBeGreaterThan(0);
    seen.connections = seen.bytes = seen.datagrams = 0;
  }, 60_000);

  it("an unclassified module or global is named", () => {
    expect(unclassified(["net", "sqlite"], BUILTIN_CLASSES)).toEqual(["sqlite"]);
    expect(unclassified(["fetch", "WebSocket"], GLOBAL_CLASSES)).toEqual(["WebSocket"]);
  });
});
