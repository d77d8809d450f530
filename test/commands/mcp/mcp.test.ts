// `kubectl ptah mcp` in process: the real shell serving the SDK's real MCP client over a fake
// cluster. Each tool's structured answer is what the same command line prints with -o json, its
// text what it prints for a person; no tool sends anything but reads; bad calls are tool errors.
import { afterEach, describe, expect, it } from "vitest";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { aMigration, aMigrationPlan, awaitingSchema, cond } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { expectGolden } from "../../support/golden.ts";
import { mcpSession, type McpSession } from "../../support/mcp.ts";
import { PAGE_CHARS } from "../../../src/commands/mcp/mcp-answer.ts";
import { INVALID_REQUEST, MAX_LINE_BYTES } from "../../../src/commands/mcp/mcp-transport.ts";

const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const plan1 = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'CREATE TABLE "customers" ("id" bigint PRIMARY KEY)', severity: "safe", reason: "tables_added" }],
  createdAt: "2026-11-30T11:30:00Z",
});

function cluster(): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan1) }) },
    ...fakeObjectsOf(plan1),
    {
      kind: "PtahMigration",
      raw: aMigration({ name: "billing", namespace: "app", phase: "AwaitingApproval", conditions: [cond("Ready", "False", "AwaitingApproval", "waiting")] }),
    },
    // The plan the migration names, so no pin dangles.
    { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
  ]);
}

let session: McpSession | undefined;
afterEach(async () => {
  await session?.client.close();
  session = undefined;
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await session!.client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

// Each tool, its arguments, and the command line a person would type for the same answer.
const CASES: readonly (readonly [string, Record<string, unknown>, readonly string[], readonly string[] | undefined])[] = [
  ["status", { namespace: "app" }, ["status", "-n", "app"], undefined],
  ["status", { schema: "storefront", namespace: "app" }, ["status", "storefront", "-n", "app"], undefined],
  ["schema", { schema: "storefront", namespace: "app" }, ["schema", "storefront", "-n", "app"], ["-o", "text"]],
  ["plan", { schema: "storefront", namespace: "app" }, ["plan", "storefront", "-n", "app"], ["-o", "text"]],
  ["plan", { schema: "storefront", namespace: "app", locks: true }, ["plan", "storefront", "-n", "app", "--locks"], ["-o", "text"]],
  ["plans", { namespace: "app" }, ["plans", "-n", "app"], undefined],
  ["approvals", { allNamespaces: true }, ["approvals", "-A"], undefined],
  ["ledger", { schema: "storefront", namespace: "app" }, ["ledger", "storefront", "-n", "app"], undefined],
  ["inbox", { namespace: "app" }, ["inbox", "-n", "app"], undefined],
  ["inbox", { namespace: "app", locks: true }, ["inbox", "-n", "app", "--locks"], undefined],
  ["history", { schema: "storefront", namespace: "app" }, ["history", "storefront", "-n", "app"], undefined],
  ["migration", { migration: "billing", namespace: "app" }, ["migration", "billing", "-n", "app"], ["-o", "text"]],
  ["explain", { topic: ["stale"] }, ["explain", "stale"], undefined],
  ["explain", { topic: ["storefront"], namespace: "app" }, ["explain", "storefront", "-n", "app"], undefined],
];

describe("kubectl ptah mcp", () => {
  it("lists the tool set in the golden, every tool marked read-only", async () => {
    session = await mcpSession(cluster());
    const { tools } = await session.client.listTools();
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    await expectGolden(`${JSON.stringify(tools, null, 2)}\n`, "mcp/tools.json");
    expect(session.client.getServerVersion()).toEqual({ name: "kubectl-ptah", version: "v0.0.0-test" });
  });

  it.each(CASES)("%s %j: structured = the command's -o json, text = its human output", async (tool, args, argv, textFlags) => {
    session = await mcpSession(cluster());
    const r = await call(tool, args);
    const json = await runCliWith([...argv, "-o", "json"], cluster());
    const text = await runCliWith([...argv, ...(textFlags ?? [])], cluster());
    expect(json.status, json.stderr).toBe(0);
    expect(r.isError ?? false, textOf(r)).toBe(false);
    const parsed: unknown = JSON.parse(json.stdout);
    expect(r.structuredContent).toEqual(Array.isArray(parsed) ? { items: parsed } : parsed);
    expect(textOf(r)).toBe(text.stdout);
  });

  it("approval_command hands over the command and the verified plan, and nothing is created", async () => {
    const reader = cluster();
    session = await mcpSession(reader, ["--context", "prod"]);
    const r = await call("approval_command", { schema: "storefront", namespace: "app" });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    const s = r.structuredContent as { command: string; plan: { name: string; uid: string; fingerprint: string }; note: string };
    expect(s.command).toBe("kubectl ptah approve storefront -n app --context prod | kubectl create --context prod -f -");
    expect(s.plan).toEqual({ name: plan1.name, uid: (plan1.plan.metadata as { uid: string }).uid, fingerprint: plan1.fingerprint });
    expect(s.note).toContain("an assistant must never run it");
    expect(textOf(r)).toContain(plan1.fingerprint);
    expect(textOf(r)).not.toContain("apiVersion");
    expect(reader.requests.every((q) => q.startsWith("get ") || q.startsWith("list "))).toBe(true);
  });

  it("sends only reads, whatever is asked of every tool", async () => {
    const reader = cluster();
    let dryRuns = 0;
    reader.dryRun = () => {
      dryRuns++;
      return { object: {} };
    };
    session = await mcpSession(reader);
    for (const [tool, args] of CASES) await call(tool, args);
    await call("doctor", { namespace: "app" });
    expect((await call("approval_command", { schema: "storefront", namespace: "app" })).isError ?? false).toBe(false);
    await call("approval_command", { migration: "billing", namespace: "app" });
    expect(dryRuns).toBe(0);
    // Reads, and the two reviews the read-only rule allows (they persist nothing); never a create.
    expect(reader.requests.filter((q) => !/^(get|list) |^create SelfSubjectAccessReview |^create SelfSubjectReview$/u.test(q))).toEqual([]);
    expect(reader.requests.some((q) => q.startsWith("create?dryRun"))).toBe(false);
  });

  it("refuses what a tool cannot be asked, as tool errors with one line", async () => {
    session = await mcpSession(cluster());
    const flagName = await call("status", { schema: "--kubeconfig=/etc/passwd" });
    expect(flagName.isError).toBe(true);
    expect(textOf(flagName)).toBe("error: invalid arguments for status: schema: a Kubernetes name: lower-case letters, digits, '-' and '.'");
    const extra = await call("status", { context: "prod" });
    expect(textOf(extra)).toMatch(/^error: invalid arguments for status: arguments: Unrecognized key: "context"$/u);
    const unknown = await call("approve", { schema: "storefront" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^error: unknown tool "approve"; the tools are status, schema, /u);
    const both = await call("approvals", { schema: "storefront", migration: "billing", namespace: "app" });
    expect(textOf(both)).toBe("error: name a schema or a migration, not both");
    const missing = await call("plan", { schema: "nothere", namespace: "app" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^error: .*nothere/u);
    expect(textOf(missing)).not.toContain("\n");
  });

  it("pages a long answer; the pages put together are the whole text", async () => {
    const big = publishSchemaPlan({
      schema: SCHEMA,
      statements: Array.from({ length: 4000 }, (_, i) => ({
        sql: `ALTER TABLE "customers" ADD COLUMN "c${i}" text -- ${"x".repeat(40)}`,
        severity: "safe",
        reason: "columns_added",
      })),
      createdAt: "2026-11-30T11:30:00Z",
    });
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(big) }) }, ...fakeObjectsOf(big)]);
    session = await mcpSession(reader);
    const whole = (await runCliWith(["plan", "storefront", "-n", "app", "-o", "text"], reader)).stdout;
    expect(whole.length).toBeGreaterThan(2 * PAGE_CHARS);
    const pages: string[] = [];
    for (let n = 1; ; n++) {
      const r = await call("plan", { schema: "storefront", namespace: "app", page: n });
      const text = textOf(r);
      const note = /\n\[page (\d+) of (\d+) [^\n]*\]\n$/u.exec(text);
      expect(note, text.slice(-300)).not.toBeNull();
      expect(text.length).toBeLessThanOrEqual(PAGE_CHARS + 400);
      pages.push(text.slice(0, note!.index + 1));
      if (note![1] === note![2]) break;
      expect(text).toContain(`ask again with page ${n + 1}`);
      expect(text).toContain("kubectl ptah plan --namespace=app --output=text storefront");
    }
    expect(pages.join("")).toBe(whole);
  });

  it("ends when the client goes away, and answers nothing a cancelled call asked", async () => {
    const reader = cluster();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const get = reader.get.bind(reader);
    reader.get = async (kind, ns, name) => {
      if (name === "storefront") await held;
      return get(kind, ns, name);
    };
    session = await mcpSession(reader);
    const controller = new AbortController();
    const cancelled = session.client.callTool({ name: "schema", arguments: { schema: "storefront", namespace: "app" } }, undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    controller.abort("the person changed their mind");
    await expect(cancelled).rejects.toThrow();
    release();
    const next = await call("explain", { topic: ["stale"] });
    expect(next.isError ?? false).toBe(false);
    const before = session.stdout();
    await session.client.close();
    const end = await session.finished;
    expect(end.status).toBe(0);
    expect(end.stdout).toBe("");
    // The cancelled request (id 1 after initialize's 0) was never answered.
    expect(before.split("\n").filter((l) => l.includes('"id":1,') || l.endsWith('"id":1}'))).toEqual([]);
    session = undefined;
  });

  it("answers a message over the bound with a JSON-RPC error under its id, at once, and goes on", async () => {
    session = await mcpSession(cluster());
    // Through the SDK's client, which writes the id last: refused, not left to its 60 s timeout.
    const started = Date.now();
    const long = session.client.callTool({ name: "explain", arguments: { topic: ["x".repeat(MAX_LINE_BYTES + 10)] } }, undefined, { timeout: 60_000 });
    await expect(long).rejects.toMatchObject({ code: INVALID_REQUEST, message: expect.stringMatching(/is over this server's bound of 1048576 bytes for one message$/u) as string });
    expect(Date.now() - started).toBeLessThan(30_000);
    // A request that writes its id first, in a chunk after a whole message; a notification (no id) over the bound; a line that is not JSON.
    session.input.push(`{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"${"x".repeat(2 * 1024 * 1024)}"}}\n`);
    session.input.push(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"pad":"${"x".repeat(2 * 1024 * 1024)}"}}\n`);
    session.input.push("not json at all\n");
    const r = await call("explain", { topic: ["stale"] });
    expect(r.isError ?? false).toBe(false);
    const answers = session
      .stdout()
      .split("\n")
      .filter((l) => l.includes('"error"'));
    expect(answers.map((l) => (JSON.parse(l) as { id: unknown; error: { code: number } }).id)).toEqual([expect.any(Number), 99]);
    expect(answers.every((l) => l.length < 300)).toBe(true);
  });

  it("answers a tools/call whose params do not read with -32602 and one line, not -32603 with the schema's issues", async () => {
    session = await mcpSession(cluster());
    const CASES: [unknown, string][] = [
      [{ name: "status", arguments: "storefront" }, "invalid params for tools/call: arguments must be an object of the tool's arguments, not string"],
      [{ name: "status", arguments: ["storefront"] }, "invalid params for tools/call: arguments must be an object of the tool's arguments, not an array"],
      [{ name: 5 }, "invalid params for tools/call: name must be a string, the name of a tool (tools/list lists them)"],
      [{}, "invalid params for tools/call: name must be a string, the name of a tool (tools/list lists them)"],
    ];
    for (const [params, line] of CASES) {
      const r = session.client.request({ method: "tools/call", params: params as never }, CallToolResultSchema);
      await expect(r).rejects.toMatchObject({ code: -32602, message: `MCP error -32602: ${line}` });
    }
    // A method nobody serves is still "Method not found"; a tool call that reads still works.
    await expect(session.client.request({ method: "prompts/list" }, CallToolResultSchema)).rejects.toMatchObject({ code: -32601 });
    expect((await call("explain", { topic: ["stale"] })).isError ?? false).toBe(false);
  });
});

describe("mcp's permissions", () => {
  it("are exactly the union of what its tools' command lines need (never approve --dry-run=server or doctor --probe)", async () => {
    const { ALL_COMMANDS } = await import("../../../src/commands/all-commands.ts");
    const { TOOL_SHAPES } = await import("../../../src/commands/mcp/mcp-tools.ts");
    const verbs = new Set(Object.keys(TOOL_SHAPES).map((t) => (t === "approval_command" ? "approve" : t)));
    const key = (r: { verb: string; group: string; resource: string }) => `${r.verb} ${r.group}/${r.resource}`;
    const union = new Set(
      ALL_COMMANDS.filter((c) => verbs.has(c.name))
        .flatMap((c) => c.permissions)
        .filter((f) => !/--dry-run=server|--probe|--contexts|--all-contexts|--watch|-w\b|kubectl create/u.test(f.form))
        .flatMap((f) => f.rules.map(key)),
    );
    const mcp = ALL_COMMANDS.find((c) => c.name === "mcp")!;
    expect(mcp.permissions).toHaveLength(1);
    expect(new Set(mcp.permissions[0]!.rules.map(key))).toEqual(union);
  });
});
