// The user's credentials, kept fresh for the life of the process (a `wait` or a watch may run
// for hours): client certificates, a bearer token, basic auth, a tokenFile (re-read when it is a
// minute old, as client-go's cached file token source does), an exec credential plugin (re-run
// when its expirationTimestamp is near, and once after a 401), and auth providers (oidc, azure,
// gcp) through @kubernetes/client-node, asked again for every request so its own refresh runs.
import type { ChildProcessByStdio } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import yaml from "js-yaml";
import { ReadError, sanitize } from "../errors.ts";
import type { KubeconfigDoc } from "./kubeconfig.ts";

export interface AuthState {
  readonly headers: Readonly<Record<string, string>>;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface CredentialSource {
  /** The credentials to send now (refreshed when due). */
  current(): Promise<AuthState>;
  /** The server answered 401: forget what is cached. True when asking again may help. */
  invalidate(): boolean;
}

export interface ExecEnvironment {
  readonly env: NodeJS.ProcessEnv;
  /** Whether an interactive exec plugin may use the terminal. */
  readonly stdinIsTTY: boolean;
  /** Milliseconds since the epoch (tests pass a fake clock). */
  readonly now: () => number;
  /** Starts the plugin: the process guard's one way to run it (cli/process-guard.ts), handed in by the shell. */
  readonly startPlugin: StartCredentialPlugin;
}

/** Runs `command` with `args` and `env`, no shell; stdout piped, stderr the person's, stdin only when `interactive`. */
export type StartCredentialPlugin = (command: string, args: readonly string[], env: NodeJS.ProcessEnv, interactive: boolean) => ChildProcessByStdio<null, Readable, null>;

/** How often a tokenFile is read again (client-go re-reads it after a minute). */
export const TOKEN_FILE_TTL_MS = 60_000;
/** An exec credential is re-run this long before its expirationTimestamp (a request in flight must not carry an expired token). */
export const EXEC_EXPIRY_MARGIN_MS = 1_000;

export const NO_CREDENTIALS: CredentialSource = { current: async () => ({ headers: {} }), invalidate: () => false };

export function readBytes(dataKey: unknown, fileKey: unknown, what: string): Buffer | undefined {
  if (typeof dataKey === "string" && dataKey !== "") return Buffer.from(dataKey, "base64");
  if (typeof fileKey === "string" && fileKey !== "") {
    try {
      return readFileSync(fileKey);
    } catch (err) {
      throw new ReadError(`unable to read ${what} ${fileKey}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return undefined;
}

interface ExecResult extends AuthState {
  /** ms since the epoch; undefined = valid until a 401. */
  readonly expiresAt: number | undefined;
}

/** Runs an exec credential plugin (client.authentication.k8s.io ExecCredential) once. */
async function runExecPlugin(exec: Record<string, unknown>, server: URL, env: ExecEnvironment, timeoutMs: number): Promise<ExecResult> {
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
  // stderr always reaches the person (kubectl passes it through); stdin only when interactive.
  const child = env.startPlugin(command, args, { ...env.env, ...extraEnv, KUBERNETES_EXEC_INFO: JSON.stringify(info) }, interactive);
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
  const headers: Record<string, string> = {};
  if (typeof status.token === "string" && status.token) headers.authorization = `Bearer ${status.token}`;
  const withCert = typeof status.clientCertificateData === "string" && typeof status.clientKeyData === "string";
  if (!headers.authorization && !withCert) throw new ReadError(`getting credentials: exec plugin ${name} returned neither a token nor a client certificate`);
  const expiry = typeof status.expirationTimestamp === "string" ? Date.parse(status.expirationTimestamp) : Number.NaN;
  return {
    headers,
    ...(withCert ? { cert: Buffer.from(status.clientCertificateData as string), key: Buffer.from(status.clientKeyData as string) } : {}),
    expiresAt: Number.isFinite(expiry) ? expiry : undefined,
  };
}

/** Auth providers (oidc, azure, gcp): delegated to @kubernetes/client-node, loaded lazily. */
async function authProvider(doc: KubeconfigDoc, contextName: string): Promise<() => Promise<Record<string, string>>> {
  const { KubeConfig } = await import("@kubernetes/client-node");
  const kc = new KubeConfig();
  kc.loadFromString(yaml.dump({ apiVersion: "v1", kind: "Config", ...doc, "current-context": contextName }));
  return async () => {
    const opts: { headers?: Record<string, string> } = { headers: {} };
    await kc.applyToHTTPSOptions(opts as never);
    return opts.headers ?? {};
  };
}

/**
 * client-node's gcp and azure providers refresh a token by running `cmd-path` through a shell. kubectl
 * removed both providers in 1.26 (an exec credential plugin replaces them), and the process guard
 * refuses the child process: said here in kubectl's terms, before anything runs.
 */
function legacyCommand(provider: unknown): void {
  const { name, config } = provider as { name?: unknown; config?: Record<string, unknown> };
  const command = config?.["cmd-path"];
  if ((name !== "gcp" && name !== "azure") || typeof command !== "string" || command === "") return;
  const plugin = name === "gcp" ? "gke-gcloud-auth-plugin" : "kubelogin";
  throw new ReadError(
    `the kubeconfig's ${name} auth provider runs ${sanitize(command)} (cmd-path) for its token, which kubectl removed in 1.26 and this plugin does not start: use the ${plugin} exec credential plugin`,
  );
}

/** The credential source for a kubeconfig user (after the command line's overrides). */
export async function userCredentials(
  u: Record<string, unknown>,
  doc: KubeconfigDoc,
  contextName: string,
  server: URL,
  env: ExecEnvironment,
  timeoutMs: number,
): Promise<CredentialSource> {
  const cert = readBytes(u["client-certificate-data"], u["client-certificate"], "client certificate");
  const key = readBytes(u["client-key-data"], u["client-key"], "client key");
  const base: AuthState = { headers: {}, ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  if (typeof u.token === "string" && u.token !== "") {
    // A token wins over an exec plugin (client-go skips the plugin when a token is set).
    const state = { ...base, headers: { authorization: `Bearer ${u.token}` } };
    return { current: async () => state, invalidate: () => false };
  }
  if (typeof u.tokenFile === "string" && u.tokenFile !== "") {
    const file = u.tokenFile;
    let cached: { state: AuthState; readAt: number } | undefined;
    return {
      current: async () => {
        if (!cached || env.now() - cached.readAt >= TOKEN_FILE_TTL_MS) {
          const token = readTokenFile(file);
          cached = { state: { ...base, headers: { authorization: `Bearer ${token}` } }, readAt: env.now() };
        }
        return cached.state;
      },
      invalidate: () => {
        cached = undefined;
        return true;
      },
    };
  }
  if (typeof u.username === "string" && typeof u.password === "string") {
    const state = { ...base, headers: { authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}` } };
    return { current: async () => state, invalidate: () => false };
  }
  if (u.exec && typeof u.exec === "object") {
    const exec = u.exec as Record<string, unknown>;
    let cached: ExecResult | undefined;
    let running: Promise<ExecResult> | undefined;
    return {
      current: async () => {
        const due = !cached || (cached.expiresAt !== undefined && env.now() >= cached.expiresAt - EXEC_EXPIRY_MARGIN_MS);
        if (due) {
          // Parallel reads share one run of the plugin.
          running ??= runExecPlugin(exec, server, env, timeoutMs).finally(() => {
            running = undefined;
          });
          cached = await running;
        }
        const c = cached!;
        return { headers: c.headers, cert: c.cert ?? base.cert, key: c.key ?? base.key };
      },
      invalidate: () => {
        cached = undefined;
        return true;
      },
    };
  }
  if (u["auth-provider"]) {
    legacyCommand(u["auth-provider"]);
    const headers = await authProvider(doc, contextName);
    return { current: async () => ({ ...base, headers: await headers() }), invalidate: () => true };
  }
  return { current: async () => base, invalidate: () => false };
}

function readTokenFile(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    throw new ReadError(`unable to read token file ${sanitize(file)}`);
  }
}
