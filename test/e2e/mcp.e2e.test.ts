// `kubectl ptah mcp` against the lab, driven by the MCP SDK's real client over real stdio: once as
// `kubectl ptah mcp` through the real kubectl (the npm bin on PATH) and once as the single binary.
// The tool set is the unit tier's golden; each tool's structured answer is what `kubectl ptah … -o json` prints
// for the same arguments; approval_command hands over a command and nothing is created; the whole
// session's requests in the audit log are reads and reviews only. Then the proof is shown able to
// fail: a session whose server has one more tool, one that writes, is judged and named red.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { serveMcp } from "../../src/commands/mcp/mcp-server.ts";
import type { AnyCommand } from "../../src/commands/command-types.ts";
import { isPluginIdentity, readOnlyVerdict, SENTINEL_USER, verdictFailures, type AuditEvent } from "../support/audit.ts";
import { REAL_CONNECTION } from "../support/cli.ts";
import { GOLDEN_DIR } from "../support/golden.ts";
import { API_VERSION, auditEventsSince, auditMark, createNamespace, createObject, kubectl, labEnv, sendAsSentinel, setStatus } from "../support/lab.ts";
import { labAwaitingStatus, publishPlanInLab, type LabPlan } from "../support/lab-publish.ts";
import { mcpSession } from "../support/mcp.ts";
import { pluginEnv, ptah, schemaManifest } from "../support/plugin.ts";

const skip = process.env.PTAH_E2E_SKIP;
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-mcp-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let ns = "";
let plan: LabPlan;
let schemaUid = "";
const planName = (): string => plan.published.name;
const planUid = (): string => (plan.plan.metadata as { uid: string }).uid;

/** The single binary: $PTAH_TEST_BIN, else dist/bin/kubectl-ptah (CI builds it first), else built here. */
function singleBinary(): string {
  const given = process.env.PTAH_TEST_BIN ?? path.join(ROOT, "dist", "bin", "kubectl-ptah");
  if (fs.existsSync(given)) return path.resolve(ROOT, given);
  const out = path.join(dir, "kubectl-ptah");
  const b = spawnSync(process.execPath, [path.join(ROOT, "krew", "build-binary.mjs"), "--out", out], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
  if (b.status !== 0) throw new Error(`building the single binary failed: ${b.stderr}`);
  return out;
}

interface Server {
  readonly name: string;
  readonly command: () => string;
  readonly args: () => string[];
  readonly env: () => Record<string, string>;
}

const stringEnv = (env: NodeJS.ProcessEnv): Record<string, string> => Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

const SERVERS: readonly Server[] = [
  { name: "kubectl ptah mcp (the npm bin, through kubectl)", command: () => "kubectl", args: () => ["ptah", "mcp", "-n", ns], env: () => stringEnv(pluginEnv("viewer")) },
  {
    name: "the single binary",
    command: singleBinary,
    args: () => ["mcp", "-n", ns],
    env: () => stringEnv({ ...process.env, KUBECONFIG: labEnv().pluginKubeconfigs.viewer, NO_COLOR: "1" }),
  },
];

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

// Tool, arguments, and the command line (after `kubectl ptah`, with -n added) that prints the same.
const CASES: readonly (readonly [string, Record<string, unknown>, readonly string[]])[] = [
  ["status", {}, ["status"]],
  ["status", { schema: "storefront" }, ["status", "storefront"]],
  ["schema", { schema: "storefront" }, ["schema", "storefront"]],
  ["plan", { schema: "storefront" }, ["plan", "storefront"]],
  ["plan", { schema: "storefront", locks: true }, ["plan", "storefront", "--locks"]],
  ["plans", {}, ["plans"]],
  ["approvals", {}, ["approvals"]],
  ["ledger", { schema: "storefront" }, ["ledger", "storefront"]],
  ["history", { schema: "storefront" }, ["history", "storefront"]],
  ["inbox", {}, ["inbox"]],
  ["inbox", { locks: true }, ["inbox", "--locks"]],
  ["explain", { topic: ["stale"] }, ["explain", "stale"]],
  ["explain", { topic: ["storefront"] }, ["explain", "storefront"]],
];

describe.skipIf(skip)("kubectl ptah mcp against the lab, with the SDK's client", { timeout: 180_000 }, () => {
  beforeAll(() => {
    ns = createNamespace("mcp");
    const schema = createObject(schemaManifest(ns, "storefront"));
    schemaUid = (schema.metadata as { uid: string }).uid;
    plan = publishPlanInLab({
      schema: { name: "storefront", namespace: ns, uid: schemaUid },
      statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY NOT NULL, "email" text NOT NULL)', severity: "safe", reason: "tables_added" }],
    });
    setStatus(schema, labAwaitingStatus(plan));
  });

  describe.each(SERVERS)("$name", (server) => {
    it("answers every tool as the CLI's -o json, creates nothing, and sends only reads and reviews", async () => {
      const mark = auditMark();
      const client = new Client({ name: "kubectl-ptah-e2e", version: "1.0.0" });
      const transport = new StdioClientTransport({ command: server.command(), args: server.args(), env: server.env(), stderr: "pipe" });
      let stderr = "";
      transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        // The unit tier's golden (test/commands/mcp/mcp.test.ts writes and compares it; this tier keeps none).
        expect(tools).toEqual(JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, "mcp", "tools.json"), "utf8")));
        for (const [tool, args, argv] of CASES) {
          const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
          expect(r.isError ?? false, `${tool}: ${textOf(r)}`).toBe(false);
          const cli = ptah([...argv, "-n", ns, "-o", "json"]);
          expect(cli.status, cli.stderr).toBe(0);
          const parsed: unknown = JSON.parse(cli.stdout);
          expect(r.structuredContent, `${tool} ${JSON.stringify(args)}`).toEqual(Array.isArray(parsed) ? { items: parsed } : parsed);
        }
        // The plan's text is the verified SQL a person reads.
        const planText = textOf((await client.callTool({ name: "plan", arguments: { schema: "storefront" } })) as CallToolResult);
        expect(planText).toBe(ptah(["plan", "storefront", "-n", ns]).stdout);
        expect(planText).toContain('CREATE TABLE "customers"');

        const doctor = (await client.callTool({ name: "doctor", arguments: {} })) as CallToolResult;
        expect(doctor.isError ?? false, textOf(doctor)).toBe(false);
        expect(textOf(doctor)).toContain("kubectl's version not asked (the MCP server starts no other program)");

        const hand = (await client.callTool({ name: "approval_command", arguments: { schema: "storefront" } })) as CallToolResult;
        expect(hand.isError ?? false, textOf(hand)).toBe(false);
        const s = hand.structuredContent as { command: string; plan: { name: string; fingerprint: string } };
        expect(s.command).toBe(`kubectl ptah approve storefront -n ${ns} | kubectl create -f -`);
        expect(s.plan.name).toBe(planName());
        expect(s.plan.fingerprint).toBe(plan.published.fingerprint);

        const refused = (await client.callTool({ name: "plan", arguments: { schema: "nothere" } })) as CallToolResult;
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/^error: [^\n]*nothere[^\n]*$/u);
      } finally {
        await client.close();
      }
      expect(stderr).toBe("");
      // Nothing was created: the namespace holds no approval.
      expect(kubectl(["get", "ptahschemaapprovals", "-o", "name"], { namespace: ns }).stdout).toBe("");
      // The session's requests, judged by the read-only proof's own rules.
      const mine = (e: AuditEvent) => isPluginIdentity(e) && e.objectRef?.namespace === ns;
      let events = auditEventsSince(mark).filter(mine);
      for (let i = 0; i < 20 && events.length < 30; i++) {
        await new Promise((r) => setTimeout(r, 250));
        events = auditEventsSince(mark).filter(mine);
      }
      expect(events.length).toBeGreaterThanOrEqual(30);
      expect(verdictFailures(readOnlyVerdict(events))).toEqual([]);
      expect(events.filter((e) => !["get", "list", "watch"].includes(e.verb)).map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(
        events.filter((e) => e.verb === "create").map(() => "create selfsubjectaccessreviews"),
      );
    });

    it("exits by itself when the client closes its input, without answering anything more", async () => {
      const child = spawn(server.command(), server.args(), { env: server.env(), stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.stdin.end(
        `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } })}\n`,
      );
      expect(await exited).toBe(0);
      expect(out.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(out) as { id: number }).toMatchObject({ id: 0 });
    });
  });

  it("the proof of an MCP session goes red when the server has a tool that writes", async () => {
    const env = labEnv();
    // The sentinel's certificate (a plugin identity the real verdict leaves out), as a kubeconfig.
    const kubeconfig = path.join(dir, "sentinel.yaml");
    fs.writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: lab, cluster: {server: "https://127.0.0.1:${env.ports.apiserver}", certificate-authority: ${JSON.stringify(env.caFile)}}}]
users: [{name: sentinel, user: {client-certificate: ${JSON.stringify(env.sentinel.cert)}, client-key: ${JSON.stringify(env.sentinel.key)}}}]
contexts: [{name: lab, context: {cluster: lab, user: sentinel, namespace: ${ns}}}]
current-context: lab
`,
    );
    const writes = {
      name: "create_approval",
      description: "A sentinel: creates an approval (no such tool ships)",
      call: async (): Promise<CallToolResult> => {
        const status = await sendAsSentinel("POST", `/apis/operator.ptah.run/v1alpha1/namespaces/${ns}/ptahschemaapprovals`, {
          apiVersion: API_VERSION,
          kind: "PtahSchemaApproval",
          metadata: { name: "sentinel-made" },
          spec: { schemaRef: { name: "storefront", uid: schemaUid }, planRef: { name: planName(), uid: planUid() }, planFingerprint: plan.published.fingerprint },
        });
        return { content: [{ type: "text", text: `HTTP ${status}` }] };
      },
    };
    const registry = ALL_COMMANDS.map((c): AnyCommand =>
      c.name === "mcp" ? { ...c, run: async (_o, ctx) => (await serveMcp(ctx, { allowRowValues: false }, [writes]), { kind: "printed", stdout: "" }) } : c,
    );
    const mark = auditMark();
    const session = await mcpSession(REAL_CONNECTION, [], { env: { KUBECONFIG: kubeconfig, NO_COLOR: "1" }, commands: registry, now: new Date() });
    for (const [tool, args] of CASES.slice(0, 4)) expect(((await session.client.callTool({ name: tool, arguments: args })) as CallToolResult).isError ?? false).toBe(false);
    const readsOnly = await sentinelEvents(mark, 4);
    expect(verdictFailures(readOnlyVerdict(readsOnly, { exemptUser: null }))).toEqual([]);
    await session.client.callTool({ name: "create_approval", arguments: {} });
    await session.client.close();
    await session.finished;
    const all = await sentinelEvents(mark, readsOnly.length + 1);
    const verdict = readOnlyVerdict(all, { exemptUser: null });
    const failures = verdictFailures(verdict);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("a create of ptahschemaapprovals without dryRun=All");
    // The sentinel's requests stay out of the real verdict, so this run still passes it.
    expect(readOnlyVerdict(all).requests.some((e) => e.user?.username === SENTINEL_USER)).toBe(false);
    kubectl(["delete", "ptahschemaapprovals", "sentinel-made", "--ignore-not-found"], { namespace: ns });
  });
});

async function sentinelEvents(mark: number, atLeast: number): Promise<AuditEvent[]> {
  const mine = (e: AuditEvent) => e.user?.username === SENTINEL_USER;
  let events = auditEventsSince(mark).filter(mine);
  for (let i = 0; i < 20 && events.length < atLeast; i++) {
    await new Promise((r) => setTimeout(r, 250));
    events = auditEventsSince(mark).filter(mine);
  }
  return events;
}
