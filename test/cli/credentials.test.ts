// Credentials that stay fresh, over the REAL connection code against a local
// HTTPS server that rejects expired tokens: an exec plugin whose tokens live 3 s is re-run before
// each expirationTimestamp through a `wait` of several lifetimes (and a watch's reconnects), and
// once after a 401; a tokenFile is re-read once it is a minute old (fake clock).
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCredentialPlugin } from "../../src/cli/process-guard.ts";
import { TOKEN_FILE_TTL_MS, userCredentials } from "../../src/kube/credentials.ts";
import { awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { list, runRealCli, sendJson, statusBody, useFaultServer, writeKubeconfig } from "../support/fault-server.ts";

const f = useFaultServer("ptah-creds-", { beforeAll, afterAll });

/** An exec plugin minting `exp-<epoch ms>` tokens that live `lifetimeMs`; counts its runs. */
function mintingPlugin(name: string, lifetimeMs: number): { kubeconfig: string; runs: () => number } {
  const counter = path.join(f.dir, `${name}.runs`);
  fs.writeFileSync(counter, "");
  const file = path.join(f.dir, `${name}.sh`);
  fs.writeFileSync(
    file,
    `#!/bin/sh
echo run >> '${counter}'
exp=$(( $(date +%s%3N) + ${lifetimeMs} ))
stamp=$(date -u -d @$(( exp / 1000 )) +%Y-%m-%dT%H:%M:%SZ)
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exp-%s","expirationTimestamp":"%s"}}' "$exp" "$stamp"
`,
    { mode: 0o755 },
  );
  const kubeconfig = writeKubeconfig(f.dir, `${name}.yaml`, {
    server: f.server.url,
    caFile: f.pki.caFile,
    user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: file, interactiveMode: "Never" } },
  });
  return { kubeconfig, runs: () => fs.readFileSync(counter, "utf8").split("\n").filter(Boolean).length };
}

/** 401 for a missing or expired `exp-<ms>` token; records every expired token it saw. */
function expiringTokens(rejected: string[], then: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const m = /^Bearer exp-(\d+)$/u.exec(req.headers.authorization ?? "");
    if (!m || Number(m[1]) < Date.now()) {
      rejected.push(req.headers.authorization ?? "");
      sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized"));
      return;
    }
    then(req, res);
  };
}

describe("credentials that stay fresh", () => {
  it("a wait that outlives several 3 s token lifetimes re-runs the exec plugin before each expiry; no request carries an expired token", async () => {
    const started = Date.now();
    const readyAfterMs = 10_000;
    const rejected: string[] = [];
    f.server.reset(
      expiringTokens(rejected, (req, res) => {
        const schema = Date.now() - started > readyAfterMs ? inSyncSchema() : awaitingSchema();
        if ((req.url ?? "").includes("watch=true")) {
          // A watch that the server ends after 1 s: the client reconnects with its current token.
          res.writeHead(200, { "content-type": "application/json" });
          setTimeout(() => res.end(), 1000);
          return;
        }
        sendJson(res, 200, list([schema], String(Date.now())));
      }),
    );
    // Relists happen when the watch is Gone: make every watch reconnect relist via a 410 once ready.
    const plugin = mintingPlugin("wait", 3000);
    const handler = f.server.handler;
    f.server.handler = (req, res, seen) => {
      if ((req.url ?? "").includes("watch=true") && Date.now() - started > readyAfterMs) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`${JSON.stringify({ type: "ERROR", object: { kind: "Status", code: 410 } })}\n`);
        return;
      }
      handler(req, res, seen);
    };
    const r = await runRealCli(["wait", "storefront", "--for=condition=Ready", "--timeout=30s"], { kubeconfig: plugin.kubeconfig, home: f.home });
    const elapsed = Date.now() - started;
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(elapsed).toBeGreaterThan(readyAfterMs);
    expect(rejected).toEqual([]);
    // At least one run per lifetime that passed, and not one per request.
    expect(plugin.runs()).toBeGreaterThanOrEqual(Math.floor(elapsed / 3000));
    expect(plugin.runs()).toBeLessThan(f.server.requests.length);
  }, 40_000);

  it("after a 401 the plugin is run once more and the request retried; a second 401 stands", async () => {
    const plugin = mintingPlugin("revoked", 60_000);
    let refused = 0;
    f.server.reset((req, res) => {
      if ((req.url ?? "").includes("ptahschemas") && refused === 0) {
        refused++;
        sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized"));
        return;
      }
      sendJson(res, 200, (req.url ?? "").includes("/ptahschemas/storefront") ? awaitingSchema() : list([]));
    });
    const r = await runRealCli(["status", "storefront", "-o", "name"], { kubeconfig: plugin.kubeconfig, home: f.home });
    expect(r).toMatchObject({ status: 0, stdout: "ptahschema.operator.ptah.run/storefront\n" });
    expect(plugin.runs()).toBe(2);

    const always = mintingPlugin("always", 60_000);
    f.server.reset((_req, res) => sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized")));
    const denied = await runRealCli(["status", "storefront"], { kubeconfig: always.kubeconfig, home: f.home });
    expect(denied.status).toBe(1);
    expect(denied.stdout).toBe("");
    expect(always.runs()).toBe(2);
  });

  it("a tokenFile is read again once it is a minute old, and at once after a 401", async () => {
    const file = path.join(f.dir, "token");
    fs.writeFileSync(file, "first\n");
    let now = 1_000_000;
    const source = await userCredentials(
      { tokenFile: file },
      { clusters: [], users: [], contexts: [] },
      "",
      new URL("https://x"),
      { env: {}, stdinIsTTY: false, now: () => now, startPlugin: startCredentialPlugin },
      1000,
    );
    expect((await source.current()).headers.authorization).toBe("Bearer first");
    fs.writeFileSync(file, "second\n");
    now += TOKEN_FILE_TTL_MS - 1;
    expect((await source.current()).headers.authorization).toBe("Bearer first");
    now += 1;
    expect((await source.current()).headers.authorization).toBe("Bearer second");
    fs.writeFileSync(file, "third\n");
    expect(source.invalidate()).toBe(true);
    expect((await source.current()).headers.authorization).toBe("Bearer third");
  });
});
