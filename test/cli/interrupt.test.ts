// Ctrl-C on a watch exits 130 (128 + SIGINT), as kubectl get -w does under a shell:
// the real bin in a child process, watching a local TLS server that holds the watch open.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awaitingSchema } from "../support/builders.ts";
import { FaultServer, emptyList, list, makePki, sendJson, tempDir, writeKubeconfig } from "../support/fault-server.ts";
import { REPO_ROOT } from "../support/lab.ts";

const BIN = path.join(REPO_ROOT, "bin", "kubectl-ptah.js");
let dir = "";
let server: FaultServer;
let kubeconfig = "";

beforeAll(async () => {
  // dist/ is built by `npm test`; build it here when this file runs alone.
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "start.cjs"))) {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "krew", "bundle.mjs")], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  }
  dir = tempDir("ptah-interrupt-");
  const pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
  server.reset((req, res) => {
    const url = new URL(req.url ?? "/", "https://x");
    if (url.searchParams.get("watch") === "true") {
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders(); // held open: only Ctrl-C ends this watch
      return;
    }
    sendJson(res, 200, url.pathname.endsWith("/ptahschemas") ? list([awaitingSchema()]) : emptyList());
  });
  kubeconfig = writeKubeconfig(dir, "config", { server: server.url, caFile: pki.caFile });
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function interrupted(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      // The first change record is out: the watch is running. Ctrl-C.
      if (!sent && stdout.includes("storefront")) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("Ctrl-C", () => {
  it("ends status --watch with exit 130 and nothing on stderr", { timeout: 30_000 }, async () => {
    const r = await interrupted(["status", "-n", "app", "--watch"]);
    expect(r.stdout).toContain("ptahschema/app/storefront");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(130);
  });
});
