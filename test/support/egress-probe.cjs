// The egress guard's probe (test/guarantees/egress-guard.test.ts runs it in a child process): loads
// the built guard (dist/npm/process-guard.cjs), installs it as the npm bin's loader does, then
// tries every way out it is given, each through every route to a built-in, and prints one JSON
// line per attempt: whether the guard refused it (a thrown refusal or a remembered one). The
// parent's listeners and folder say whether anything got out; this file only reports.
"use strict";
const { createRequire } = require("node:module");
const vm = require("node:vm");

const [guardPath, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const guard = require(guardPath);
// The socket handles' classes, taken before the guard refuses process.binding: every method the
// guard patches is then called on them directly (config.handles), as Node's own modules call it.
const raw = config.handles ? Object.fromEntries(["tcp_wrap", "pipe_wrap", "udp_wrap", "cares_wrap"].map((n) => [n, process.binding(n)])) : {};
/** Each guarded method's property, as Node defines it: the guard must keep its shape. */
const methodOwner = (where) => {
  const [name, cls] = where.split(".");
  return cls ? raw[name][cls].prototype : raw[name];
};
const shapes = () =>
  Object.entries(config.handles ?? {}).flatMap(([where, methods]) =>
    methods.map((m) => {
      const d = Object.getOwnPropertyDescriptor(methodOwner(where), m);
      return { way: `${where}.${m}`, value: d.value, flags: { writable: d.writable, enumerable: d.enumerable, configurable: d.configurable } };
    }),
  );
const shapesBefore = shapes();
// The control run (config.noGuard) shows the probe's ways do get out when nothing guards them.
if (!config.noGuard) {
  guard.installProcessGuard();
  guard.installEgressGuard();
}

const localRequire = createRequire(__filename);
/** The routes to a built-in a plant might take. */
const ROUTES = {
  require: (id) => Promise.resolve(require(id)),
  getBuiltinModule: (id) => Promise.resolve(process.getBuiltinModule(id)),
  createRequire: (id) => Promise.resolve(localRequire(id)),
  mainModule: (id) => Promise.resolve(process.mainModule.require(id)),
  vm: (id) => Promise.resolve(vm.runInNewContext("load(id)", { load: createRequire(__filename), id })),
  // An import() in a code string reaches Node's ES-module loader, which no hook of the guard sees.
  import: (id) => new Function("id", "return import(id)")(id).then((m) => m.default ?? m),
};

const { host, tcpPort, udpPort, unixPath, dir } = config;
const url = `http://${host}:${tcpPort}/api/v1/namespaces/default`;
const ended = (emitter, ...events) => new Promise((resolve) => events.forEach((e) => emitter.once(e, resolve)));
const socketDone = (s) => ended(s, "error", "close", "connect", "secureConnect");
const listenDone = (server) => ended(server, "error", "listening");

/** Each way out: the module it needs, and what a plant would do with it. */
const WAYS = {
  "net.connect": ["node:net", (m) => socketDone(m.connect(tcpPort, host))],
  "net.Socket.connect": ["node:net", (m) => socketDone(new m.Socket().connect({ port: tcpPort, host }))],
  "net.connect (a name)": ["node:net", (m) => socketDone(m.connect(tcpPort, "localhost"))],
  "net.connect (unix socket)": ["node:net", (m) => socketDone(m.connect(unixPath))],
  "net.createServer.listen": ["node:net", (m) => listenDone(m.createServer().listen(0, host))],
  // Descriptor 3 is a connected socket the parent handed down: adopting it would be a way out.
  "net.Socket (an inherited descriptor)": [
    "node:net",
    (m) => {
      const s = new m.Socket({ fd: 3 });
      s.write("x");
      return socketDone(s);
    },
  ],
  "tls.connect": ["node:tls", (m) => socketDone(m.connect({ port: tcpPort, host, rejectUnauthorized: false }))],
  "http.request DELETE": ["node:http", (m) => new Promise((resolve) => m.request(url, { method: "DELETE" }).on("error", resolve).on("response", resolve).end())],
  "http.Agent.createConnection PATCH": [
    "node:http",
    (m) =>
      socketDone(
        new m.Agent().createConnection({ port: tcpPort, host }).on("connect", function () {
          this.write(`PATCH /api HTTP/1.1\r\nhost: x\r\n\r\n`);
        }),
      ),
  ],
  "http.createServer.listen": ["node:http", (m) => listenDone(m.createServer().listen(0, host))],
  "https.request DELETE": [
    "node:https",
    (m) => new Promise((resolve) => m.request(`https://${host}:${tcpPort}/`, { method: "DELETE", rejectUnauthorized: false }).on("error", resolve).on("response", resolve).end()),
  ],
  "http2.connect": [
    "node:http2",
    (m) =>
      new Promise((resolve) => {
        const s = m.connect(`http://${host}:${tcpPort}`);
        s.on("error", resolve).on("connect", resolve);
      }),
  ],
  "dgram.send": [
    "node:dgram",
    (m) =>
      new Promise((resolve) => {
        const s = m.createSocket("udp4");
        s.on("error", resolve);
        s.send("x", udpPort, host, resolve);
      }),
  ],
  "dgram.bind": ["node:dgram", (m) => new Promise((resolve) => m.createSocket("udp4").on("error", resolve).bind(0, host, resolve))],
  "dns.resolve4": ["node:dns", (m) => new Promise((resolve) => m.resolve4("example.org", resolve))],
  "dns.lookup": ["node:dns", (m) => new Promise((resolve) => m.lookup("localhost", resolve))],
  "dns.lookupService": [
    "node:dns",
    (m) =>
      new Promise((resolve) => {
        try {
          m.lookupService(host, 22, resolve);
        } catch (e) {
          resolve(e);
        }
      }),
  ],
  "inspector.open": ["node:inspector", (m) => m.open(0, host)],
  "inspector.Session": ["node:inspector", (m) => new m.Session().connect()],
  "inspector/promises.Session": ["node:inspector/promises", (m) => new m.Session().connect()],
  "v8.writeHeapSnapshot": ["node:v8", (m) => m.writeHeapSnapshot(`${dir}/heap.heapsnapshot`)],
  "v8.setFlagsFromString": ["node:v8", (m) => m.setFlagsFromString("--prof")],
  "v8.setHeapSnapshotNearHeapLimit": ["node:v8", (m) => m.setHeapSnapshotNearHeapLimit(1)],
  "trace_events.createTracing": ["node:trace_events", (m) => m.createTracing({ categories: ["node"] }).enable()],
  "wasi.WASI": ["node:wasi", (m) => new m.WASI({ version: "preview1", preopens: { "/": dir } })],
  "module.register": ["node:module", (m) => m.register("data:text/javascript,export{}")],
  "process.report.writeReport": ["node:process", (m) => m.report.writeReport(`${dir}/report.json`)],
  "process.report.directory": [
    "node:process",
    (m) => {
      m.report.directory = dir;
    },
  ],
  "process.kill SIGUSR1": ["node:process", (m) => m.kill(m.pid, "SIGUSR1")],
  "child_process.spawn": ["node:child_process", (m) => m.spawn("true")],
  "worker_threads.Worker": ["node:worker_threads", (m) => new m.Worker("0", { eval: true })],
  "fs.writeFileSync": ["node:fs", (m) => m.writeFileSync(`${dir}/written`, "x")],
};
/** Globals that reach out without a module. */
const GLOBAL_WAYS = {
  fetch: () => fetch(url, { method: "DELETE" }),
};

/**
 * A direct call of each guarded handle method, with the arguments Node's modules pass it. A guard
 * that let one through would reach the listeners (or the resolver), or abort the probe on arguments
 * the native method does not expect: either way the test fails.
 */
const x = Buffer.from("x");
const HANDLE_CALLS = {
  "tcp_wrap.TCP": (b) => {
    const socket = () => new b.TCP(b.constants.SOCKET);
    const server = () => new b.TCP(b.constants.SERVER);
    return {
      connect: () => socket().connect(new b.TCPConnectWrap(), host, tcpPort),
      connect6: () => socket().connect6(new b.TCPConnectWrap(), "::1", tcpPort),
      bind: () => server().bind(host, 0),
      bind6: () => server().bind6("::1", 0, 0),
      listen: () => server().listen(1),
      open: () => socket().open(3),
    };
  },
  "pipe_wrap.Pipe": (b) => ({
    connect: () => new b.Pipe(b.constants.SOCKET).connect(new b.PipeConnectWrap(), unixPath),
    bind: () => new b.Pipe(b.constants.SERVER).bind(`${unixPath}.2`),
    listen: () => new b.Pipe(b.constants.SERVER).listen(1),
    open: () => new b.Pipe(b.constants.SOCKET).open(3),
  }),
  "udp_wrap.UDP": (b) => ({
    connect: () => new b.UDP().connect(host, udpPort),
    connect6: () => new b.UDP().connect6("::1", udpPort),
    bind: () => new b.UDP().bind(host, 0, 0),
    bind6: () => new b.UDP().bind6("::1", 0, 0),
    send: () => new b.UDP().send(new b.SendWrap(), [x], 1, udpPort, host, false),
    send6: () => new b.UDP().send6(new b.SendWrap(), [x], 1, udpPort, "::1", false),
    open: () => new b.UDP().open(3),
  }),
  // Every query* method the test names is called the same way.
  "cares_wrap.ChannelWrap": (b, methods) => {
    const query = (name) => () => new b.ChannelWrap(-1, 1)[name](new b.QueryReqWrap(), "example.org", false);
    return {
      ...Object.fromEntries(methods.filter((m) => m.startsWith("query")).map((m) => [m, query(m)])),
      getHostByAddr: () => new b.ChannelWrap(-1, 1).getHostByAddr(new b.QueryReqWrap(), host),
      setLocalAddress: () => new b.ChannelWrap(-1, 1).setLocalAddress(host, "::1"),
    };
  },
  cares_wrap: (b) => ({
    getaddrinfo: () => b.getaddrinfo(new b.GetAddrInfoReqWrap(), "example.org", 4, 0, 0),
    getnameinfo: () => b.getnameinfo(new b.GetNameInfoReqWrap(), host, 22),
  }),
};

async function handleRows(handles) {
  const rows = [];
  for (const [i, after] of shapes().entries()) {
    const before = shapesBefore[i];
    rows.push({ way: after.way, route: "shape", refused: false, message: "", replaced: after.value !== before.value, flags: after.flags, nodeFlags: before.flags });
  }
  // Standard input may be a pipe or a socket: Node opens descriptor 0 as one, and the guard lets it.
  for (const [where, make] of [
    ["tcp_wrap.TCP", () => new raw.tcp_wrap.TCP(raw.tcp_wrap.constants.SOCKET)],
    ["pipe_wrap.Pipe", () => new raw.pipe_wrap.Pipe(raw.pipe_wrap.constants.SOCKET)],
  ]) {
    const handle = make();
    rows.push({ way: `${where}.open(0)`, route: "stdin", ...(await attempt(() => handle.open(0))) });
  }
  for (const [where, methods] of Object.entries(handles)) {
    const calls = HANDLE_CALLS[where]?.(raw[where.split(".")[0]], methods) ?? {};
    for (const method of methods) {
      const call = calls[method];
      if (call === undefined) {
        rows.push({ way: `${where}.${method}`, route: "binding", refused: false, message: "the probe has no call for it" });
        continue;
      }
      let returned;
      const result = await attempt(() => {
        returned = call();
      });
      rows.push({ way: `${where}.${method}`, route: "binding", ...result, returned });
    }
  }
  return rows;
}

/** The transport's door (openDoor), opened and asked as each case the test gives says. */
async function doorRows(cases) {
  const rows = [];
  for (const { name, urls, options, secure } of cases) {
    let connected = false;
    const result = await attempt(async () => {
      const socket = guard.openDoor(urls.map((u) => new URL(u))).connect(options, secure);
      socket.once("connect", () => (connected = true));
      await socketDone(socket);
      socket.destroy();
    });
    rows.push({ way: `door: ${name}`, route: "door", ...result, connected });
  }
  // The door let "localhost" be looked up for its own connection only, not after it.
  const dns = require("node:dns");
  rows.push({ way: "door: its name looked up afterwards, outside it", route: "door", ...(await attempt(() => new Promise((resolve) => dns.lookup("localhost", resolve)))) });
  return rows;
}

/** An attempt the guard let through may wait forever (a server that never answers): bounded. */
const bounded = (promise) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve("not refused within 5 s"), 5000).unref())]);

async function attempt(run) {
  let thrown;
  try {
    await bounded(run());
  } catch (err) {
    thrown = err;
  }
  const remembered = guard.takeEgressRefusal();
  // The bundle's class names are minified: a refusal is known by its words.
  const refusal = remembered ?? (thrown instanceof Error && /^refused to /u.test(thrown.message) ? thrown : undefined);
  return { refused: Boolean(refusal), message: refusal ? refusal.message : String(thrown ?? "") };
}

async function main() {
  const only = config.only;
  // What this Node has: its built-ins, and the globals it adds to a bare V8 context.
  const bare = new Set(Object.getOwnPropertyNames(vm.runInNewContext("globalThis")));
  const globals = Object.getOwnPropertyNames(globalThis).filter((name) => !bare.has(name));
  const lines = [JSON.stringify({ builtinModules: require("node:module").builtinModules, globals, ways: Object.keys(WAYS).map((w) => [w, WAYS[w][0]]) })];
  for (const [way, [id, act]] of Object.entries(WAYS)) {
    if (only && !only.includes(way)) continue;
    for (const [route, load] of Object.entries(ROUTES)) {
      const result = await attempt(async () => act(await load(id)));
      lines.push(JSON.stringify({ way, route, ...result }));
    }
  }
  for (const [way, act] of Object.entries(GLOBAL_WAYS)) {
    if (only && !only.includes(way)) continue;
    lines.push(JSON.stringify({ way, route: "global", ...(await attempt(act)) }));
  }
  if (config.handles) for (const row of await handleRows(config.handles)) lines.push(JSON.stringify(row));
  if (config.doorCases) for (const row of await doorRows(config.doorCases)) lines.push(JSON.stringify(row));
  process.stdout.write(`${lines.join("\n")}\n`, () => process.exit(0));
}

main();
