// The egress guard's classification (test/guarantees/egress-guard.test.ts): every built-in module
// and every global Node adds to a bare V8 context, and every method of the socket handles the guard
// patches. "guarded": a way out, refused by the guard, and the probe (egress-probe.cjs) tries it;
// "allowed": the plugin uses it, and what in it could reach out goes through a guarded module or
// binding (named in the comment); "irrelevant": it computes, or acts only inside the process.
export type EgressClass = "guarded" | "allowed" | "irrelevant";

export const BUILTIN_CLASSES: Readonly<Record<string, EgressClass>> = {
  // Sockets, datagrams and name lookups: the TCP, pipe, UDP and c-ares bindings.
  net: "guarded",
  tls: "guarded",
  http: "guarded",
  https: "guarded",
  http2: "guarded",
  dgram: "guarded",
  dns: "guarded",
  // Their internals and aliases end in the same bindings as the modules above.
  "dns/promises": "allowed",
  _http_agent: "allowed",
  _http_client: "allowed",
  _http_common: "irrelevant",
  _http_incoming: "irrelevant",
  _http_outgoing: "allowed",
  _http_server: "allowed",
  _tls_common: "irrelevant",
  _tls_wrap: "allowed",
  _stream_wrap: "irrelevant",
  // Writes or listeners without a socket or file call of their own; processes and threads.
  inspector: "guarded",
  "inspector/promises": "guarded",
  v8: "guarded",
  trace_events: "guarded",
  wasi: "guarded",
  module: "guarded",
  process: "guarded",
  child_process: "guarded",
  worker_threads: "guarded",
  fs: "guarded",
  // cluster forks through child_process; fs/promises writes through the process guard's rules.
  cluster: "allowed",
  "fs/promises": "allowed",
  // repl and readline write only to the streams they are given; tty to a terminal descriptor.
  repl: "allowed",
  readline: "irrelevant",
  "readline/promises": "irrelevant",
  tty: "irrelevant",
  assert: "irrelevant",
  "assert/strict": "irrelevant",
  async_hooks: "irrelevant",
  buffer: "irrelevant",
  console: "irrelevant",
  constants: "irrelevant",
  crypto: "irrelevant",
  diagnostics_channel: "irrelevant",
  domain: "irrelevant",
  events: "irrelevant",
  os: "irrelevant",
  path: "irrelevant",
  "path/posix": "irrelevant",
  "path/win32": "irrelevant",
  perf_hooks: "irrelevant",
  punycode: "irrelevant",
  querystring: "irrelevant",
  stream: "irrelevant",
  "stream/consumers": "irrelevant",
  "stream/promises": "irrelevant",
  "stream/web": "irrelevant",
  _stream_duplex: "irrelevant",
  _stream_passthrough: "irrelevant",
  _stream_readable: "irrelevant",
  _stream_transform: "irrelevant",
  _stream_writable: "irrelevant",
  string_decoder: "irrelevant",
  sys: "irrelevant",
  timers: "irrelevant",
  "timers/promises": "irrelevant",
  url: "irrelevant",
  util: "irrelevant",
  "util/types": "irrelevant",
  vm: "irrelevant",
  zlib: "irrelevant",
};

export const GLOBAL_CLASSES: Readonly<Record<string, EgressClass>> = {
  fetch: "guarded",
  // The module scope's names and the process: the process's ways are the "process" module's.
  process: "allowed",
  global: "irrelevant",
  require: "allowed",
  module: "allowed",
  exports: "irrelevant",
  __filename: "irrelevant",
  __dirname: "irrelevant",
  // Messaging inside the process (no worker can start), data, timers, streams, web types.
  ...Object.fromEntries(
    (
      "Buffer clearImmediate setImmediate URL URLSearchParams DOMException AbortController AbortSignal Event EventTarget TextEncoder TextDecoder " +
      "TransformStream TransformStreamDefaultController WritableStream WritableStreamDefaultController WritableStreamDefaultWriter ReadableStream " +
      "ReadableStreamDefaultReader ReadableStreamBYOBReader ReadableStreamBYOBRequest ReadableByteStreamController ReadableStreamDefaultController " +
      "ByteLengthQueuingStrategy CountQueuingStrategy TextEncoderStream TextDecoderStream CompressionStream DecompressionStream clearInterval " +
      "clearTimeout setInterval setTimeout queueMicrotask structuredClone atob btoa BroadcastChannel MessageChannel MessagePort MessageEvent " +
      "Blob File Performance PerformanceEntry PerformanceMark PerformanceMeasure PerformanceObserver PerformanceObserverEntryList " +
      "PerformanceResourceTiming performance FormData Headers Request Response crypto Crypto CryptoKey SubtleCrypto CustomEvent navigator Navigator"
    )
      .split(" ")
      .map((name) => [name, "irrelevant" as const]),
  ),
};

/** Methods of the patched handles that do not reach out (addresses, options, lifecycle). */
export const HARMLESS_HANDLE_METHODS: Readonly<Record<string, readonly string[]>> = {
  "tcp_wrap.TCP": ["getsockname", "getpeername", "setNoDelay", "setKeepAlive", "reset"],
  "pipe_wrap.Pipe": ["fchmod"],
  "udp_wrap.UDP": [
    "recvStart",
    "recvStop",
    "disconnect",
    "getpeername",
    "getsockname",
    "addMembership",
    "dropMembership",
    "addSourceSpecificMembership",
    "dropSourceSpecificMembership",
    "setMulticastInterface",
    "setMulticastTTL",
    "setMulticastLoopback",
    "setBroadcast",
    "setTTL",
    "bufferSize",
    "getSendQueueSize",
    "getSendQueueCount",
  ],
  "cares_wrap.ChannelWrap": ["getServers", "setServers", "cancel"],
  cares_wrap: ["canonicalizeIP", "strerror", "GetAddrInfoReqWrap", "GetNameInfoReqWrap", "QueryReqWrap", "ChannelWrap"],
};

/** The names in `present` that `classes` does not classify. */
export function unclassified(present: readonly string[], classes: Readonly<Record<string, EgressClass>>): string[] {
  return present.filter((name) => !Object.hasOwn(classes, name));
}
