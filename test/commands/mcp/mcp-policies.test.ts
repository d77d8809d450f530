// The MCP server shows what the bound approval policies say, and offers nothing that endorses or
// approves: its tools are read command lines (the `endorse` and `policy` verbs are no tool's), and
// the status and inbox tools, run with the policies `policy render` prints served by the cluster,
// carry the Endorsed and Window read-back the same command lines print for a person.
import { afterEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { endorsementKey } from "../../../src/approval/endorsement.ts";
import { commandLine, TOOL_SHAPES, type ToolName } from "../../../src/commands/mcp/mcp-tools.ts";
import { LAST_SPEC_WRITER_USERNAME } from "../../../src/model/spec-writer.ts";
import { awaitingSchema } from "../../support/builders.ts";
import { runCliWith } from "../../support/cli.ts";
import { FakeInspector } from "../../support/fake-inspector.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { mcpSession, type McpSession } from "../../support/mcp.ts";
import { currentPlanStatus, fakeObjectsOf, publishSchemaPlan } from "../../support/publish-plan.ts";
import { rendered } from "../../explain/policy-requests.ts";

const SCHEMA = { name: "storefront", namespace: "app", uid: "schema-uid-1" };
const plan = publishSchemaPlan({
  schema: SCHEMA,
  statements: [{ sql: 'DROP TABLE "customers"', severity: "destructive", reason: "tables_removed" }],
  createdAt: "2026-11-30T11:30:00Z",
});

/** The schema waiting with a destructive plan, written by carol and endorsed by alice. */
function cluster(): FakeReader {
  const schema = awaitingSchema({ plan: currentPlanStatus(plan) });
  const meta = schema.metadata as Record<string, unknown>;
  const fingerprint = String((currentPlanStatus(plan) as { fingerprint: string }).fingerprint);
  meta.annotations = { ...(meta.annotations as object), [LAST_SPEC_WRITER_USERNAME]: "carol", [endorsementKey(fingerprint)]: "alice" };
  return new FakeReader([{ kind: "PtahSchema", raw: schema }, ...fakeObjectsOf(plan)]);
}

async function inspector(): Promise<FakeInspector> {
  const i = new FakeInspector();
  // Closed at the tests' fixed now (Monday 2026-11-30 12:00 UTC).
  i.policySet = await rendered(["--endorsements", "2", "--endorser-group", "dba", "--window", "Tue-Thu 09:00-16:00 Europe/Berlin"]);
  return i;
}

let session: McpSession | undefined;
afterEach(async () => {
  await session?.client.close();
  session = undefined;
});

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const call = async (name: string, args: Record<string, unknown>) => (await session!.client.callTool({ name, arguments: args })) as CallToolResult;

const ENDORSED = /\n {2}Endorsed: +1\/2 \(alice\)\n/u;
const WINDOW = /\n {2}Window: +closed — opens Tue 09:00 Europe\/Berlin \(in 20h 0m\)\n/u;

describe("kubectl ptah mcp and the approval policies", () => {
  it("has no tool that endorses, renders policies or creates anything: every tool is a read command line", async () => {
    session = await mcpSession(cluster(), [], { inspector: await inspector() });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_SHAPES).sort());
    for (const t of tools) {
      expect(t.name).not.toMatch(/endorse|policy|annotate|patch|create/iu);
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    // The verb each tool runs, with every argument it takes: reads, and approve only as approval_command (it prints).
    const verbs = new Set((Object.keys(TOOL_SHAPES) as ToolName[]).map((tool) => commandLine(tool, { schema: "storefront", topic: ["stale"] }, "json")[0]));
    expect(verbs).not.toContain("endorse");
    expect(verbs).not.toContain("policy");
    expect([...verbs].sort()).toEqual(["status", "schema", "plan", "plans", "diff", "approvals", "ledger", "inbox", "history", "migration", "explain", "doctor", "approve"].sort());
  });

  it("status on a schema shows the Endorsed and Window lines the command line prints", async () => {
    const i = await inspector();
    session = await mcpSession(cluster(), [], { inspector: i });
    const r = await call("status", { schema: "storefront", namespace: "app" });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    const text = textOf(r);
    expect(text).toMatch(ENDORSED);
    expect(text).toMatch(WINDOW);
    const person = await runCliWith(["status", "storefront", "-n", "app"], cluster(), { inspector: await inspector() });
    expect(person.stdout).toMatch(ENDORSED);
    expect(text).toContain(person.stdout.trimEnd());
    expect(i.requests).toContain("list validatingadmissionpolicies -l ptah.run/approval-policy");
  });

  it("inbox carries ENDORSED and WINDOW, as text and as structured rows", async () => {
    session = await mcpSession(cluster(), [], { inspector: await inspector() });
    const r = await call("inbox", { namespace: "app" });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    expect(textOf(r)).toMatch(/ENDORSED +WINDOW/u);
    expect(textOf(r)).toContain("1/2 (alice)");
    expect(JSON.stringify(r.structuredContent)).toContain('"endorsed":"1/2 (alice)"');
    expect(JSON.stringify(r.structuredContent)).toMatch(/"window":"closed — opens Tue 09:00 Europe\/Berlin/u);
  });

  it("without policies bound, status says nothing of endorsements or windows", async () => {
    session = await mcpSession(cluster(), [], { inspector: new FakeInspector() });
    const text = textOf(await call("status", { schema: "storefront", namespace: "app" }));
    expect(text).toContain("storefront");
    expect(text).not.toMatch(/Endorsed|Window/u);
  });
});
