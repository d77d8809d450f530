// kubectl's kubeconfig loading rules over already-read files (pure; table-tested):
// --kubeconfig loads exactly one file; otherwise KUBECONFIG is a path list merged so that
// the first file to set a key wins (current-context included), missing files are skipped
// and duplicate names never fail; otherwise ~/.kube/config. Relative paths inside a file
// are resolved against that file's folder, as kubectl does.
import path from "node:path";
import { overrideNames, type ConfigOverrides } from "./overrides.ts";

export type Named = { name: string } & Record<string, unknown>;

export interface KubeconfigDoc {
  clusters: Named[];
  users: Named[];
  contexts: Named[];
  "current-context"?: string;
  preferences?: Record<string, unknown>;
}

export interface SourceFile {
  readonly path: string;
  /** Parsed YAML, or undefined when the file does not exist. */
  readonly content: unknown;
}

/** Which files to read, in order, following kubectl's precedence. */
export function kubeconfigPaths(explicit: string | undefined, env: string | undefined, home: string | undefined, delimiter = path.delimiter): string[] {
  if (explicit) return [explicit];
  if (env !== undefined && env !== "") {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const p of env.split(delimiter)) {
      if (p === "" || seen.has(p)) continue;
      seen.add(p);
      out.push(p);
    }
    return out;
  }
  return home ? [path.join(home, ".kube", "config")] : [];
}

function namedList(value: unknown): Named[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is Named => v !== null && typeof v === "object" && typeof (v as { name?: unknown }).name === "string");
}

const RELATIVE_KEYS: Record<"cluster" | "user", readonly string[]> = {
  cluster: ["certificate-authority"],
  user: ["client-certificate", "client-key", "tokenFile"],
};

function resolvePaths(entry: Named, field: "cluster" | "user", dir: string): Named {
  const inner = entry[field];
  if (inner === null || typeof inner !== "object") return entry;
  const copy: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
  for (const key of RELATIVE_KEYS[field]) {
    const v = copy[key];
    if (typeof v === "string" && v !== "" && !path.isAbsolute(v)) copy[key] = path.join(dir, v);
  }
  if (field === "user" && copy.exec && typeof copy.exec === "object") {
    const exec = { ...(copy.exec as Record<string, unknown>) };
    // kubectl resolves an exec command relative to the file only when it names a path.
    if (typeof exec.command === "string" && exec.command.includes("/") && !path.isAbsolute(exec.command)) {
      exec.command = path.join(dir, exec.command);
    }
    copy.exec = exec;
  }
  return { ...entry, [field]: copy };
}

/** Merges files by kubectl's rules: for every name and key, the first file that sets it wins. */
export function mergeKubeconfigs(files: readonly SourceFile[]): KubeconfigDoc | undefined {
  const merged: KubeconfigDoc = { clusters: [], users: [], contexts: [] };
  let any = false;
  const seen = { clusters: new Set<string>(), users: new Set<string>(), contexts: new Set<string>() };
  for (const file of files) {
    if (file.content === undefined || file.content === null || typeof file.content !== "object") continue;
    any = true;
    const doc = file.content as Record<string, unknown>;
    const dir = path.dirname(file.path);
    const sections = [
      ["clusters", "cluster"],
      ["users", "user"],
      ["contexts", "context"],
    ] as const;
    for (const [key, field] of sections) {
      for (const entry of namedList(doc[key])) {
        if (seen[key].has(entry.name)) continue;
        seen[key].add(entry.name);
        merged[key].push(field === "context" ? entry : resolvePaths(entry, field, dir));
      }
    }
    const current = doc["current-context"];
    if (merged["current-context"] === undefined && typeof current === "string" && current !== "") {
      merged["current-context"] = current;
    }
    if (merged.preferences === undefined && doc.preferences && typeof doc.preferences === "object") {
      merged.preferences = doc.preferences as Record<string, unknown>;
    }
  }
  return any ? merged : undefined;
}

export interface ResolvedContext {
  readonly contextName: string;
  readonly cluster: Named;
  readonly user: Named | undefined;
  /** The context's namespace, if it sets one. */
  readonly namespace: string | undefined;
}

/**
 * Picks the context (--context, else current-context) and what it points at (--cluster and
 * --user replace its names); messages as kubectl's. With --server on the line no context is
 * needed (kubectl talks to the server with the flags alone).
 */
export function resolveContext(doc: KubeconfigDoc, contextOverride: string | undefined, overrides: ConfigOverrides = {}): ResolvedContext {
  const contextName = contextOverride ?? doc["current-context"];
  const serverOnLine = (overrides.server ?? "") !== "";
  if (!contextName && !serverOnLine) {
    throw new Error("current-context is not set in the kubeconfig; pass --context or run 'kubectl config use-context'");
  }
  const context = contextName ? doc.contexts.find((c) => c.name === contextName) : undefined;
  if (contextName && !context) throw new Error(`context "${contextName}" does not exist in the kubeconfig`);
  const names = overrideNames(context, overrides);
  const cluster = doc.clusters.find((c) => c.name === names.cluster) ?? (serverOnLine && (overrides.cluster ?? "") === "" ? { name: names.cluster, cluster: {} } : undefined);
  if (!cluster && (overrides.cluster ?? "") !== "") throw new Error(`no server found for cluster "${names.cluster}"`);
  if (!cluster) {
    throw new Error(
      contextName ? `cluster "${names.cluster}" of context "${contextName}" does not exist in the kubeconfig` : `cluster "${names.cluster}" does not exist in the kubeconfig`,
    );
  }
  const user = doc.users.find((u) => u.name === names.user);
  if (!user && (overrides.user ?? "") !== "") throw new Error(`auth info "${names.user}" does not exist`);
  const body = (context?.context ?? {}) as Record<string, unknown>;
  const namespace = typeof body.namespace === "string" && body.namespace !== "" ? body.namespace : undefined;
  return { contextName: contextName ?? "", cluster, user, namespace };
}

/** -n, else the context's namespace, else "default". */
export function resolveNamespace(flag: string | undefined, contextNamespace: string | undefined): string {
  return flag ?? contextNamespace ?? "default";
}

/** Where each part of the resolved context came from, as doctor reports it. */
export interface KubeconfigOrigin {
  readonly context: { readonly name: string; readonly from: string };
  readonly cluster: { readonly name: string; readonly server: string; readonly from: string };
  readonly user: { readonly name: string; readonly from: string } | undefined;
  readonly namespace: { readonly name: string; readonly from: string };
}

function firstFileWith(files: readonly SourceFile[], test: (doc: Record<string, unknown>) => boolean): string | undefined {
  for (const file of files) {
    if (file.content !== null && typeof file.content === "object" && test(file.content as Record<string, unknown>)) return file.path;
  }
  return undefined;
}

function defines(section: "clusters" | "users" | "contexts", name: string): (doc: Record<string, unknown>) => boolean {
  return (doc) => namedList(doc[section]).some((e) => e.name === name);
}

/**
 * The origin of each part, by the merge rule above (the first file to define a name or
 * current-context is the one kubectl used). `files` is "in-cluster" for the service account.
 */
export function describeOrigin(
  files: readonly SourceFile[] | "in-cluster",
  resolved: ResolvedContext,
  flags: { readonly context: string | undefined; readonly namespace: string | undefined },
): KubeconfigOrigin {
  const list = files === "in-cluster" ? [] : files;
  const fileOr = (p: string | undefined): string => (files === "in-cluster" ? "the in-cluster service account" : (p ?? "an unknown file"));
  const cluster = resolved.cluster.cluster as { server?: unknown } | undefined;
  const contextFrom =
    flags.context !== undefined
      ? `--context (defined in ${fileOr(firstFileWith(list, defines("contexts", resolved.contextName)))})`
      : `current-context in ${fileOr(firstFileWith(list, (d) => typeof d["current-context"] === "string" && d["current-context"] !== ""))}`;
  const namespaceFrom =
    flags.namespace !== undefined ? "-n/--namespace" : resolved.namespace !== undefined ? `context "${resolved.contextName}"` : "the default (the context sets none)";
  return {
    context: { name: resolved.contextName, from: contextFrom },
    cluster: {
      name: resolved.cluster.name,
      server: typeof cluster?.server === "string" ? cluster.server : "",
      from: fileOr(firstFileWith(list, defines("clusters", resolved.cluster.name))),
    },
    user: resolved.user ? { name: resolved.user.name, from: fileOr(firstFileWith(list, defines("users", resolved.user.name))) } : undefined,
    namespace: { name: resolveNamespace(flags.namespace, resolved.namespace), from: namespaceFrom },
  };
}
