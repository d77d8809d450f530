// The network layer of "read-only by construction": one door out of the process. Every TCP or
// TLS connection Node makes — node:net, node:tls, http, https, http2, fetch (undici), a library's
// own client — ends in one native method, the TCP handle's connect (Node's tcp_wrap binding); every
// Unix socket in the pipe handle's; every datagram in the UDP handle's; every name lookup in the
// c-ares binding. Installed before any module of ours runs (main.ts; in the npm bin, first by its
// loader, cli/code-cache.ts), this guard replaces those methods on the bindings' prototypes,
// which every copy of node:net shares however it was reached (getBuiltinModule, createRequire,
// mainModule.require, a vm context, a library's own import): a handle connects only when the door
// made it, listens and binds never, sends no datagram, opens no descriptor but stdin, stdout and
// stderr, and a name is looked up only for the door. It also refuses what writes outside the
// process without a file call: the inspector (it listens), heap snapshots, diagnostic reports,
// trace files, WASI, loader hooks (they run in a thread of their own) and V8 flags but the ones the
// plugin sets. Its limits are in docs/architecture.md ("One door to the network").
//
// A refused connect, bind or send is answered as the operating system would answer it (EACCES:
// the caller's error path runs as for any failed connection) and remembered: the shell turns the
// first refusal into the command's one `error: refused to …` line, exit 1, stdout empty.
import type { LookupFunction, Socket } from "node:net";
import { ReadOnlyError, sanitize } from "../errors.ts";
import type { Door } from "../kube/connect.ts";
import { guardDiagnostics, patchDiagnosticExports, type Fn, type GuardTools, type Methods } from "./egress-diagnostics.ts";

type Bindings = (name: string) => Methods;
interface Connector {
  connect(options: object): Socket;
}
type Lookup = (hostname: string, options: object, callback: (...args: unknown[]) => void) => void;

const WHY = "the plugin only reads (its one connection is its transport's, to the API server or its proxy)";
const WRITE_WHY = "the plugin only reads (it writes nothing outside the process)";

// Captured when this module is evaluated, before the process guard refuses process.binding.
const binding: Bindings = (process as unknown as { binding: Bindings }).binding.bind(process);
const builtin = (id: string): Methods => process.getBuiltinModule(id) as unknown as Methods;

/** Handles the door made: the only ones whose connect runs. */
const permitted = new WeakSet<object>();
/** The host name the door is looking up at this instant (lookups start synchronously). */
let lookingUp: string | undefined;
let refusal: ReadOnlyError | undefined;
let installed = false;
let eaccess: number | undefined;

/** Remembers the first refusal (the shell reports it) and returns libuv's EACCES for the caller. */
function refuse(what: string): number {
  refusal ??= new ReadOnlyError(`refused to ${sanitize(what)}: ${WHY}`);
  if (eaccess === undefined) {
    const errno = (builtin("node:util").getSystemErrorMap as () => Map<number, [string, string]>)();
    for (const [code, [name]] of errno) if (name === "EACCES") eaccess = code;
  }
  return eaccess ?? -13;
}

/** The first refusal since the last call, if any (runCli and main.ts take it). */
export function takeEgressRefusal(): ReadOnlyError | undefined {
  const taken = refusal;
  refusal = undefined;
  return taken;
}

function replace(target: Methods, key: string, make: (original: Fn) => Fn): void {
  // A plain boolean, not a type guard: narrowing would type the member as Function.
  const callable = (value: unknown): boolean => typeof value === "function";
  if (!callable(target[key])) return;
  // The member keeps its flags (a binding's methods are enumerable): only its value changes.
  Object.defineProperty(target, key, { ...Object.getOwnPropertyDescriptor(target, key), value: make(target[key] as Fn) });
}

const address = (host: unknown, port: unknown): string => (String(host).includes(":") ? `[${String(host)}]:${String(port)}` : `${String(host)}:${String(port)}`);
const stdio = (fd: unknown): boolean => fd === 0 || fd === 1 || fd === 2;

/**
 * What each binding's handle may do, by method. A method not named here is left as it is; the
 * classification test (test/guarantees/egress-guard.test.ts) fails on any method of these prototypes
 * that is neither here nor on its list of harmless ones, so a new Node cannot add one unseen.
 */
export const GUARDED_HANDLE_METHODS: Readonly<Record<string, readonly string[]>> = {
  "tcp_wrap.TCP": ["connect", "connect6", "bind", "bind6", "listen", "open"],
  "pipe_wrap.Pipe": ["connect", "bind", "listen", "open"],
  "udp_wrap.UDP": ["connect", "connect6", "bind", "bind6", "send", "send6", "open"],
  "cares_wrap.ChannelWrap": [
    "queryAny",
    "queryA",
    "queryAaaa",
    "queryCaa",
    "queryCname",
    "queryMx",
    "queryNs",
    "queryTxt",
    "querySrv",
    "queryPtr",
    "queryNaptr",
    "querySoa",
    "getHostByAddr",
    "setLocalAddress",
  ],
  cares_wrap: ["getaddrinfo", "getnameinfo"],
};

function guardSockets(): void {
  const tcp = (binding("tcp_wrap").TCP as { prototype: Methods }).prototype;
  for (const key of ["connect", "connect6"]) {
    replace(
      tcp,
      key,
      (original) =>
        function connect(this: unknown, ...args: unknown[]) {
          return permitted.has(this as object) ? original.apply(this, args) : refuse(`connect to ${address(args[1], args[2])}`);
        },
    );
  }
  for (const key of ["bind", "bind6"])
    replace(
      tcp,
      key,
      () =>
        (...args: unknown[]) =>
          refuse(`bind a socket to ${address(args[0], args[1])}`),
    );
  replace(tcp, "listen", () => () => refuse("listen for connections"));
  replace(
    tcp,
    "open",
    (original) =>
      function open(this: unknown, ...args: unknown[]) {
        return stdio(args[0]) ? original.apply(this, args) : refuse(`open socket descriptor ${String(args[0])}`);
      },
  );
  const pipe = (binding("pipe_wrap").Pipe as { prototype: Methods }).prototype;
  replace(
    pipe,
    "connect",
    () =>
      (...args: unknown[]) =>
        refuse(`connect to socket ${String(args[1])}`),
  );
  replace(
    pipe,
    "bind",
    () =>
      (...args: unknown[]) =>
        refuse(`bind socket ${String(args[0])}`),
  );
  replace(pipe, "listen", () => () => refuse("listen for connections"));
  // stdin, stdout and stderr may be pipes or sockets: Node opens them as such.
  replace(
    pipe,
    "open",
    (original) =>
      function open(this: unknown, ...args: unknown[]) {
        return stdio(args[0]) ? original.apply(this, args) : refuse(`open socket descriptor ${String(args[0])}`);
      },
  );
  const udp = (binding("udp_wrap").UDP as { prototype: Methods }).prototype;
  for (const key of ["send", "send6"])
    replace(
      udp,
      key,
      () =>
        (...args: unknown[]) =>
          refuse(`send a datagram to ${address(args[4], args[3])}`),
    );
  for (const key of ["connect", "connect6", "bind", "bind6"])
    replace(
      udp,
      key,
      () =>
        (...args: unknown[]) =>
          refuse(`${key.replace("6", "")} a datagram socket to ${address(args[0], args[1])}`),
    );
  replace(
    udp,
    "open",
    () =>
      (...args: unknown[]) =>
        refuse(`open socket descriptor ${String(args[0])}`),
  );
  const cares = binding("cares_wrap");
  replace(
    cares,
    "getaddrinfo",
    (original) =>
      function getaddrinfo(this: unknown, ...args: unknown[]) {
        return lookingUp !== undefined && args[1] === lookingUp ? original.apply(this, args) : refuse(`look up ${String(args[1])}`);
      },
  );
  replace(
    cares,
    "getnameinfo",
    () =>
      (...args: unknown[]) =>
        refuse(`look up the name of ${String(args[1])}`),
  );
  const channel = (cares.ChannelWrap as { prototype: Methods }).prototype;
  for (const key of GUARDED_HANDLE_METHODS["cares_wrap.ChannelWrap"]!)
    replace(
      channel,
      key,
      () =>
        (...args: unknown[]) =>
          refuse(`query DNS for ${String(args[1])}`),
    );
}

/** Throws: a call that would write outside the process or open a way in. */
function thrower(what: string): Fn {
  // A function, not an arrow: `new inspector.Session()` and `new WASI()` are refused with the same line.
  return function refuseCall() {
    throw (refusal ??= new ReadOnlyError(`refused to ${what}: ${WRITE_WHY}`));
  };
}

/**
 * A built-in being handed out (the process guard's hook on getBuiltinModule and Node's CommonJS
 * loader): its members that write or listen are replaced first (cli/egress-diagnostics.ts).
 */
export function patchEgressExports(id: string, module: unknown): void {
  if (installed) patchDiagnosticExports(id, module, TOOLS);
}

const TOOLS: GuardTools = { binding, builtin, replace, thrower };

/**
 * Installs the guard in this process (once; later calls do nothing). `alreadyLoaded` says whether
 * a built-in is loaded already: those are patched now, the others when first handed out (never
 * loaded here: node:wasi alone warns on stderr, and node:v8 and node:inspector cost milliseconds).
 */
export function installEgressGuard(alreadyLoaded: (name: string) => boolean): void {
  if (installed) return;
  installed = true;
  guardSockets();
  guardDiagnostics(alreadyLoaded, TOOLS);
}

// ---------------------------------------------------------------- the door

const unbracket = (host: string): string => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host);
const portOf = (url: URL): string => url.port || (url.protocol === "https:" ? "443" : "80");

/**
 * A door to `destinations` (the API server, and the proxy when there is one) and nowhere else: a
 * connection it makes is the only kind whose handle may connect once the guard is installed.
 * Without the guard (the in-process test tiers) it connects as Node does.
 */
export function openDoor(destinations: readonly URL[]): Door {
  const allowed = new Set(destinations.map((d) => `${unbracket(d.hostname)}:${portOf(d)}`));
  const net = builtin("node:net") as unknown as Connector;
  const tls = builtin("node:tls") as unknown as Connector;
  const dnsLookup = builtin("node:dns").lookup as Lookup;
  return {
    connect(options, secure) {
      const host = unbracket(options.host ?? "localhost");
      const target = `${host}:${String(options.port ?? (secure ? 443 : 80))}`;
      if (!allowed.has(target)) throw (refusal ??= new ReadOnlyError(`refused to connect to ${sanitize(target)}: ${WHY}`));
      const lookup: LookupFunction = (hostname, opts, callback) => {
        if (hostname !== host) return callback(new ReadOnlyError(`refused to look up ${sanitize(hostname)}: ${WHY}`), "", 4);
        lookingUp = hostname;
        try {
          dnsLookup(hostname, opts, callback as (...args: unknown[]) => void);
        } finally {
          lookingUp = undefined;
        }
      };
      const socket = (secure ? tls : net).connect({ ...options, lookup });
      // A TLS socket's handle wraps the TCP handle that connects (Node's TLSWrap keeps it as _parent).
      const handle = (socket as unknown as { _handle?: { _parent?: object } })._handle;
      if (handle) permitted.add(handle._parent ?? handle);
      return socket;
    },
  };
}
