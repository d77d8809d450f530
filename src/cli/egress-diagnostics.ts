// The egress guard's second half (cli/egress-guard.ts installs it): what writes outside the process
// or opens a way in without a socket or file call of its own — the inspector (it listens), heap
// snapshots, diagnostic reports, trace files, WASI, loader hooks (they run in a thread of their
// own), V8 flags but the ones the plugin sets, SIGUSR1 (it opens the inspector) and a parent's IPC
// channel. Each is refused with one `error: refused to …` line.

export type Fn = (this: unknown, ...args: unknown[]) => unknown;
export type Methods = Record<string, unknown>;

/** What the egress guard hands this module: its binding and built-in access and its refusals. */
export interface GuardTools {
  readonly binding: (name: string) => Methods;
  readonly builtin: (id: string) => Methods;
  readonly replace: (target: Methods, key: string, make: (original: Fn) => Fn) => void;
  readonly thrower: (what: string) => Fn;
}

/** The V8 flags the plugin sets (locks/parser.ts, kube/young-generation.ts); any other is refused. */
const V8_FLAGS = new Set(["--liftoff-only", "--semi-space-growth-factor=1", "--optimize-for-size"]);

/** Module members that write or listen without a socket or file call of their own. */
const EXPORT_GUARDS: Readonly<Record<string, (module: Methods, tools: GuardTools) => void>> = {
  v8(m, { replace, thrower }) {
    replace(m, "writeHeapSnapshot", () => thrower("write a heap snapshot"));
    // Its binding is guarded too (below), but node:v8 arms it once and then returns without a word.
    replace(m, "setHeapSnapshotNearHeapLimit", () => thrower("arrange a heap snapshot"));
  },
  trace_events: (m, { replace, thrower }) => replace(m, "createTracing", () => thrower("write a trace file")),
  wasi: (m, { replace, thrower }) => replace(m, "WASI", () => thrower("start a WASI instance (it reaches the file system)")),
  module: (m, { replace, thrower }) => replace(m, "register", () => thrower("register loader hooks (they run in a thread this guard does not reach)")),
};

/**
 * The inspector and V8's flags, guarded in their bindings before node:inspector or node:v8 loads:
 * those modules take the binding's functions when they load, so every way to them (an `import()`
 * in a code string too) gets the guarded ones.
 */
function guardDiagnosticBindings({ binding, replace, thrower }: GuardTools): void {
  const inspector = binding("inspector");
  replace(inspector, "open", () => thrower("open the inspector (it listens for a debugger)"));
  replace(inspector, "waitForDebugger", () => thrower("wait for a debugger"));
  for (const key of ["Connection", "MainThreadConnection"]) replace(inspector, key, () => thrower("start an inspector session"));
  // process.binding("v8") warns of its deprecation once: not at every start of the plugin.
  const proc = process as unknown as { noDeprecation?: boolean };
  const quiet = proc.noDeprecation;
  proc.noDeprecation = true;
  const v8 = binding("v8");
  proc.noDeprecation = quiet;
  replace(v8, "setHeapSnapshotNearHeapLimit", () => thrower("arrange a heap snapshot"));
  replace(
    v8,
    "setFlagsFromString",
    (original) =>
      function setFlagsFromString(this: unknown, ...args: unknown[]) {
        if (!V8_FLAGS.has(String(args[0]))) thrower(`set the V8 flag ${String(args[0])}`)();
        return original.apply(this, args);
      },
  );
}
const patchedExports = new WeakSet<object>();

/**
 * A built-in being handed out: its members that write or listen are replaced first. Modules are
 * patched when first handed out, not loaded here: node:inspector or node:wasi would cost every start.
 */
export function patchDiagnosticExports(id: string, module: unknown, tools: GuardTools): void {
  const guard = EXPORT_GUARDS[id.replace(/^node:/u, "")];
  // node:module is a function (the CommonJS Module class); the others are objects.
  if (!guard || (typeof module !== "object" && typeof module !== "function") || module === null || patchedExports.has(module)) return;
  patchedExports.add(module);
  guard(module as Methods, tools);
}

/** process.report's writes (a report is a file), patched when the report object is first read. */
function guardReport(report: Methods, { replace, thrower }: GuardTools): Methods {
  if (patchedExports.has(report)) return report;
  patchedExports.add(report);
  replace(report, "writeReport", () => thrower("write a diagnostic report"));
  for (const key of ["directory", "filename", "reportOnFatalError", "reportOnSignal", "reportOnUncaughtException", "signal"]) {
    const d = Object.getOwnPropertyDescriptor(report, key);
    if (d?.set) Object.defineProperty(report, key, { ...d, set: thrower("change where or when a diagnostic report is written") });
  }
  return report;
}

/** The inspector's and V8's bindings, process.report, signals and the IPC channel; built-ins already loaded. */
export function guardDiagnostics(alreadyLoaded: (name: string) => boolean, tools: GuardTools): void {
  guardDiagnosticBindings(tools);
  const { builtin, thrower } = tools;
  const proc = process as unknown as Methods;
  const report = Object.getOwnPropertyDescriptor(process, "report");
  if (report?.get) {
    const get = report.get.bind(process) as () => Methods;
    Object.defineProperty(process, "report", { ...report, get: () => guardReport(get(), tools) });
  }
  // SIGUSR1 to itself opens the inspector; _debugProcess sends it to another process.
  const kill = proc.kill as Fn;
  proc.kill = function (this: unknown, ...args: unknown[]) {
    if (args[1] === "SIGUSR1" || args[1] === 10) thrower("send SIGUSR1 (it opens the inspector)")();
    return kill.apply(this, args);
  };
  proc._debugProcess = thrower("open another process's inspector");
  if (typeof proc.send === "function") proc.send = thrower("send a message to the parent process");
  for (const name of Object.keys(EXPORT_GUARDS)) if (alreadyLoaded(name)) patchDiagnosticExports(name, builtin(`node:${name}`), tools);
}
