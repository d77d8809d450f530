// Composition of a connection: read the kubeconfig files by kubectl's rules, resolve the
// context, namespace, TLS, credentials (client certificates, tokens, token files, basic auth,
// exec plugins — interactive ones get the terminal) and proxy, and build the reader.
// Auth providers (oidc, azure, gcp) are delegated to @kubernetes/client-node, loaded only then.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type tls from "node:tls";
import yaml from "js-yaml";
import { ReadError } from "../errors.ts";
import { sanitize } from "../render/sanitize.ts";
import type { ConnectOptions, Connection } from "./types.ts";
import { Transport } from "./http.ts";
import { HttpClusterInspector } from "./inspect.ts";
import { describeOrigin, kubeconfigPaths, mergeKubeconfigs, resolveContext, resolveNamespace, type KubeconfigDoc, type Named, type SourceFile } from "./kubeconfig.ts";
import { HttpClusterReader } from "./reader.ts";

export interface ConnectEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  /** Whether an interactive exec plugin may use the terminal. */
  readonly stdinIsTTY: boolean;
}

const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

function readFileOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ReadError(`cannot read ${file}: ${(err as Error).message}`);
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
      return { path: p, content: yaml.load(text) ?? {} };
    } catch (err) {
      throw new ReadError(`error loading config file "${p}": ${(err as Error).message.split("\n")[0] ?? ""}`);
    }
  });
}

function bytes(dataKey: unknown, fileKey: unknown, what: string): Buffer | undefined {
  if (typeof dataKey === "string" && dataKey !== "") return Buffer.from(dataKey, "base64");
  if (typeof fileKey === "string" && fileKey !== "") {
    try {
      return fs.readFileSync(fileKey);
    } catch (err) {
      throw new ReadError(`unable to read ${what} ${fileKey}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return undefined;
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Whether NO_PROXY exempts the server, by Go's net/http rules (what kubectl follows). */
function noProxyMatches(server: URL, noProxy: string | undefined): boolean {
  const host = unbracket(server.hostname.toLowerCase());
  // Go never proxies localhost or a loopback address, whatever the environment says.
  if (host === "localhost" || (net.isIPv4(host) && host.startsWith("127.")) || host === "::1") return true;
  if (!noProxy) return false;
  const port = server.port || "443";
  const hostIp = net.isIP(host);
  for (const raw of noProxy.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const cidr = /^([^/]+)\/(\d{1,3})$/u.exec(entry);
    if (cidr) {
      const family = net.isIP(cidr[1]!);
      if (family !== 0 && family === hostIp) {
        const block = new net.BlockList();
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
    if (net.isIP(entryHost)) {
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
  const raw =
    typeof explicit === "string" && explicit !== ""
      ? explicit
      : noProxyMatches(server, env.NO_PROXY ?? env.no_proxy)
        ? undefined
        : (env.HTTPS_PROXY ?? env.https_proxy);
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

interface Credentials {
  headers: Record<string, string>;
  cert?: Buffer;
  key?: Buffer;
}

/** Runs an exec credential plugin (client.authentication.k8s.io ExecCredential). */
async function runExecPlugin(exec: Record<string, unknown>, server: URL, env: ConnectEnvironment, timeoutMs: number): Promise<Credentials> {
  const command = typeof exec.command === "string" ? exec.command : "";
  if (!command) throw new ReadError("the kubeconfig's exec credential plugin names no command");
  const args = Array.isArray(exec.args) ? exec.args.filter((a): a is string => typeof a === "string") : [];
  const apiVersion = typeof exec.apiVersion === "string" ? exec.apiVersion : "client.authentication.k8s.io/v1";
  const mode = typeof exec.interactiveMode === "string" ? exec.interactiveMode : "IfAvailable";
  const interactive = mode !== "Never" && env.stdinIsTTY;
  if (mode === "Always" && !env.stdinIsTTY) {
    throw new ReadError(`exec plugin ${sanitize(command)} needs an interactive terminal (interactiveMode: Always), and standard input is not one`);
  }
  const extraEnv: Record<string, string> = {};
  if (Array.isArray(exec.env)) {
    for (const e of exec.env as { name?: unknown; value?: unknown }[]) {
      if (typeof e?.name === "string" && typeof e.value === "string") extraEnv[e.name] = e.value;
    }
  }
  const info = { apiVersion, kind: "ExecCredential", spec: { interactive, ...(exec.provideClusterInfo ? { cluster: { server: server.toString() } } : {}) } };
  const child = spawn(command, args, {
    env: { ...env.env, ...extraEnv, KUBERNETES_EXEC_INFO: JSON.stringify(info) },
    // stderr always reaches the person (kubectl passes it through); stdin only when interactive.
    stdio: [interactive ? "inherit" : "ignore", "pipe", "inherit"],
  });
  const out: Buffer[] = [];
  child.stdout.on("data", (d: Buffer) => out.push(d));
  const limit = interactive ? Math.max(timeoutMs, 5 * 60_000) : timeoutMs || 60_000;
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      // Something the plugin started (a wrapper script's own child) may still hold its stdout:
      // let go of the pipe and the process, or the CLI would wait for them after giving up.
      child.stdout.destroy();
      child.unref();
      resolve("timeout");
    }, limit);
    child.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(err.code === "ENOENT" ? "missing" : `error ${err.message}`);
    });
    child.on("close", (c) => {
      clearTimeout(timer);
      resolve(c ?? -1);
    });
  });
  const name = sanitize(command);
  if (code === "missing") throw new ReadError(`getting credentials: exec: executable ${name} not found`);
  if (code === "timeout") throw new ReadError(`getting credentials: exec plugin ${name} did not answer within ${limit / 1000}s`);
  if (typeof code === "string") throw new ReadError(`getting credentials: exec plugin ${name}: ${sanitize(code)}`);
  if (code !== 0) throw new ReadError(`getting credentials: exec: executable ${name} failed with exit code ${code}`);
  let status: Record<string, unknown> | undefined;
  try {
    status = (JSON.parse(Buffer.concat(out).toString("utf8")) as { status?: Record<string, unknown> }).status;
  } catch {
    throw new ReadError(`getting credentials: exec plugin ${name} did not print an ExecCredential`);
  }
  if (!status) throw new ReadError(`getting credentials: exec plugin ${name} returned no status`);
  const creds: Credentials = { headers: {} };
  if (typeof status.token === "string" && status.token) creds.headers.authorization = `Bearer ${status.token}`;
  if (typeof status.clientCertificateData === "string" && typeof status.clientKeyData === "string") {
    creds.cert = Buffer.from(status.clientCertificateData);
    creds.key = Buffer.from(status.clientKeyData);
  }
  if (!creds.headers.authorization && !creds.cert) throw new ReadError(`getting credentials: exec plugin ${name} returned neither a token nor a client certificate`);
  return creds;
}

/** Auth providers (oidc, azure, gcp): delegated to @kubernetes/client-node, loaded lazily. */
async function authProviderHeaders(doc: KubeconfigDoc, contextName: string): Promise<Record<string, string>> {
  const { KubeConfig } = await import("@kubernetes/client-node");
  const kc = new KubeConfig();
  kc.loadFromString(yaml.dump({ apiVersion: "v1", kind: "Config", ...doc, "current-context": contextName }));
  const opts: { headers?: Record<string, string> } = { headers: {} };
  await kc.applyToHTTPSOptions(opts as never);
  return opts.headers ?? {};
}

async function userCredentials(user: Named | undefined, doc: KubeconfigDoc, contextName: string, server: URL, env: ConnectEnvironment, timeoutMs: number): Promise<Credentials> {
  const u = (user?.user ?? {}) as Record<string, unknown>;
  const creds: Credentials = { headers: {} };
  const cert = bytes(u["client-certificate-data"], u["client-certificate"], "client certificate");
  const key = bytes(u["client-key-data"], u["client-key"], "client key");
  if (cert) creds.cert = cert;
  if (key) creds.key = key;
  if (typeof u.token === "string" && u.token !== "") {
    creds.headers.authorization = `Bearer ${u.token}`;
  } else if (typeof u.tokenFile === "string" && u.tokenFile !== "") {
    const token = readFileOrUndefined(u.tokenFile);
    if (token === undefined) throw new ReadError(`unable to read token file ${sanitize(u.tokenFile)}`);
    creds.headers.authorization = `Bearer ${token.trim()}`;
  } else if (typeof u.username === "string" && typeof u.password === "string") {
    creds.headers.authorization = `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;
  }
  if (u.exec && typeof u.exec === "object") {
    const fromExec = await runExecPlugin(u.exec as Record<string, unknown>, server, env, timeoutMs);
    Object.assign(creds.headers, fromExec.headers);
    if (fromExec.cert) creds.cert = fromExec.cert;
    if (fromExec.key) creds.key = fromExec.key;
  } else if (u["auth-provider"]) {
    Object.assign(creds.headers, await authProviderHeaders(doc, contextName));
  }
  if (u.as && typeof u.as === "string") creds.headers["impersonate-user"] = u.as;
  return creds;
}

function inClusterDoc(env: NodeJS.ProcessEnv): { doc: KubeconfigDoc; namespace: string } | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port || !fs.existsSync(path.join(SERVICE_ACCOUNT_DIR, "token"))) return undefined;
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
export function loadKubeconfig(global: Pick<ConnectOptions, "kubeconfig">, env: NodeJS.ProcessEnv): KubeconfigDoc {
  return loadKubeconfigSources(global, env).doc;
}

/** The merged kubeconfig and the files it was merged from ("in-cluster" for the service account). */
function loadKubeconfigSources(global: Pick<ConnectOptions, "kubeconfig">, env: NodeJS.ProcessEnv): { doc: KubeconfigDoc; sources: SourceFile[] | "in-cluster" } {
  const paths = kubeconfigPaths(global.kubeconfig, env.KUBECONFIG, env.HOME ?? os.homedir());
  const sources = loadSources(paths, global.kubeconfig !== undefined);
  const merged = mergeKubeconfigs(sources);
  if (merged) return { doc: merged, sources };
  const inCluster = inClusterDoc(env);
  if (inCluster) return { doc: inCluster.doc, sources: "in-cluster" };
  throw new ReadError(
    "no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config (the plugin never guesses a server such as localhost:8080)",
  );
}

export async function connect(global: ConnectOptions, env: ConnectEnvironment): Promise<Connection> {
  const { doc, sources } = loadKubeconfigSources(global, env.env);
  let ctx;
  try {
    ctx = resolveContext(doc, global.context);
  } catch (err) {
    throw new ReadError(sanitize((err as Error).message));
  }
  const cluster = (ctx.cluster.cluster ?? {}) as Record<string, unknown>;
  const serverText = typeof cluster.server === "string" ? cluster.server : "";
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    throw new ReadError(`cluster "${sanitize(String(ctx.cluster.name))}" has no valid server URL in the kubeconfig`);
  }
  if (server.protocol !== "https:") {
    throw new ReadError(`server ${sanitize(serverText)} is not https; the plugin only talks TLS to the API server`);
  }
  const timeoutMs = global.requestTimeoutMs;
  const creds = await userCredentials(ctx.user, doc, ctx.contextName, server, env, timeoutMs);
  const tlsOptions: tls.ConnectionOptions = {
    rejectUnauthorized: cluster["insecure-skip-tls-verify"] !== true,
  };
  const ca = bytes(cluster["certificate-authority-data"], cluster["certificate-authority"], "certificate authority");
  if (ca) tlsOptions.ca = ca;
  if (creds.cert) tlsOptions.cert = creds.cert;
  if (creds.key) tlsOptions.key = creds.key;
  if (typeof cluster["tls-server-name"] === "string" && cluster["tls-server-name"] !== "") tlsOptions.servername = cluster["tls-server-name"];
  const transport = new Transport({
    server,
    tls: tlsOptions,
    headers: creds.headers,
    proxy: selectProxy(cluster, server, env.env),
    userAgent: `kubectl-ptah/${env.version}`,
    timeoutMs,
  });
  return {
    reader: new HttpClusterReader(transport),
    namespace: resolveNamespace(global.namespace, ctx.namespace),
    contextName: ctx.contextName,
    origin: describeOrigin(sources, ctx, global),
    inspector: new HttpClusterInspector(transport),
  };
}
