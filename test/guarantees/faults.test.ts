// The fault matrix: the REAL CLI in-process (kubeconfig files, TLS, exec
// plugins, transport, reader, error mapping) against a local fault-injecting HTTPS server.
// Every failing case asserts the exit status, the exact single `error: …` line on stderr and
// an empty stdout; recoverable faults (a 429 or 5xx that passes, a 410 during a watch) end
// with exit 0 after a bounded number of requests.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { CliRun } from "../support/cli.ts";
import { awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { FaultServer, closedPort, emptyList, list, makePki, runRealCli, sendJson, statusBody, tempDir, writeKubeconfig, type Handler, type Pki } from "../support/fault-server.ts";

const NS = "/apis/operator.ptah.run/v1alpha1/namespaces/app";
const SCHEMAS = `${NS}/ptahschemas`;

let dir: string;
let home: string;
let pki: Pki;
let server: FaultServer;
let expiredServer: FaultServer;
const covered: string[] = [];

beforeAll(async () => {
  dir = tempDir("ptah-faults-");
  home = path.join(dir, "home");
  fs.mkdirSync(home);
  pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
  expiredServer = await new FaultServer(pki.expiredCert, pki.serverKey).start();
});

afterAll(async () => {
  await server?.close();
  await expiredServer?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `fault matrix: ${covered.length} faults covered (${covered.join("; ")}); each asserts the exit status, stdout and the exact stderr: one error line, or exit 0 where the fault is retried or relisted`,
  );
});

function pathOf(url: string): string {
  return url.split("?")[0]!;
}

/** Lists for the namespace: the given schemas, nothing else. */
function healthy(schemas: Record<string, unknown>[] = [awaitingSchema()]): Handler {
  return (req, res) => sendJson(res, 200, pathOf(req.url ?? "") === SCHEMAS ? list(schemas) : emptyList());
}

/** Answers `fault` to the first `times` requests for each path (Infinity = always), then `healthy`. */
function faultFirst(times: number, fault: Handler): Handler {
  const counts = new Map<string, number>();
  const ok = healthy();
  return (req, res, seen) => {
    const p = pathOf(req.url ?? "");
    const n = (counts.get(p) ?? 0) + 1;
    counts.set(p, n);
    if (n <= times) fault(req, res, seen);
    else ok(req, res, seen);
  };
}

function requestsTo(p: string): number {
  return server.requests.filter((r) => pathOf(r.url) === p).length;
}

function expectFailure(r: CliRun, status: number, line: string): void {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status, stdout: "", stderr: `${line}\n` });
  expect(r.stderr.split("\n")).toHaveLength(2); // one line, then the final newline
  expect(r.stderr).not.toMatch(/\bat .*\.(ts|js):\d+/u); // no stack trace
}

let runs = 0;

/**
 * Runs the CLI against `server`. Unless a kubeconfig is given, each run gets its own token and
 * the server only counts requests bearing it (`token` names it for a given kubeconfig).
 */
async function run(argv: readonly string[], options: { kubeconfig?: string; token?: string; signal?: AbortSignal } = {}): Promise<CliRun> {
  let config = options.kubeconfig;
  let token = options.token;
  if (config === undefined) {
    token = `run-${++runs}`;
    config = writeKubeconfig(dir, `config-${runs}`, { server: server.url, caFile: pki.caFile, user: { token } });
  }
  server.token = token;
  return runRealCli(argv, { kubeconfig: config, home, signal: options.signal });
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await f();
  return { value, ms: performance.now() - start };
}

describe("fault matrix: connecting", () => {
  it("reports a refused connection on a closed port", async () => {
    const port = await closedPort();
    const config = writeKubeconfig(dir, "refused", { server: `https://127.0.0.1:${port}`, caFile: pki.caFile });
    const r = await run(["status", "--request-timeout=5s"], { kubeconfig: config });
    expectFailure(r, 1, `error: the connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?`);
    covered.push("connection refused");
  });

  it("reports an unknown host without hanging", async () => {
    const config = writeKubeconfig(dir, "unknown-host", { server: "https://nonexistent.invalid:6443", caFile: pki.caFile });
    const r = await run(["status", "--request-timeout=10s"], { kubeconfig: config });
    expectFailure(r, 1, "error: unable to connect to the server: dial tcp: lookup nonexistent.invalid: no such host");
    covered.push("unknown host");
  });

  it("refuses a server whose certificate the kubeconfig's CA did not sign, before sending anything", async () => {
    server.reset(healthy());
    const config = writeKubeconfig(dir, "other-ca", { server: server.url, caFile: pki.otherCaFile, user: { token: "other-ca" } });
    const r = await run(["status"], { kubeconfig: config, token: "other-ca" });
    expectFailure(r, 1, "error: unable to connect to the server: x509: certificate signed by unknown authority");
    expect(server.requests).toEqual([]);
    covered.push("TLS CA mismatch");
  });

  it("refuses an expired server certificate", async () => {
    expiredServer.reset(healthy());
    const config = writeKubeconfig(dir, "expired", { server: expiredServer.url, caFile: pki.caFile });
    const r = await run(["status"], { kubeconfig: config });
    expectFailure(r, 1, "error: unable to connect to the server: x509: certificate has expired or is not yet valid");
    expect(expiredServer.requests).toEqual([]);
    covered.push("expired certificate");
  });

  it("gives up on a server slower than --request-timeout, within about that time", async () => {
    server.reset(() => {
      /* never answers */
    });
    const { value: r, ms } = await timed(() => run(["status", "--request-timeout=1s"]));
    expectFailure(r, 1, `error: the server ${server.host} did not answer within 1s (--request-timeout)`);
    expect(ms).toBeLessThan(5000);
    covered.push("server slower than --request-timeout");
  });

  it("takes upstream's --timeout as the request timeout too", async () => {
    server.reset(() => {});
    const { value: r, ms } = await timed(() => run(["status", "--timeout", "1s"]));
    expectFailure(r, 1, `error: the server ${server.host} did not answer within 1s (--request-timeout)`);
    expect(ms).toBeLessThan(5000);
  });
});

describe("fault matrix: HTTP answers", () => {
  it("401 says the user must log in", async () => {
    server.reset(() => undefined);
    server.handler = (_req, res) => sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized"));
    const r = await run(["status"]);
    expectFailure(r, 1, "error: You must be logged in to the server (Unauthorized)");
    covered.push("401");
  });

  it("403 keeps the server's message (user, verb, resource, namespace) and names the missing rule", async () => {
    const message = 'ptahschemas.operator.ptah.run is forbidden: User "dev@example.com" cannot list resource "ptahschemas" in API group "operator.ptah.run" in the namespace "app"';
    server.reset((req, res) => {
      if (pathOf(req.url ?? "") === SCHEMAS) sendJson(res, 403, statusBody(403, "Forbidden", message));
      else sendJson(res, 200, emptyList());
    });
    const r = await run(["status"]);
    expectFailure(r, 1, `error: ${message} (needs an RBAC rule granting "list" on ptahschemas.operator.ptah.run) (kubectl ptah doctor explains what is missing)`);
    expect(r.stderr).toMatch(/cannot list resource "ptahschemas" .* in the namespace "app"/u);
    covered.push("403 Forbidden");
  });

  it("404 on a named schema exits 3 with the schema it looked for", async () => {
    server.reset((req, res) => {
      if (pathOf(req.url ?? "") === `${SCHEMAS}/storefront`) {
        sendJson(res, 404, statusBody(404, "NotFound", 'ptahschemas.operator.ptah.run "storefront" not found'));
      } else sendJson(res, 200, emptyList());
    });
    const r = await run(["status", "storefront"]);
    expectFailure(r, 3, "error: no such schema: app/storefront");
    covered.push("404 Not Found");
  });

  it("404 on a list means the CRD is not installed (exit 3)", async () => {
    server.reset((_req, res) => sendJson(res, 404, statusBody(404, "NotFound", "the server could not find the requested resource")));
    const r = await run(["status"]);
    expectFailure(r, 3, "error: the server doesn't have a resource type \"ptahschemas\": is the Ptah operator's CRD installed? (kubectl ptah doctor explains what is missing)");
  });

  it("404 on every list names the first kind the command reads, whichever answer comes first", async () => {
    // status lists schemas and migrations at once: the migrations' 404 arriving first must not
    // change the line (it once did, a flake of the doctor e2e's no-CRDs test).
    server.reset((req, res) => {
      const reply = (): void => sendJson(res, 404, statusBody(404, "NotFound", "the server could not find the requested resource"));
      if (pathOf(req.url ?? "").endsWith("/ptahschemas")) setTimeout(reply, 100);
      else reply();
    });
    const r = await run(["status"]);
    expectFailure(r, 3, "error: the server doesn't have a resource type \"ptahschemas\": is the Ptah operator's CRD installed? (kubectl ptah doctor explains what is missing)");
  });

  it("404 on a named schema whose CRD is missing names the CRD, not a missing schema (exit 1)", async () => {
    server.reset((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("404 page not found\n");
    });
    const r = await run(["schema", "storefront"]);
    expectFailure(r, 1, "error: the server doesn't have a resource type \"ptahschemas\": is the Ptah operator's CRD installed? (kubectl ptah doctor explains what is missing)");
  });

  it("429 with Retry-After: 1 is retried after the wait and then succeeds", async () => {
    server.reset(faultFirst(1, (_req, res) => sendJson(res, 429, statusBody(429, "TooManyRequests", "too many requests"), { "retry-after": "1" })));
    const { value: r, ms } = await timed(() => run(["status"]));
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^NAME +PHASE/u);
    expect(r.stdout).toContain("storefront");
    expect(requestsTo(SCHEMAS)).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(950); // Retry-After honoured
    covered.push("429 then success (retried)");
  });

  it("429 forever gives up after a bounded number of retries", async () => {
    server.reset(faultFirst(Infinity, (_req, res) => sendJson(res, 429, statusBody(429, "TooManyRequests", "too many requests, please try again later"), { "retry-after": "1" })));
    const r = await run(["status"]);
    expectFailure(r, 1, "error: the server is throttling requests (429 Too Many Requests): too many requests, please try again later");
    expect(requestsTo(SCHEMAS)).toBe(4); // the request and 3 retries
    covered.push("429 forever (bounded retry)");
  });

  it.each([
    { code: 500, reason: "InternalError", message: "etcdserver: request timed out" },
    { code: 503, reason: "ServiceUnavailable", message: "the server is currently unable to handle the request" },
  ])("$code then success is retried for reads", async ({ code, reason, message }) => {
    server.reset(faultFirst(2, (_req, res) => sendJson(res, code, statusBody(code, reason, message))));
    const r = await run(["status"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("storefront");
    expect(requestsTo(SCHEMAS)).toBe(3);
    covered.push(`${code} then success (retried)`);
  });

  it.each([
    { code: 500, reason: "InternalError", message: "etcdserver: request timed out" },
    { code: 503, reason: "ServiceUnavailable", message: "the server is currently unable to handle the request" },
  ])("$code forever is an error after bounded retries", async ({ code, reason, message }) => {
    server.reset(faultFirst(Infinity, (_req, res) => sendJson(res, code, statusBody(code, reason, message))));
    const r = await run(["status"]);
    expectFailure(r, 1, `error: ${message} (${code})`);
    expect(requestsTo(SCHEMAS)).toBe(4);
    covered.push(`${code} forever (bounded retry)`);
  });

  it("a 5xx without a Status body still gives one line", async () => {
    server.reset((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>\n<body>Bad Gateway</body>\n</html>\n");
    });
    const r = await run(["status"]);
    expectFailure(r, 1, "error: the server answered 502 to list ptahschemas.operator.ptah.run: <html>\\n<body>Bad Gateway</body>\\n</html>");
  });
});

describe("fault matrix: bodies", () => {
  it("a truncated body (Content-Length larger than what is sent, then close) is a read error", async () => {
    server.reset((req, res) => {
      if (pathOf(req.url ?? "") !== SCHEMAS) return sendJson(res, 200, emptyList());
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
      res.write('{"apiVersion":"v1","kind":"List","items":[{"metadata":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const r = await run(["status"]);
    expectFailure(r, 1, `error: the server closed the connection before the response to ${SCHEMAS} was complete`);
    covered.push("truncated body");
  });

  it("a body that stalls half-way is cut off at --request-timeout, not reported as truncated", async () => {
    server.reset((req, res) => {
      if (pathOf(req.url ?? "") !== SCHEMAS) return sendJson(res, 200, emptyList());
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
      res.write('{"apiVersion":"v1","kind":"List","items":[');
    });
    const { value: r, ms } = await timed(() => run(["status", "--request-timeout=1s"]));
    expectFailure(r, 1, `error: the server ${server.host} did not answer within 1s (--request-timeout)`);
    expect(ms).toBeLessThan(5000);
  });

  it("invalid JSON is a read error naming the request", async () => {
    server.reset((req, res) => {
      if (pathOf(req.url ?? "") !== SCHEMAS) return sendJson(res, 200, emptyList());
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"apiVersion":"v1","kind":"List","items":[{,]}');
    });
    const r = await run(["status"]);
    expectFailure(r, 1, "error: the server's answer to list ptahschemas.operator.ptah.run is not valid JSON (a truncated or corrupted response)");
    covered.push("invalid JSON");
  });

  it("an object that does not fit the model names the object and the field, and the list shows the others", async () => {
    const broken = awaitingSchema();
    (broken.metadata as Record<string, unknown>).name = 42;
    server.reset(healthy([broken, awaitingSchema({ name: "fine", uid: "schema-uid-fine" })]));
    const r = await run(["status"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^NAME +PHASE[^\n]*\nfine +AwaitingApproval/u);
    expect(r.stderr).toMatch(/^Warning: not shown: ptahschema app\/<unnamed> does not fit the PtahSchema model: metadata\.name: [^\n]+\n$/u);
  });
});

describe("fault matrix: exec credential plugins", () => {
  function plugin(name: string, body: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  }

  function execConfig(name: string, command: string): string {
    return writeKubeconfig(dir, name, {
      server: server.url,
      caFile: pki.caFile,
      // "./x" names a path: resolved against the kubeconfig's folder, as kubectl does.
      user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: `./${path.basename(command)}`, interactiveMode: "Never" } },
    });
  }

  it("uses the token a working plugin prints", async () => {
    server.reset(healthy());
    plugin("ok-plugin.sh", `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}'`);
    // The server answers 401 to any other token: exit 0 means the plugin's token was sent.
    const r = await run(["status"], { kubeconfig: execConfig("exec-ok", "ok-plugin.sh"), token: "from-plugin" });
    expect(r.status).toBe(0);
    expect(requestsTo(SCHEMAS)).toBe(1);
  });

  it("a plugin that exits 1 is a read error naming it, and nothing is sent", async () => {
    server.reset(healthy());
    const file = plugin("failing-plugin.sh", "exit 1");
    const r = await run(["status"], { kubeconfig: execConfig("exec-fail", file), token: "none" });
    expectFailure(r, 1, `error: getting credentials: exec: executable ${file} failed with exit code 1`);
    expect(server.requests).toEqual([]);
    covered.push("exec plugin fails");
  });

  it("a plugin that hangs is killed at --request-timeout", async () => {
    server.reset(healthy());
    const pidFile = path.join(dir, "hanging.pid");
    const file = plugin("hanging-plugin.sh", `echo $$ > '${pidFile}'\nexec sleep 60`);
    const { value: r, ms } = await timed(() => run(["status", "--request-timeout=1s"], { kubeconfig: execConfig("exec-hang", file), token: "none" }));
    expectFailure(r, 1, `error: getting credentials: exec plugin ${file} did not answer within 1s`);
    expect(ms).toBeLessThan(5000);
    expect(server.requests).toEqual([]);
    const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
    expect(await gone(pid, 3000)).toBe(true);
    covered.push("exec plugin hangs (killed)");
  });

  it("a wrapper script whose child hangs does not hold the CLI once the plugin is killed", async () => {
    server.reset(healthy());
    const pidFile = path.join(dir, "wrapper.pid");
    const sleepPidFile = path.join(dir, "wrapper-sleep.pid");
    // No exec: `sleep` is the plugin's child and keeps the stdout pipe open after the shell dies.
    const file = plugin("wrapper-plugin.sh", `echo $$ > '${pidFile}'\nsleep 60 &\necho $! > '${sleepPidFile}'\nwait\necho never`);
    onTestFinished(() => {
      // The orphan also holds the test runner's stderr: end it here (the CLI is not expected to).
      try {
        process.kill(Number(fs.readFileSync(sleepPidFile, "utf8").trim()), "SIGKILL");
      } catch {
        /* already gone */
      }
    });
    const handlesBefore = liveHandles();
    const { value: r, ms } = await timed(() => run(["status", "--request-timeout=1s"], { kubeconfig: execConfig("exec-wrapper", file), token: "none" }));
    expectFailure(r, 1, `error: getting credentials: exec plugin ${file} did not answer within 1s`);
    expect(ms).toBeLessThan(5000);
    expect(await gone(Number(fs.readFileSync(pidFile, "utf8").trim()), 3000)).toBe(true);
    // Nothing left that would keep a real process alive: no child process or pipe handle.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(liveHandles()).toEqual(handlesBefore);
  });
});

/** Child-process and pipe handles keeping the event loop alive. */
function liveHandles(): Record<string, number> {
  const counts: Record<string, number> = { ProcessWrap: 0, PipeWrap: 0 };
  for (const r of process.getActiveResourcesInfo()) if (r in counts) counts[r]!++;
  return counts;
}

/** Whether the process exits (and is reaped) within `ms`. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe("fault matrix: watch", () => {
  const expired = { type: "ERROR", object: statusBody(410, "Expired", "too old resource version: 5 (11)") };

  /**
   * status --watch over a server whose first schema watch fails with 410 Gone (as an ERROR
   * event, or as the HTTP status of the watch request): the reader must relist and watch again.
   */
  function watchServer(goneAsHttpStatus: boolean, done: () => void): Handler {
    let schemaLists = 0;
    let schemaWatches = 0;
    return (req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      const isWatch = url.searchParams.get("watch") === "true";
      if (url.pathname !== SCHEMAS) {
        if (!isWatch) return sendJson(res, 200, emptyList("5"));
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders(); // hold the watch open until the test ends
        return;
      }
      if (!isWatch) {
        schemaLists++;
        // The relist sees the schema after it converged.
        return sendJson(res, 200, list([schemaLists === 1 ? awaitingSchema() : inSyncSchema()], schemaLists === 1 ? "5" : "11"));
      }
      schemaWatches++;
      if (schemaWatches === 1) {
        if (goneAsHttpStatus) return sendJson(res, 410, statusBody(410, "Expired", "too old resource version: 5 (11)"));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`${JSON.stringify(expired)}\n`);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`${JSON.stringify({ type: "BOOKMARK", object: { kind: "PtahSchema", apiVersion: "operator.ptah.run/v1alpha1", metadata: { resourceVersion: "12" } } })}\n`);
      done();
    };
  }

  it.each([
    { name: "410 Gone as an ERROR event in the stream", http: false },
    { name: "410 Gone as the watch request's status", http: true },
  ])("$name: relists and carries on watching, no crash", async ({ http }) => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 15_000);
    server.reset(watchServer(http, () => setTimeout(() => controller.abort(), 100)));
    const r = await run(["status", "--watch"], { signal: controller.signal });
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    const schemaRequests = server.requests
      .filter((q) => pathOf(q.url) === SCHEMAS)
      .map((q) => (new URL(q.url, "https://x").searchParams.get("watch") === "true" ? `watch rv=${new URL(q.url, "https://x").searchParams.get("resourceVersion")}` : "list"));
    expect(schemaRequests).toEqual(["list", "watch rv=5", "list", "watch rv=11"]);
    // The first list printed the waiting schema; the relist printed its new state.
    expect(r.emitted).toMatch(/ADDED ptahschema\/app\/storefront phase=AwaitingApproval /u);
    expect(r.emitted).toMatch(/ADDED ptahschema\/app\/storefront phase=InSync /u);
    if (!http) covered.push("410 Gone during a watch (relist)");
    else covered.push("410 Gone on watch start (relist)");
  });
});

describe("fault matrix: configuration", () => {
  it("no kubeconfig at all is a clear error, never a request to localhost:8080", async () => {
    // Listen on 8080 when free, to prove nothing connects there.
    const probe = net.createServer();
    let connections = 0;
    probe.on("connection", (s) => {
      connections++;
      s.destroy();
    });
    const listening = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(8080, "127.0.0.1", () => resolve(true));
    });
    try {
      const empty = tempDir("ptah-nohome-");
      const r = await runRealCli(["status"], { home: empty });
      fs.rmSync(empty, { recursive: true, force: true });
      expectFailure(r, 1, "error: no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config (the plugin never guesses a server such as localhost:8080)");
      expect(connections).toBe(0);
    } finally {
      if (listening) await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
    covered.push("no kubeconfig");
  });

  it("--kubeconfig naming a missing file is an error (no fallback)", async () => {
    const missing = path.join(dir, "missing-config");
    const r = await runRealCli(["status", "--kubeconfig", missing], { home, kubeconfig: writeKubeconfig(dir, "unused", { server: server.url }) });
    expectFailure(r, 1, `error: stat ${missing}: no such file or directory`);
  });

  it('-n "" is refused as a usage error before any request', async () => {
    server.reset(healthy());
    const r = await run(["status", "-n", ""]);
    expectFailure(r, 2, "error: a namespace given with -n must not be empty (see 'kubectl ptah status -h' for help and examples)");
    expect(server.requests).toEqual([]);
    covered.push('-n "" refused');
  });

  it("a context naming a missing cluster is a one-line error", async () => {
    const file = path.join(dir, "dangling");
    fs.writeFileSync(file, JSON.stringify({ contexts: [{ name: "c", context: { cluster: "gone", user: "u" } }], "current-context": "c" }));
    const r = await run(["status"], { kubeconfig: file });
    expectFailure(r, 1, 'error: cluster "gone" of context "c" does not exist in the kubeconfig');
  });
});
