// The process layer of "read-only by construction". Node's permission model can only be switched
// on by flags when the process starts, and the few things the plugin writes or runs are known only
// after it started (docs/decisions.md), so this guard does it in the process instead: installed
// before any command's code loads (main.ts; in the npm bin, first by its loader, code-cache.ts),
// it replaces, on the built-in module objects every importer shares (our bundle and our
// dependencies alike), what a read-only inspector never needs with a refusal that throws
// ReadOnlyError (one `error: refused to …` line, exit 1): every function of node:child_process,
// cluster's fork, worker_threads' Worker, process.dlopen, process.binding, process.kill of
// another process, and every function of node:fs and node:fs/promises not on an allowlist of reads.
// The few things the plugin does run or write are capabilities exported here, each limited, and
// used by one module each (eslint.read-only.js says which).
//
// child_process, worker_threads, cluster and fs/promises load tens of Node's internal modules
// (streams, net) that an offline start never loads: a module not yet loaded is patched when it is
// first handed out (process.getBuiltinModule, which the npm bin's loader and the single binary's
// require both use, and Node's own CommonJS loader), not loaded here.
import fs from "node:fs";
import type { ChildProcessByStdio, ExecFileException } from "node:child_process";
import path from "node:path";
import type { Readable } from "node:stream";
import { ReadOnlyError, sanitize } from "../errors.ts";
import { installEgressGuard as installEgress, patchEgressExports } from "./egress-guard.ts";

export { openDoor, takeEgressRefusal } from "./egress-guard.ts";

type Fn = (this: unknown, ...args: unknown[]) => unknown;
type ChildProcesses = typeof import("node:child_process");
type Target = Record<string, unknown>;

const WHY = {
  child: "the plugin only reads (the programs it runs are the kubeconfig's exec credential plugin and doctor's kubectl version)",
  worker: "the plugin only reads (it starts no worker)",
  addon: "the plugin only reads (it loads no native code)",
  write: "the plugin only reads (it writes only to stdout, stderr, its code cache and the new file plan --export or --sign names)",
  binding: "the plugin only reads (Node's internal bindings reach around this guard)",
  signal: "the plugin only reads (it signals no other process)",
};

function refused(what: string, why: string): never {
  throw new ReadOnlyError(`refused to ${what}: ${why}`);
}

/** What a file-system call names: its path, or its file descriptor. */
function named(target: unknown): string {
  if (typeof target === "number") return `file descriptor ${target}`;
  if (target instanceof URL) return sanitize(target.href);
  return sanitize(String(target));
}

// Reads the plugin, Node and our dependencies use; everything else on node:fs is refused.
// ReadStream, Dir and Stats are classes that read; open is allowed with a read-only flag only, and
// writeSync to stdout and stderr only (Node's own stdout stream for a file writes with it).
const FS_READS = new Set([
  ...["access", "exists", "stat", "lstat", "fstat", "statfs", "readFile", "read", "readv", "readdir", "opendir", "realpath", "readlink", "close"].flatMap((n) => [n, `${n}Sync`]),
  ...["createReadStream", "ReadStream", "FileReadStream", "Stats", "Dirent", "Dir", "promises"],
]);
const FS_PROMISES_READS = new Set(["access", "stat", "lstat", "statfs", "readFile", "readdir", "opendir", "realpath", "readlink"]);
const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND;

function readOnlyFlags(flags: unknown): boolean {
  if (flags === undefined || flags === null) return true;
  if (typeof flags === "number") return (flags & WRITE_FLAGS) === 0;
  return flags === "r" || flags === "rs" || flags === "sr";
}

/** open/openSync (and fs/promises' open): only to read. */
const openToRead = (original: Fn): Fn =>
  function open(this: unknown, ...args: unknown[]) {
    if (!readOnlyFlags(args[1])) refused(`write ${named(args[0])}`, WHY.write);
    return original.apply(this, args);
  };

const stdioOnly = (original: Fn): Fn =>
  function writeSync(this: unknown, ...args: unknown[]) {
    if (args[0] !== 1 && args[0] !== 2) refused(`write ${named(args[0])}`, WHY.write);
    return original.apply(this, args);
  };

interface Rule {
  /** Names left as they are; every other function (or accessor) is refused. */
  readonly reads?: ReadonlySet<string>;
  /** Only these names are refused (a module most of which starts nothing). */
  readonly only?: readonly string[];
  readonly limited?: Readonly<Record<string, (original: Fn) => Fn>>;
  readonly refusal: (args: unknown[]) => never;
}

const child = (): never => refused("start a child process", WHY.child);
const RULES: Readonly<Record<string, Rule>> = {
  fs: { reads: FS_READS, limited: { open: openToRead, openSync: openToRead, writeSync: stdioOnly }, refusal: (args) => refused(`write ${named(args[0])}`, WHY.write) },
  "fs/promises": { reads: FS_PROMISES_READS, limited: { open: openToRead }, refusal: (args) => refused(`write ${named(args[0])}`, WHY.write) },
  child_process: { reads: new Set(), refusal: child },
  cluster: { only: ["fork"], refusal: child },
  worker_threads: { only: ["Worker"], refusal: () => refused("start a worker", WHY.worker) },
};

// Captured when this module is evaluated (in the single binary, while its snapshot is built),
// before the guard replaces it.
const getBuiltinModule = process.getBuiltinModule.bind(process);
const getBuiltin = (id: string): unknown => getBuiltinModule(id);
/** Each module object this guard patched, with its functions as they were. */
const originals = new WeakMap<object, Readonly<Record<string, unknown>>>();
let installed = false;

function patch(name: string, target: Target | undefined): void {
  const rule = RULES[name];
  if (!rule || !target || originals.has(target)) return;
  const before: Record<string, unknown> = {};
  for (const key of rule.only ?? Object.getOwnPropertyNames(target)) {
    const d = Object.getOwnPropertyDescriptor(target, key);
    if (!d || rule.reads?.has(key)) continue;
    // An accessor is one of Node's lazily loaded classes (fs.WriteStream): refused unread, since
    // reading it would load the class (and Node's stream stack) at every start.
    if ("value" in d && typeof d.value !== "function") continue;
    if ("value" in d) before[key] = d.value;
    const limit = rule.limited?.[key];
    // A function, not an arrow: `new fs.WriteStream(…)` is refused with the same line.
    const value = limit
      ? limit(d.value as Fn)
      : function refuse(...args: unknown[]) {
          return rule.refusal(args);
        };
    Object.defineProperty(target, key, { value, writable: true, enumerable: d.enumerable, configurable: true });
  }
  originals.set(target, before);
  if (name === "fs") {
    // fs.promises loads fs/promises on first use: patched then.
    const promises = Object.getOwnPropertyDescriptor(target, "promises");
    if (promises?.get) {
      const load = promises.get.bind(target);
      Object.defineProperty(target, "promises", { enumerable: true, configurable: true, get: () => handOut("fs/promises", load() as Target) });
    }
  }
}

/** A built-in being handed out: patched first when it is one the guard watches. */
function handOut<T>(id: string, module: T): T {
  if (installed && typeof module === "object" && module !== null) patch(id.replace(/^node:/u, ""), module as Target);
  patchEgressExports(id, module);
  return module;
}

function loaded(name: string): boolean {
  return (process as unknown as { moduleLoadList: readonly string[] }).moduleLoadList.includes(`NativeModule ${name}`);
}

/** Installs the guard in this process (once; later calls do nothing). */
export function installProcessGuard(): void {
  if (installed) return;
  installed = true;
  patch("fs", fs as unknown as Target);
  // Under the ES-module loader (a test runner, node --import) a built-in can also arrive through
  // `import`, which no hook sees: each is loaded and patched now, at a cost that loader dwarfs.
  const esm = loaded("internal/modules/esm/loader");
  for (const name of Object.keys(RULES)) {
    if (esm || loaded(name) || (name === "fs/promises" && loaded("internal/fs/promises"))) patch(name, getBuiltin(`node:${name}`) as Target);
  }
  const proc = process as unknown as Target;
  proc.getBuiltinModule = (id: string) => handOut(id, getBuiltin(id));
  proc.dlopen = () => refused("load a native addon", WHY.addon);
  proc.binding = proc._linkedBinding = () => refused("reach Node's internal bindings", WHY.binding);
  const kill = process.kill.bind(process);
  proc.kill = (pid: number, signal?: string | number) => (pid === process.pid ? kill(pid, signal) : refused(`signal process ${pid}`, WHY.signal));
  // Node's own CommonJS loader (a package required from node_modules) hands out built-ins too.
  const Module = process.mainModule?.constructor as unknown as { _load?: Fn } | undefined;
  if (typeof Module?._load === "function") {
    const load = Module._load;
    Module._load = function (this: unknown, ...args: unknown[]) {
      return handOut(String(args[0]), load.apply(this, args));
    };
  }
  if (esm) (getBuiltin("node:module") as typeof import("node:module")).syncBuiltinESMExports();
}

/**
 * The network's one door (cli/egress-guard.ts), installed after the process guard, whose hooks
 * hand it each built-in as it is first handed out.
 */
export function installEgressGuard(): void {
  installEgress(loaded);
}

export function processGuardInstalled(): boolean {
  return installed;
}

/** A function of `name` as it was before the guard (loading the module when it is not yet). */
function original<T>(name: string, key: string): T {
  const module = getBuiltin(`node:${name}`) as Target;
  handOut(name, module);
  return (originals.get(module)?.[key] ?? module[key]) as T;
}

// ---------------------------------------------------------------- capabilities

/** stdout and stderr, written synchronously (cli/fd-output.ts): file descriptors 1 and 2 only. */
export function writeStdio(fd: number, buffer: Uint8Array, offset: number, length: number): number {
  if (fd !== 1 && fd !== 2) refused(`write ${named(fd)}`, WHY.write);
  return original<typeof fs.writeSync>("fs", "writeSync")(fd, buffer, offset, length);
}

/** doctor's one child process (cli/local.ts): exactly `kubectl version --client -o json`. */
export function runKubectlVersion(env: NodeJS.ProcessEnv, timeoutMs: number, done: (err: ExecFileException | null, stdout: string) => void): void {
  const execFile = original<ChildProcesses["execFile"]>("child_process", "execFile");
  execFile("kubectl", ["version", "--client", "-o", "json"], { env, timeout: timeoutMs, encoding: "utf8" }, done);
}

/**
 * The kubeconfig's exec credential plugin (kube/credentials.ts, handed this by cli/context.ts), run
 * as kubectl runs it: the command it names, no shell; its stdout read, its stderr the person's,
 * stdin only when it may prompt.
 */
export function startCredentialPlugin(command: string, args: readonly string[], env: NodeJS.ProcessEnv, interactive: boolean): ChildProcessByStdio<null, Readable, null> {
  const spawn = original<ChildProcesses["spawn"]>("child_process", "spawn");
  return spawn(command, args, { env, stdio: [interactive ? "inherit" : "ignore", "pipe", "inherit"] }) as unknown as ChildProcessByStdio<null, Readable, null>;
}

/**
 * Writes `data` to `file` opened with `flags`, by descriptor: Node's writeFileSync and
 * appendFileSync call fs.openSync through the module object, which is refused once the guard is on.
 */
function writeFile(file: string, data: string | Uint8Array, flags: string, mode: number): void {
  const fd = original<typeof fs.openSync>("fs", "openSync")(file, flags, mode);
  const write = original<typeof fs.writeSync>("fs", "writeSync");
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let offset = 0; offset < bytes.length;) offset += write(fd, bytes, offset, bytes.length - offset);
  } finally {
    fs.closeSync(fd);
  }
}

/** plan --export FILE and --sign (the RunContext's writeNewFile): one new file, never an existing one. */
export function createNewFile(file: string, text: string): void {
  writeFile(file, text, "wx", 0o644);
}

export interface CacheFolder {
  /** Replaces the entry `name` with `bytes` (written beside it, then renamed over it). */
  replace(name: string, bytes: Uint8Array): void;
  remove(name: string): void;
}

/** The code cache's writes (cli/code-cache.ts): files directly inside its folder, nowhere else. */
export function codeCacheFolder(dir: string): CacheFolder {
  const at = (name: string): string => {
    if (name !== path.basename(name) || name === "." || name === ".." || name === "") refused(`write ${named(path.join(dir, name))}`, WHY.write);
    return path.join(dir, name);
  };
  const mkdir = original<typeof fs.mkdirSync>("fs", "mkdirSync");
  const rename = original<typeof fs.renameSync>("fs", "renameSync");
  const unlink = original<typeof fs.unlinkSync>("fs", "unlinkSync");
  let made = false;
  return {
    replace(name, bytes) {
      if (!made) mkdir(dir, { recursive: true, mode: 0o700 });
      made = true;
      const temporary = at(`${name}.${process.pid}.tmp`);
      writeFile(temporary, bytes, "w", 0o600);
      rename(temporary, at(name));
    },
    remove(name) {
      try {
        unlink(at(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    },
  };
}

/** PTAH_CODE_CACHE_LOG: lines appended to the one file that variable names. */
export function codeCacheLog(file: string): (line: string) => void {
  return (line) => writeFile(file, line, "a", 0o666);
}
