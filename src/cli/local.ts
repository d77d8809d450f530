// What doctor needs to know about this machine: which kubectl-ptah executables PATH holds (the
// first is the one `kubectl ptah` runs, as `kubectl plugin list` finds it) and the version of the
// first kubectl on PATH (`kubectl version --client`, one short-lived child process).
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { LocalFacts } from "../commands/command-types.ts";
import { identifyPlugin } from "./plugin-identity.ts";
import { processGuardInstalled, runKubectlVersion } from "./process-guard.ts";

const KUBECTL_TIMEOUT_MS = 3000;

function realpath(p: string | undefined): string | undefined {
  if (!p) return undefined;
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every kubectl-ptah on PATH, in order; `self` when it resolves to one of `selfPaths`, else what its bytes say it is. */
/** Every kubectl-ptah on PATH, marking the one this process was started as (version, doctor). */
export function pluginsOnPath(pathEnv: string | undefined): LocalFacts["plugins"] {
  return findPlugins(pathEnv, [process.argv[1], process.execPath]);
}

export function findPlugins(pathEnv: string | undefined, selfPaths: readonly (string | undefined)[], platform: NodeJS.Platform = process.platform): LocalFacts["plugins"] {
  const self = new Set(selfPaths.map(realpath).filter((p): p is string => p !== undefined));
  const names = platform === "win32" ? ["kubectl-ptah.exe", "kubectl-ptah.cmd", "kubectl-ptah"] : ["kubectl-ptah"];
  const seen = new Set<string>();
  const found: { path: string; self: boolean }[] = [];
  for (const dir of (pathEnv ?? "").split(path.delimiter)) {
    if (dir === "" || seen.has(dir)) continue;
    seen.add(dir);
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (!isExecutableFile(candidate)) continue;
      const resolved = realpath(candidate);
      const isSelf = resolved !== undefined && self.has(resolved);
      found.push({ path: candidate, self: isSelf, ...(isSelf ? {} : { identity: identifyPlugin(candidate) }) });
      break;
    }
  }
  return found;
}

function kubectlVersion(env: NodeJS.ProcessEnv): Promise<LocalFacts["kubectl"]> {
  return new Promise((resolve) => {
    runKubectlVersion(env, KUBECTL_TIMEOUT_MS, (err, stdout) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return resolve({ missing: "no kubectl on PATH" });
      try {
        const v = (JSON.parse(stdout) as { clientVersion?: { gitVersion?: unknown; minor?: unknown } }).clientVersion;
        const minor = typeof v?.minor === "string" ? /^(\d+)/u.exec(v.minor)?.[1] : undefined;
        if (typeof v?.gitVersion === "string") return resolve({ gitVersion: v.gitVersion, minor: minor === undefined ? undefined : Number(minor) });
      } catch {
        /* not JSON: said below */
      }
      resolve({ missing: err?.killed ? `kubectl version --client did not answer within ${KUBECTL_TIMEOUT_MS / 1000}s` : "kubectl version --client did not print a version" });
    });
  });
}

/** This machine's facts; `runKubectl: false` (a line an MCP client asked for) starts no program and says so. */
export async function inspectMachine(env: NodeJS.ProcessEnv, runKubectl = true): Promise<LocalFacts> {
  const started = [process.argv[1], process.execPath];
  const kubectl = runKubectl ? await kubectlVersion(env) : { missing: "kubectl's version not asked (the MCP server starts no other program)" };
  return { kubectl, plugins: findPlugins(env.PATH, started), selfPath: realpath(process.argv[1]) ?? realpath(process.execPath), processGuard: processGuardInstalled() };
}
