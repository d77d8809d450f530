// The review's nine ways out, each planted in a scratch copy of the built npm tree (at the top of
// the chunk a command loads, or of the transport's own chunk) and run as `kubectl ptah status`
// through the real kubectl against the lab, as the plugin's identity: each is refused at run time
// by the egress guard — one `error: refused to …` line, exit 1, stdout empty — while a listener of
// this process sees no connection and no byte, the sacrificial namespace a planted client-node
// DELETE aims at is still there, and no heap snapshot is written. (Were one to get through to the
// API server, the read-only proof of the run would name it too.)
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNamespace, getObject } from "../support/lab.ts";
import { runKubectl } from "../support/plugin.ts";
import { ensureNpmBundle, REPO, repack } from "../support/npm-bundle.ts";

const skip = process.env.PTAH_E2E_SKIP;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-egress-e2e-"));
const seen = { connections: 0, bytes: 0 };
let server: net.Server;
let port = 0;
let ns = "";
let victim = "";

/** The nine plants: HOST, PORT, DIR, VICTIM and CLIENT are filled in. */
const PLANTS: Readonly<Record<string, { chunk: RegExp; code: string }>> = {
  fetch: { chunk: /^status-command-/u, code: `fetch("http://HOST:PORT/x", { method: "DELETE" }).catch(() => {});` },
  "node:http": { chunk: /^status-command-/u, code: `require("node:http").request({ host: "HOST", port: PORT, method: "DELETE", path: "/x" }).on("error", () => {}).end();` },
  "node:http2": {
    chunk: /^status-command-/u,
    code: `{ const s = require("node:http2").connect("http://HOST:PORT"); s.on("error", () => {}); s.request({ ":method": "DELETE", ":path": "/x" }).on("error", () => {}).end(); }`,
  },
  "node:http in a vm context given createRequire": {
    chunk: /^status-command-/u,
    code: `require("node:vm").runInNewContext('load("node:http").request({ host: "HOST", port: PORT, method: "DELETE" }).on("error", () => {}).end()', { load: require("node:module").createRequire("/") });`,
  },
  "client-node's CoreV1Api through process.mainModule.require": {
    chunk: /^status-command-/u,
    code: `{ const k8s = process.mainModule.require("CLIENT"); const kc = new k8s.KubeConfig(); kc.loadFromDefault(); kc.makeApiClient(k8s.CoreV1Api).deleteNamespace({ name: "VICTIM" }).catch(() => {}); }`,
  },
  "a raw PATCH on a socket from http.Agent's createConnection, in the transport": {
    chunk: /^connect-/u,
    code: `new (require("node:http").Agent)().createConnection({ host: "HOST", port: PORT }).on("connect", function () { this.write("PATCH /x HTTP/1.1\\r\\nhost: x\\r\\n\\r\\n"); }).on("error", () => {});`,
  },
  "node:inspector.open()": { chunk: /^status-command-/u, code: `require("node:inspector").open(0, "HOST");` },
  "v8.writeHeapSnapshot()": { chunk: /^status-command-/u, code: `require("node:v8").writeHeapSnapshot("DIR/plant.heapsnapshot");` },
  "https through Function reached as a prototype's constructor": {
    chunk: /^status-command-/u,
    code: `Reflect.get(Object.getPrototypeOf(() => 0), "constructor")("return process")().getBuiltinModule("node:https").request({ host: "HOST", port: PORT, method: "DELETE", rejectUnauthorized: false }).on("error", () => {}).end();`,
  },
};

/** A copy of bin/ and dist/ with `code` first in the chunk `chunk` names, and a PATH folder whose kubectl-ptah runs it. */
function plantedPath(name: string, chunk: RegExp, code: string): string {
  const root = path.join(dir, name.replace(/[^a-z0-9]+/giu, "-"));
  for (const part of ["bin", "dist"]) fs.cpSync(path.join(REPO, part), path.join(root, part), { recursive: true });
  const chunks = path.join(root, "dist", "npm", "chunks");
  const file = fs.readdirSync(chunks).find((f) => chunk.test(f) && f.endsWith(".cjs"));
  expect(file, `the chunk ${String(chunk)}`).toBeDefined();
  fs.writeFileSync(path.join(chunks, file!), `${code}\n${fs.readFileSync(path.join(chunks, file!), "utf8")}`);
  repack(root);
  // The e2e setup's entry (kubeconfig twins: the plugin's own identity), pointed at the copy.
  const binDir = path.join(root, "path");
  fs.mkdirSync(binDir);
  const entry = fs.readFileSync(path.join(process.env.PTAH_BIN_DIR!, "kubectl-ptah"), "utf8");
  const bin = pathToFileURL(path.join(REPO, "bin", "kubectl-ptah.js")).href;
  expect(entry).toContain(bin);
  fs.writeFileSync(path.join(binDir, "kubectl-ptah"), entry.replace(bin, pathToFileURL(path.join(root, "bin", "kubectl-ptah.js")).href), { mode: 0o755 });
  return binDir;
}

describe.skipIf(skip)("ways out planted in the built plugin, through the real kubectl", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    ensureNpmBundle();
    ns = createNamespace("egress");
    victim = createNamespace("egress-victim");
    server = net.createServer((s) => {
      seen.connections++;
      s.on("data", (d: Buffer) => (seen.bytes += d.length));
      s.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => {
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(PLANTS))("refuses %s: one error line, exit 1, nothing reaches the listener", (name) => {
    const plant = PLANTS[name]!;
    const client = path.join(REPO, "node_modules", "@kubernetes", "client-node");
    const code = plant.code.replaceAll("HOST", "127.0.0.1").replaceAll("PORT", String(port)).replaceAll("DIR", dir).replaceAll("VICTIM", victim).replaceAll("CLIENT", client);
    const binDir = plantedPath(name, plant.chunk, code);
    const r = runKubectl(["ptah", "status", "-n", ns], "viewer", { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`, PTAH_CODE_CACHE: "off" });
    expect(r.stderr).toMatch(/^error: refused to [^\n]+: the plugin only reads \([^\n]+\)\n$/u);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(seen).toEqual({ connections: 0, bytes: 0 });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".heapsnapshot"))).toEqual([]);
    expect(getObject("Namespace", victim), `namespace ${victim}`).toBeDefined();
  });
});
