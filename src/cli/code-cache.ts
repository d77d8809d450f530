// The npm bin's loader (issue 30): the bundle is CommonJS (dist/npm/, one file per esbuild chunk,
// so a command loads only the chunks it reaches), each file compiled by vm.Script from V8's
// code cache when there is one, and its cache written on the first run into the user's cache
// folder. Node 20 has no compile cache of its own (module.enableCompileCache is Node 22), so
// without this every start compiles the same ~400 KB again.
//
// A cache entry is named by the SHA-256 of the file's source, Node's version, the platform and
// the architecture: a changed bundle (or another Node) never meets an old entry, and V8 itself
// rejects an entry made under other V8 flags. A rejected or missing entry is written after the
// run (createCachedData then also holds the functions that run compiled), replacing that file's
// older entries. Nothing here ever fails a command: an unreadable or unwritable cache folder is
// the same as none.
//
//   PTAH_CODE_CACHE=off          compile every start (no reads, no writes)
//   PTAH_CODE_CACHE_DIR=DIR      the cache folder (default $XDG_CACHE_HOME/kubectl-ptah/code-cache,
//                                else ~/.cache/kubectl-ptah/code-cache)
//   PTAH_CODE_CACHE_LOG=FILE     appends one line per file loaded: `hit|miss|rejected|off PATH`
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Script } from "node:vm";

export type CacheOutcome = "hit" | "miss" | "rejected" | "off";

interface LoadedModule {
  exports: unknown;
}

/** The cache folder for this environment, or undefined when the cache is off. */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string = os.homedir()): string | undefined {
  if (env.PTAH_CODE_CACHE === "off" || env.PTAH_CODE_CACHE === "0") return undefined;
  if (env.PTAH_CODE_CACHE_DIR) return path.resolve(env.PTAH_CODE_CACHE_DIR);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home ? path.join(home, ".cache") : undefined;
  return base ? path.join(base, "kubectl-ptah", "code-cache") : undefined;
}

/** The entry's name for `source`: its file's name and a digest of the source and the runtime. */
export function cacheEntryName(file: string, source: string, runtime: string = `${process.version} ${process.platform} ${process.arch}`): string {
  const digest = createHash("sha256").update(runtime).update("\0").update(source).digest("hex").slice(0, 40);
  return `${path.basename(file)}.${digest}.v8`;
}

// The CommonJS wrapper, on one line so that the bundle's line numbers stay its own.
const HEAD = "(function (exports, require, module, __filename, __dirname) {";
const TAIL = "\n})";

export class CodeCacheLoader {
  private readonly modules = new Map<string, LoadedModule>();
  private readonly unsaved: Array<{ script: Script; file: string; entry: string }> = [];
  /** Node's own require, for built-ins and the optional packages the bundle asks for (from the bundle's folder). */
  private nodeRequire?: NodeJS.Require;

  private readonly dir: string | undefined;
  private readonly log: ((outcome: CacheOutcome, file: string) => void) | undefined;

  constructor(dir: string | undefined, log?: (outcome: CacheOutcome, file: string) => void) {
    this.dir = dir;
    this.log = log;
  }

  /** Loads `file` (absolute) as CommonJS, once; relative requires inside go through here too. */
  load(file: string): unknown {
    const known = this.modules.get(file);
    if (known) return known.exports;
    const source = fs.readFileSync(file, "utf8");
    const entry = this.dir === undefined ? undefined : cacheEntryName(file, source);
    const cachedData = entry === undefined ? undefined : readIfThere(path.join(this.dir!, entry));
    const script = new Script(HEAD + source + TAIL, { filename: file, cachedData });
    const outcome: CacheOutcome = entry === undefined ? "off" : cachedData === undefined ? "miss" : script.cachedDataRejected ? "rejected" : "hit";
    this.log?.(outcome, file);
    if (entry !== undefined && outcome !== "hit") this.unsaved.push({ script, file, entry });
    const module: LoadedModule = { exports: {} };
    this.modules.set(file, module);
    const dirname = path.dirname(file);
    this.nodeRequire ??= createRequire(file);
    const nodeRequire = this.nodeRequire;
    const require = (id: string): unknown => (id.startsWith("./") || id.startsWith("../") ? this.load(path.resolve(dirname, id)) : nodeRequire(id));
    const wrapper = script.runInThisContext() as (e: unknown, r: unknown, m: LoadedModule, f: string, d: string) => void;
    wrapper.call(module.exports, module.exports, require, module, file, dirname);
    return module.exports;
  }

  /** Writes the entries this run compiled (at exit: the cache then holds what the run compiled). */
  save(): void {
    if (this.dir === undefined || this.unsaved.length === 0) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const present = fs.readdirSync(this.dir);
      for (const { script, file, entry } of this.unsaved.splice(0)) {
        const target = path.join(this.dir, entry);
        const temporary = `${target}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, target);
        // This file's older entries (an earlier build, another Node) are dead weight now.
        const prefix = `${path.basename(file)}.`;
        for (const name of present) if (name !== entry && name.startsWith(prefix) && name.endsWith(".v8")) fs.rmSync(path.join(this.dir, name), { force: true });
      }
    } catch {
      // A read-only or full cache folder: the next start compiles again, as without a cache.
    }
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The bin's start: loads `entry` through the cache and saves what this run compiled at exit. */
export function startFromCodeCache(entry: string, env: NodeJS.ProcessEnv = process.env): void {
  const logFile = env.PTAH_CODE_CACHE_LOG;
  const loader = new CodeCacheLoader(
    codeCacheDir(env),
    logFile
      ? (outcome, file) => {
          try {
            fs.appendFileSync(logFile, `${outcome} ${file}\n`);
          } catch {
            /* a diagnostic only */
          }
        }
      : undefined,
  );
  process.once("exit", () => loader.save());
  loader.load(entry);
}
