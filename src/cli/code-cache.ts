// The npm bin's loader: the bundle is CommonJS (dist/npm/, one file per esbuild chunk,
// so a command loads only the chunks it reaches), each file compiled by vm.Script from V8's
// code cache when there is one, and its cache written on the first run into the user's cache
// folder. The files a start loads together are also packed into one script beside the first of
// them (krew/packs.mjs says why and which): a pack is compiled and cached as one file is. Node 20
// has no compile cache of its own (module.enableCompileCache is Node 22), so without this every
// start compiles the same ~400 KB again.
//
// A cache entry is named by the file's name, Node's version, the platform and the architecture,
// and holds the exact bytes of the source it was compiled from before V8's data: an entry is
// served only when those bytes equal the file's (one memcmp), so a changed bundle (even by a
// change of the same length, which V8's own check does not see) or another Node never meets an
// old entry, and V8 itself rejects an entry made under other V8 flags. Comparing bytes, not a
// digest, keeps node:crypto (its ~35 internal modules, 7-12 ms of an offline start) out of the
// start. A rejected, stale or missing entry is written after the run (createCachedData then also
// holds the functions that run compiled), replacing that file's entry. Nothing here ever fails a
// command: an unreadable or unwritable cache folder is the same as none. Its writes go through the
// process guard's capabilities (files directly inside the cache folder; the log file), and the guard
// itself is the first module it loads (startFromCodeCache).
//
//   PTAH_CODE_CACHE=off          compile every start (no reads, no writes)
//   PTAH_CODE_CACHE_DIR=DIR      the cache folder (default $XDG_CACHE_HOME/kubectl-ptah/code-cache,
//                                else ~/.cache/kubectl-ptah/code-cache)
//   PTAH_CODE_CACHE_LOG=FILE     appends one line per script compiled, `hit|miss|stale|rejected|off PATH`
//                                (PATH a file, or a pack), and one per file run from a pack, `packed PATH`
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Script } from "node:vm";
import type * as ProcessGuard from "./process-guard.ts";

export type CacheOutcome = "hit" | "miss" | "stale" | "rejected" | "off";
/** A log line's first word: a script's outcome (a file alone, or a pack), or "packed" for a file run from a pack read before. */
export type LoadEvent = CacheOutcome | "packed";

interface LoadedModule {
  exports: unknown;
}

/** The cache folder for this environment, or undefined when the cache is off. */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string = env.HOME || process.getBuiltinModule("node:os").homedir()): string | undefined {
  if (env.PTAH_CODE_CACHE === "off" || env.PTAH_CODE_CACHE === "0") return undefined;
  if (env.PTAH_CODE_CACHE_DIR) return path.resolve(env.PTAH_CODE_CACHE_DIR);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home ? path.join(home, ".cache") : undefined;
  return base ? path.join(base, "kubectl-ptah", "code-cache") : undefined;
}

/** The entry's name for `file`: its file's name and the runtime (what the entry holds is checked by its bytes). */
export function cacheEntryName(file: string, runtime: string = `${process.version} ${process.platform} ${process.arch}`): string {
  return `${path.basename(file)}.${runtime.replace(/[^A-Za-z0-9.]+/gu, "-")}.v8`;
}

// An entry: this magic, the source's byte length (u32, little-endian), the source's bytes, V8's data.
const MAGIC = Buffer.from("ptah-code-cache 1\n", "latin1");
const HEADER = MAGIC.length + 4;

/** The entry's bytes for `source` and V8's `data`. */
export function encodeEntry(source: Buffer, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(source.length);
  return Buffer.concat([MAGIC, length, source, data]);
}

/** V8's data in `entry` when it was made from exactly `source`; undefined for another source or a damaged entry. */
export function decodeEntry(entry: Buffer, source: Buffer): Buffer | undefined {
  if (entry.length <= HEADER + source.length || !entry.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (entry.readUInt32LE(MAGIC.length) !== source.length) return undefined;
  if (!entry.subarray(HEADER, HEADER + source.length).equals(source)) return undefined;
  return entry.subarray(HEADER + source.length);
}

// The CommonJS wrapper, on one line so that the bundle's line numbers stay its own.
const HEAD = "(function (exports, require, module, __filename, __dirname) {";
const TAIL = "\n})";

/** A file's wrapper as compiled (alone, or as a member of a pack). */
type Wrapper = (e: unknown, r: unknown, m: LoadedModule, f: string, d: string) => void;

/** What a pack beside a file is named (krew/packs.mjs writes them, with the same suffix and wrapper). */
export const PACK_SUFFIX = ".pack";

export class CodeCacheLoader {
  private readonly modules = new Map<string, LoadedModule>();
  /** Members of the packs read so far that have not run yet. */
  private readonly packed = new Map<string, Wrapper>();
  private readonly unsaved: Array<{ script: Script; file: string; entry: string; source: Buffer }> = [];
  /** Node's own require, for the optional packages the bundle asks for (from the bundle's folder). */
  private nodeRequire?: NodeJS.Require;

  private readonly dir: string | undefined;
  private readonly log: ((event: LoadEvent, file: string) => void) | undefined;

  private readonly read: ((file: string) => Buffer) | undefined;

  /**
   * `read`: a file's bytes, for a tree that is not in files (the single binary's SEA assets:
   * startFromSeaAssets); such a tree has no packages beside it either.
   */
  constructor(dir: string | undefined, log?: (event: LoadEvent, file: string) => void, read?: (file: string) => Buffer) {
    this.dir = dir;
    this.log = log;
    this.read = read;
  }

  /**
   * Loads `file` (absolute) as CommonJS, once; relative requires inside go through here too. A file
   * a pack read before holds runs from there; else the pack beside the file, when there is one,
   * is read first (the file and what it reaches: krew/packs.mjs), else the file alone.
   */
  load(file: string): unknown {
    const known = this.modules.get(file);
    if (known) return known.exports;
    if (!this.packed.has(file)) this.readPack(file);
    let wrapper = this.packed.get(file);
    if (wrapper) {
      this.packed.delete(file);
      this.log?.("packed", file);
    } else {
      const { script, outcome } = this.compile(file, this.bytes(file), true);
      this.log?.(outcome, file);
      wrapper = script.runInThisContext() as Wrapper;
    }
    const module: LoadedModule = { exports: {} };
    this.modules.set(file, module);
    const dirname = path.dirname(file);
    const require = (id: string): unknown => (id.startsWith("./") || id.startsWith("../") ? this.load(path.resolve(dirname, id)) : this.external(id, file));
    wrapper.call(module.exports, module.exports, require, module, file, dirname);
    return module.exports;
  }

  /** The pack beside `file`, if any: its members that have not run are kept to run when asked for. */
  private readPack(file: string): void {
    const pack = file + PACK_SUFFIX;
    let source: Buffer;
    try {
      source = this.bytes(pack);
    } catch {
      return; // no pack: the file is read alone
    }
    const { script, outcome } = this.compile(pack, source, false);
    this.log?.(outcome, pack);
    const members = script.runInThisContext() as unknown[];
    const folder = path.dirname(pack);
    for (let i = 0; i + 1 < members.length; i += 2) {
      const member = path.resolve(folder, members[i] as string);
      if (!this.modules.has(member) && !this.packed.has(member)) this.packed.set(member, members[i + 1] as Wrapper);
    }
  }

  private bytes(file: string): Buffer {
    return this.read ? this.read(file) : readFileSync(file);
  }

  /** `file`'s script from its code cache when the cache holds these bytes; its entry written at exit otherwise. */
  private compile(file: string, source: Buffer, wrap: boolean): { script: Script; outcome: CacheOutcome } {
    const entry = this.dir === undefined ? undefined : cacheEntryName(file);
    const stored = entry === undefined ? undefined : readIfThere(path.join(this.dir!, entry));
    const cachedData = stored === undefined ? undefined : decodeEntry(stored, source);
    const text = source.toString("utf8");
    const script = new Script(wrap ? HEAD + text + TAIL : text, { filename: file, cachedData });
    const outcome: CacheOutcome = entry === undefined ? "off" : stored === undefined ? "miss" : cachedData === undefined ? "stale" : script.cachedDataRejected ? "rejected" : "hit";
    if (entry !== undefined && outcome !== "hit") this.unsaved.push({ script, file, entry, source });
    return { script, outcome };
  }

  /**
   * A built-in from Node itself (process.getBuiltinModule: node:module's createRequire loads the
   * ES-module loader, ~1 ms); anything else through Node's require from the bundle's folder.
   */
  private external(id: string, from: string): unknown {
    const builtin = process.getBuiltinModule(id);
    if (builtin !== undefined) return builtin;
    if (this.read) throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
    this.nodeRequire ??= process.getBuiltinModule("node:module").createRequire(from);
    return this.nodeRequire(id);
  }

  /** Writes the entries this run compiled (at exit: the cache then holds what the run compiled). */
  save(folder: ProcessGuard.CacheFolder): void {
    if (this.dir === undefined || this.unsaved.length === 0) return;
    try {
      const present = readdirIfThere(this.dir);
      for (const { script, file, entry, source } of this.unsaved.splice(0)) {
        folder.replace(entry, encodeEntry(source, script.createCachedData()));
        // This file's entries for another Node are dead weight now.
        // (Only a runtime, which starts with Node's "v", follows the name: not a pack's entry beside it.)
        const prefix = `${path.basename(file)}.v`;
        for (const name of present) if (name !== entry && name.startsWith(prefix) && name.endsWith(".v8")) folder.remove(name);
      }
    } catch {
      // A read-only or full cache folder: the next start compiles again, as without a cache.
    }
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function readdirIfThere(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The bin's start: loads the process guard (`guardModule`, the bundle's own module: main.ts's import
 * of it is this same instance) and installs it, then loads `entry` through the cache; saves what
 * this run compiled at exit.
 */
export function startFromCodeCache(entry: string, guardModule: string, env: NodeJS.ProcessEnv = process.env, read?: (file: string) => Buffer): void {
  const logFile = env.PTAH_CODE_CACHE_LOG;
  const dir = codeCacheDir(env);
  // Lines wait until the guard, loaded first, hands out the log file's one writer.
  const lines: string[] = [];
  let append: ((line: string) => void) | undefined;
  const log = (line: string): void => {
    try {
      if (append) append(line);
      else lines.push(line);
    } catch {
      /* a diagnostic only */
    }
  };
  const loader = new CodeCacheLoader(dir, logFile ? (outcome, file) => log(`${outcome} ${file}\n`) : undefined, read);
  const guard = loader.load(guardModule) as typeof ProcessGuard;
  guard.installProcessGuard();
  guard.installEgressGuard();
  if (logFile) {
    append = guard.codeCacheLog(logFile);
    log(lines.splice(0).join(""));
  }
  const folder = dir === undefined ? undefined : guard.codeCacheFolder(dir);
  process.once("exit", () => folder && loader.save(folder));
  loader.load(entry);
}

/**
 * The single binary's start: the same npm tree, each of its files a SEA asset named by its path
 * under dist/npm/ (krew/sea.mjs), loaded as the npm bin loads them, with the same code cache
 * folder. The files are named as if they lay in `npm/` beside the binary (they are never read
 * from there); a require of a package that is not a built-in fails as an absent optional one.
 */
export function startFromSeaAssets(env: NodeJS.ProcessEnv = process.env): void {
  const sea = process.getBuiltinModule("node:sea");
  const root = path.join(path.dirname(process.execPath), "npm");
  const read = (file: string): Buffer => Buffer.from(sea.getAsset(path.relative(root, file).split(path.sep).join("/")));
  startFromCodeCache(path.join(root, "kubectl-ptah.cjs"), path.join(root, "process-guard.cjs"), env, read);
}
