// Watches across a restarting API server (the lab part is test/e2e/faults.e2e.test.ts,
// which found these): once a watch's connection was lost, a server still starting answers 403
// (authorizer not synced) or 404 (CRD handlers not served yet) for a moment: the watch retries
// them (for up to RECONNECT_GRACE_MS) instead of failing. On first contact the same answers are
// the user's problem and fail at once. A watch event whose object does not fit the model is one
// warning line and the watch goes on; a line that is not JSON is never dropped: the
// watch resumes from the last resourceVersion, or lists again when the same line tears twice.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { FaultServer, emptyList, list, makePki, runRealCli, sendJson, statusBody, tempDir, writeKubeconfig, type Handler, type Pki } from "../support/fault-server.ts";

const SCHEMAS = "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemas";
let dir: string;
let home: string;
let pki: Pki;
let server: FaultServer;
let runs = 0;

beforeAll(async () => {
  dir = tempDir("ptah-reconnect-");
  home = path.join(dir, "home");
  fs.mkdirSync(home);
  pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function run(argv: readonly string[], signal: AbortSignal) {
  const token = `r-${++runs}`;
  server.token = token;
  const kubeconfig = writeKubeconfig(dir, `config-${runs}`, { server: server.url, caFile: pki.caFile, user: { token } });
  return runRealCli(argv, { kubeconfig, home, signal });
}

const FORBIDDEN = statusBody(
  403,
  "Forbidden",
  'ptahschemas.operator.ptah.run is forbidden: User "lab-viewer" cannot watch resource "ptahschemas" in API group "operator.ptah.run" in the namespace "app"',
);
const NOT_SERVED = statusBody(404, "NotFound", "the server could not find the requested resource");

function isWatch(url: URL): boolean {
  return url.searchParams.get("watch") === "true";
}

/** Other kinds: empty lists and watches held open. */
function quiet(url: URL, res: Parameters<Handler>[1]): void {
  if (!isWatch(url)) return sendJson(res, 200, emptyList("5"));
  res.writeHead(200, { "content-type": "application/json" });
  res.flushHeaders();
}

describe("a watch across a restarting API server", () => {
  it("retries 403 and 404 after a lost connection, then carries on (status --watch)", async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    let watches = 0;
    const schemaRequests: string[] = [];
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) {
        schemaRequests.push("list");
        return sendJson(res, 200, list([schemaRequests.length === 1 ? awaitingSchema() : inSyncSchema()], "5"));
      }
      watches++;
      schemaRequests.push(`watch ${watches}`);
      if (watches === 1) {
        // Established, then the server goes away mid-stream.
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        setTimeout(() => res.socket?.destroy(), 100);
        return;
      }
      // The restarted server: authorizer not synced, then CRDs not served, then fine but the
      // resource version is too old.
      if (watches === 2) return sendJson(res, 403, FORBIDDEN);
      if (watches === 3) return sendJson(res, 404, NOT_SERVED);
      if (watches === 4) return sendJson(res, 410, statusBody(410, "Expired", "too old resource version: 5 (9)"));
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      setTimeout(() => controller.abort(), 200);
    });
    const r = await run(["status", "--watch"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(schemaRequests).toEqual(["list", "watch 1", "watch 2", "watch 3", "watch 4", "list", "watch 5"]);
    expect(r.emitted).toMatch(/ADDED ptahschema\/app\/storefront phase=AwaitingApproval /u);
    expect(r.emitted).toMatch(/ADDED ptahschema\/app\/storefront phase=InSync /u);
  });

  it("fails at once on a 403 at first contact, naming the missing rule", async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) return sendJson(res, 200, list([awaitingSchema()], "5"));
      sendJson(res, 403, FORBIDDEN);
    });
    const start = performance.now();
    const r = await run(["wait", "storefront", "--for=phase=InSync", "--timeout=60s"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      `error: ${FORBIDDEN.message as string} (needs an RBAC rule granting "watch" on ptahschemas.operator.ptah.run) (kubectl ptah doctor explains what is missing)\n`,
    );
    expect(performance.now() - start).toBeLessThan(5000);
  });

  it("a watch event whose object does not fit the model is one warning line; the watch goes on (status --watch)", async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) return sendJson(res, 200, list([awaitingSchema()], "5"));
      const broken = awaitingSchema();
      (broken.metadata as Record<string, unknown>).resourceVersion = "6";
      (broken.status as Record<string, unknown>).conditions = "not a list";
      const fixed = inSyncSchema();
      (fixed.metadata as Record<string, unknown>).resourceVersion = "7";
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`${JSON.stringify({ type: "MODIFIED", object: broken })}\n`);
      res.write(`${JSON.stringify({ type: "MODIFIED", object: fixed })}\n`);
      setTimeout(() => controller.abort(), 200);
    });
    const r = await run(["status", "--watch"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(r.logged).toEqual([expect.stringMatching(/^Warning: not shown: ptahschema app\/storefront does not fit the PtahSchema model: status\.conditions: [^\n]+$/u)]);
    expect(r.emitted).toMatch(/ADDED ptahschema\/app\/storefront phase=AwaitingApproval /u);
    expect(r.emitted).toMatch(/MODIFIED ptahschema\/app\/storefront phase=InSync /u);
    expect(r.emitted).not.toMatch(/MODIFIED ptahschema\/app\/storefront phase=AwaitingApproval/u);
  });

  it("wait warns about a target that does not fit and keeps waiting until a version that fits meets the condition", async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) return sendJson(res, 200, list([awaitingSchema()], "5"));
      const broken = awaitingSchema();
      (broken.metadata as Record<string, unknown>).resourceVersion = "6";
      (broken.status as Record<string, unknown>).conditions = "not a list";
      const fixed = inSyncSchema();
      (fixed.metadata as Record<string, unknown>).resourceVersion = "7";
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`${JSON.stringify({ type: "MODIFIED", object: broken })}\n`);
      setTimeout(() => res.write(`${JSON.stringify({ type: "MODIFIED", object: fixed })}\n`), 100);
    });
    const r = await run(["wait", "storefront", "--for=phase=InSync", "--timeout=60s"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "ptahschema.operator.ptah.run/storefront phase InSync met\n", stderr: "" });
    expect(r.logged).toEqual([expect.stringMatching(/^Warning: not shown: ptahschema app\/storefront does not fit the PtahSchema model: status\.conditions: /u)]);
  });

  it("a watch line that is not JSON loses nothing: the watch resumes from the last resourceVersion; torn twice there, it lists again", async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    const seen: string[] = [];
    let watches = 0;
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) {
        seen.push("list");
        return sendJson(res, 200, list([seen.length === 1 ? awaitingSchema() : inSyncSchema()], seen.length === 1 ? "5" : "9"));
      }
      watches++;
      seen.push(`watch from ${url.searchParams.get("resourceVersion")}`);
      res.writeHead(200, { "content-type": "application/json" });
      const changed = awaitingSchema({ name: "storefront" });
      (changed.metadata as Record<string, unknown>).resourceVersion = "6";
      (changed.metadata as Record<string, unknown>).labels = { moved: "yes" };
      // 1: a torn line at 5; 2: the event at 6, then a torn line at 6; 3: torn at 6 again: relist; 4: quiet.
      if (watches === 1) res.write(`{"type":"MODIFIED","object":{"metadata":\n`);
      if (watches === 2) res.write(`${JSON.stringify({ type: "MODIFIED", object: changed })}\n{"type":\n`);
      if (watches === 3) res.write(`not json\n`);
      if (watches === 4) setTimeout(() => controller.abort(), 100);
      res.flushHeaders();
    });
    const r = await run(["status", "--watch", "-o", "name"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(seen).toEqual(["list", "watch from 5", "watch from 5", "watch from 6", "list", "watch from 9"]);
    // The listed object, the event that came after the torn line, and the relisted one.
    expect(r.emitted.split("\n").filter(Boolean)).toEqual(Array(3).fill("ptahschema.operator.ptah.run/storefront"));
  });

  it("reconnects many times without piling listeners on the abort signal (no Node warning on stderr)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 20_000);
    let watches = 0;
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.pathname !== SCHEMAS) return quiet(url, res);
      if (!isWatch(url)) return sendJson(res, 200, list([awaitingSchema()], "5"));
      // The server ends every watch at once (as at timeoutSeconds), thirty times.
      res.writeHead(200, { "content-type": "application/json" });
      if (++watches < 30) return res.end();
      res.flushHeaders();
      setTimeout(() => controller.abort(), 100);
    });
    try {
      const r = await run(["status", "--watch"], controller.signal);
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
      expect(watches).toBe(30);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => /MaxListeners/u.test(w))).toEqual([]);
    } finally {
      clearTimeout(safety);
      process.off("warning", onWarning);
    }
  });
});
