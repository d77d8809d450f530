// No MCP answer carries a credential: every tool is asked everything it can be asked (each with and
// without a name, across namespaces, the refusals and the doctor's kubeconfig report included)
// through the real connection code, against a TLS server, with a kubeconfig that holds a bearer
// token, a client certificate and key and a CA inline; the whole stdout of the session (every
// message, every text, every structured answer) holds none of them, in any encoding the
// kubeconfig has them in.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { aMigration, awaitingSchema, cond } from "../../support/builders.ts";
import { REAL_CONNECTION } from "../../support/cli.ts";
import { FaultServer, emptyList, list, makePki, sendJson, tempDir, type Pki } from "../../support/fault-server.ts";
import { mcpSession } from "../../support/mcp.ts";
import { TOOL_SHAPES } from "../../../src/commands/mcp/mcp-tools.ts";

let dir = "";
let pki: Pki;
let server: FaultServer;
let kubeconfig = "";
const TOKEN = "kptah-secret-token-7f3a9c1e5b2d4860";

beforeAll(async () => {
  dir = tempDir("ptah-mcp-credentials-");
  pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
  const schema = awaitingSchema({ name: "storefront", namespace: "app" });
  const migration = aMigration({ name: "billing", namespace: "app", phase: "AwaitingApproval", conditions: [cond("Ready", "False", "AwaitingApproval", "waiting")] });
  server.reset((req, res) => {
    const url = new URL(req.url ?? "/", "https://x");
    const p = url.pathname;
    if (p === "/version") return sendJson(res, 200, { major: "1", minor: "33", gitVersion: "v1.33.0" });
    if (p.endsWith("/ptahschemas")) return sendJson(res, 200, list([schema]));
    if (p.endsWith("/ptahschemas/storefront")) return sendJson(res, 200, schema);
    if (p.endsWith("/ptahmigrations")) return sendJson(res, 200, list([migration]));
    if (p.endsWith("/ptahmigrations/billing")) return sendJson(res, 200, migration);
    if (req.method === "POST") return sendJson(res, 201, { status: { allowed: true, userInfo: { username: "tester" } } });
    if (/\/[a-z]+s$/u.test(p)) return sendJson(res, 200, emptyList());
    sendJson(res, 404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: `${p} not found` });
  });
  const b64 = (file: Buffer | string) => Buffer.from(typeof file === "string" ? fs.readFileSync(file) : file).toString("base64");
  kubeconfig = path.join(dir, "config");
  fs.writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server: server.url, "certificate-authority-data": b64(pki.caFile) } }],
      users: [{ name: "u", user: { token: TOKEN, "client-certificate-data": b64(pki.serverCert), "client-key-data": b64(pki.serverKey) } }],
      contexts: [{ name: "ctx", context: { cluster: "c", user: "u", namespace: "app" } }],
      "current-context": "ctx",
    }),
  );
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every argument set a tool accepts here: its required names, the optional ones, -A. */
function askEverything(): [string, Record<string, unknown>][] {
  const calls: [string, Record<string, unknown>][] = [];
  for (const [tool, shape] of Object.entries(TOOL_SHAPES)) {
    const keys = Object.keys(shape);
    const base: Record<string, unknown> = {};
    if (keys.includes("schema")) base.schema = "storefront";
    if (tool === "migration") base.migration = "billing";
    if (tool === "explain") base.topic = ["storefront"];
    calls.push([tool, base]);
    if (keys.includes("migration") && tool !== "migration") calls.push([tool, { migration: "billing" }]);
    if (keys.includes("allNamespaces")) calls.push([tool, { allNamespaces: true }]);
    calls.push([tool, { ...base, namespace: "nothere" }]);
    if (tool === "explain") calls.push([tool, {}], [tool, { topic: ["stale"] }], [tool, { topic: ["approval", "gone"] }]);
    if (tool === "plan") calls.push([tool, { ...base, applied: true }], [tool, { ...base, plan: "ptah-plan-0a1b" }]);
    if (tool === "diff") calls.push([tool, { ...base, from: "applied" }]);
  }
  return calls;
}

describe("mcp answers hold no credential", () => {
  it("every tool, asked everything, never returns the token, the client key, the certificate or the CA", async () => {
    const session = await mcpSession(REAL_CONNECTION, ["--request-timeout=5s"], { env: { NO_COLOR: "1", PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig } });
    let answered = 0;
    for (const [name, args] of askEverything()) {
      const r = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
      if (!r.isError) answered++;
    }
    await session.client.close();
    await session.finished;
    const wire = session.stdout();
    expect(answered).toBeGreaterThan(10);
    expect(wire).toContain("storefront");
    const key = pki.serverKey.toString("utf8");
    const cert = pki.serverCert.toString("utf8");
    const ca = fs.readFileSync(pki.caFile, "utf8");
    const secrets = [
      TOKEN,
      TOKEN.slice(0, 12),
      Buffer.from(TOKEN).toString("base64"),
      ...[key, cert, ca].flatMap((pem) => [Buffer.from(pem).toString("base64").slice(0, 40), ...pem.split("\n").filter((l) => l.length >= 40)]),
      "BEGIN",
    ];
    for (const secret of secrets) expect(wire.includes(secret), `the session's output holds ${JSON.stringify(secret.slice(0, 20))}…`).toBe(false);
  });
});
