// Composition of a connection: read the kubeconfig files by kubectl's rules, apply the command
// line's overrides (kube/overrides.ts), resolve the context, namespace, TLS, credentials
// (kube/credentials.ts), impersonation and proxy, and build the reader.
import { closeSync, existsSync, openSync } from "node:fs";
import { BlockList, isIP, isIPv4 } from "node:net";
import os from "node:os";
import path from "node:path";
import type tls from "node:tls";
import { ReadError, sanitize } from "../errors.ts";
import type { ConnectOptions, Connection } from "./types.ts";
import { readAtMost } from "./bounded-read.ts";
import { NO_CREDENTIALS, readBytes, userCredentials, type StartCredentialPlugin } from "./credentials.ts";
import { Transport } from "./http.ts";
import type { Door } from "./proxy-tunnel.ts";
import { HttpClusterInspector } from "./inspect.ts";
import { describeOrigin, kubeconfigPaths, mergeKubeconfigs, resolveContext, resolveNamespace, type KubeconfigDoc, type SourceFile } from "./kubeconfig.ts";
import { loadYaml } from "./kubeconfig-yaml.ts";
import { impersonationHeaders, overrideCluster, overrideUser, validate } from "./overrides.ts";
import { HttpClusterReader } from "./reader.ts";

export type { Door } from "./proxy-tunnel.ts";

export interface ConnectEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  /** Whether an interactive exec plugin may use the terminal. */
  readonly stdinIsTTY: boolean;
  /** -v logging and server warnings go here (stderr). */
  readonly log: (line: string) => void;
  /** Milliseconds since the epoch, for credential lifetimes (tests pass a fake clock). */
  readonly now?: () => number;
  /** Starts the kubeconfig's exec credential plugin (the shell hands in the process guard's). */
  readonly startCredentialPlugin: StartCredentialPlugin;
  /** The door to the server and proxy (the shell hands in the egress guard's); Node's own connect without it. */
  readonly openDoor?: (destinations: readonly URL[]) => Door;
}

const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * The most bytes a kubeconfig file may have: 32 MiB. A context with its cluster and user, the
 * certificates inline, is about 5 KB, so this is thousands of them; /dev/zero or a pipe that
 * never ends is refused once past it, having held no more.
 */
export const MAX_KUBECONFIG_BYTES = 32 * 1024 * 1024;

function readFileOrUndefined(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ReadError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const tooLarge = (): ReadError => new ReadError(`error loading config file "${file}": it is larger than ${MAX_KUBECONFIG_BYTES} bytes, more than any kubeconfig holds`);
  try {
    return readAtMost(fd, MAX_KUBECONFIG_BYTES, tooLarge).toString("utf8");
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(`cannot read ${file}: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

function loadSources(paths: readonly string[], explicit: boolean): SourceFile[] {
  return paths.map((p) => {
    const text = readFileOrUndefined(p);
    if (text === undefined) {
      if (explicit) throw new ReadError(`stat ${p}: no such file or directory`);
      return { path: p, content: undefined };
    }
    try {
      return { path: p, content: loadYaml(text) ?? {} };
    } catch (err) {
      throw new ReadError(`error loading config file "${p}": ${(err as Error).message.split("\n")[0] ?? ""}`);
    }
  });
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Whether NO_PROXY exempts the server, by Go's net/http rules (what kubectl follows). */
function noProxyMatches(server: URL, noProxy: string | undefined): boolean {
  const host = unbracket(server.hostname.toLowerCase());
  // Go never proxies localhost or a loopback address, whatever the environment says.
  if (host === "localhost" || (isIPv4(host) && host.startsWith("127.")) || host === "::1") return true;
  if (!noProxy) return false;
  const port = server.port || "443";
  const hostIp = isIP(host);
  for (const raw of noProxy.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const cidr = /^([^/]+)\/(\d{1,3})$/u.exec(entry);
    if (cidr) {
      const family = isIP(cidr[1]!);
      if (family !== 0 && family === hostIp) {
        const block = new BlockList();
        try {
          block.addSubnet(cidr[1]!, Number(cidr[2]), family === 4 ? "ipv4" : "ipv6");
        } catch {
          continue;
        }
        if (block.check(host, family === 4 ? "ipv4" : "ipv6")) return true;
      }
      continue;
    }
    // host, host:port, IP, IP:port, [IPv6]:port; a port in the entry must match the server's.
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/u.exec(entry);
    const entryHost = unbracket(withPort ? withPort[1]! : entry);
    if (withPort && withPort[2] !== port) continue;
    if (isIP(entryHost)) {
      if (entryHost === host) return true;
      continue;
    }
    // "example.com" matches it and its subdomains; ".example.com" and "*.example.com" only subdomains.
    const bare = entryHost.startsWith("*.") ? entryHost.slice(1) : entryHost;
    if (bare.startsWith(".") ? host.endsWith(bare) : host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

/** proxy-url from the cluster, else HTTPS_PROXY unless NO_PROXY names the host (kubectl's rule). */
export function selectProxy(cluster: Record<string, unknown>, server: URL, env: NodeJS.ProcessEnv): URL | undefined {
  const explicit = cluster["proxy-url"];
  const raw = typeof explicit === "string" && explicit !== "" ? explicit : noProxyMatches(server, env.NO_PROXY ?? env.no_proxy) ? undefined : (env.HTTPS_PROXY ?? env.https_proxy);
  if (!raw) return undefined;
  try {
    const url = new URL(raw.includes("://") ? raw : `http://${raw}`);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ReadError(`proxy ${sanitize(raw)} is not supported: only http and https proxies are`);
    }
    return url;
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(`invalid proxy URL ${sanitize(raw)}`);
  }
}

function inClusterDoc(env: NodeJS.ProcessEnv): { doc: KubeconfigDoc; namespace: string } | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port || !existsSync(path.join(SERVICE_ACCOUNT_DIR, "token"))) return undefined;
  const namespace = readFileOrUndefined(path.join(SERVICE_ACCOUNT_DIR, "namespace"))?.trim() || "default";
  const server = `https://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    namespace,
    doc: {
      clusters: [{ name: "in-cluster", cluster: { server, "certificate-authority": path.join(SERVICE_ACCOUNT_DIR, "ca.crt") } }],
      users: [{ name: "in-cluster", user: { tokenFile: path.join(SERVICE_ACCOUNT_DIR, "token") } }],
      contexts: [{ name: "in-cluster", context: { cluster: "in-cluster", user: "in-cluster", namespace } }],
      "current-context": "in-cluster",
    },
  };
}

/** Loads the kubeconfig as kubectl would; the no-config case is an error, never localhost:8080. */
export function loadKubeconfig(global: Pick<ConnectOptions, "kubeconfig"> & { readonly overrides?: ConnectOptions["overrides"] }, env: NodeJS.ProcessEnv): KubeconfigDoc {
  return loadKubeconfigSources(global, env).doc;
}

/** The merged kubeconfig and the files it was merged from ("in-cluster" for the service account). */
function loadKubeconfigSources(
  global: Pick<ConnectOptions, "kubeconfig"> & { readonly overrides?: ConnectOptions["overrides"] },
  env: NodeJS.ProcessEnv,
): { doc: KubeconfigDoc; sources: SourceFile[] | "in-cluster" } {
  const paths = kubeconfigPaths(global.kubeconfig, env.KUBECONFIG, env.HOME ?? os.homedir());
  const sources = loadSources(paths, global.kubeconfig !== undefined);
  const merged = mergeKubeconfigs(sources);
  if (merged) return { doc: merged, sources };
  const inCluster = inClusterDoc(env);
  if (inCluster) return { doc: inCluster.doc, sources: "in-cluster" };
  // --server alone is enough for kubectl; so it is here.
  if ((global.overrides?.server ?? "") !== "") return { doc: { clusters: [], users: [], contexts: [] }, sources: [] };
  throw new ReadError("no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config (the plugin never guesses a server such as localhost:8080)");
}

export async function connect(global: ConnectOptions, env: ConnectEnvironment): Promise<Connection> {
  const { doc, sources } = loadKubeconfigSources(global, env.env);
  let ctx;
  try {
    ctx = resolveContext(doc, global.context, global.overrides);
  } catch (err) {
    throw new ReadError(sanitize((err as Error).message));
  }
  const cluster = overrideCluster((ctx.cluster.cluster ?? {}) as Record<string, unknown>, global.overrides);
  const user = overrideUser((ctx.user?.user ?? {}) as Record<string, unknown>, global.overrides);
  const problem = validate(cluster, user, sanitize(ctx.user?.name ?? global.overrides.user ?? ""));
  if (problem) throw new ReadError(problem);
  const serverText = typeof cluster.server === "string" ? cluster.server : "";
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    throw new ReadError(`cluster "${sanitize(String(ctx.cluster.name))}" has no valid server URL in the kubeconfig`);
  }
  if (server.protocol !== "https:" && server.protocol !== "http:") {
    throw new ReadError(`server ${sanitize(serverText)} is neither https:// nor http://`);
  }
  const timeoutMs = global.requestTimeoutMs;
  const now = env.now ?? Date.now;
  // kubectl sends credentials only over TLS: to an http:// server it sends none (impersonation still applies).
  const credentials =
    server.protocol === "https:"
      ? await userCredentials(user, doc, ctx.contextName, server, { env: env.env, stdinIsTTY: env.stdinIsTTY, now, startPlugin: env.startCredentialPlugin }, timeoutMs)
      : NO_CREDENTIALS;
  const tlsOptions: tls.ConnectionOptions = {
    rejectUnauthorized: cluster["insecure-skip-tls-verify"] !== true,
  };
  const ca = readBytes(cluster["certificate-authority-data"], cluster["certificate-authority"], "certificate authority");
  if (ca) tlsOptions.ca = ca;
  if (typeof cluster["tls-server-name"] === "string" && cluster["tls-server-name"] !== "") tlsOptions.servername = cluster["tls-server-name"];
  const proxy = selectProxy(cluster, server, env.env);
  const transport = new Transport({
    server,
    tls: tlsOptions,
    credentials,
    headers: impersonationHeaders(user),
    proxy,
    door: env.openDoor?.(proxy ? [server, proxy] : [server]),
    userAgent: `kubectl-ptah/${env.version}`,
    timeoutMs,
    verbosity: global.verbosity,
    warningsAsErrors: global.warningsAsErrors,
    log: env.log,
  });
  const reader = new HttpClusterReader(transport);
  return {
    reader,
    namespace: resolveNamespace(global.namespace, ctx.namespace),
    contextName: ctx.contextName,
    origin: describeOrigin(sources, ctx, global),
    inspector: new HttpClusterInspector(transport, reader),
  };
}
