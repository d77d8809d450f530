// A declarative-data plan's statements carry row values: plan, approve and diff say so, the
// served -o json document is unchanged, and the MCP server withholds the statements unless it was
// started with --allow-row-values (the SDK's real client over the real shell).
import { afterEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { runCliWith } from "../../support/cli.ts";
import { dataPlan, dataPlanCluster, ROW_SECRET } from "../../support/data-plan.ts";
import { expectGolden } from "../../support/golden.ts";
import { mcpSession, type McpSession } from "../../support/mcp.ts";
import { plan1 } from "../../support/storefront-plans.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { awaitingSchema } from "../../support/builders.ts";
import { currentPlanStatus, fakeObjectsOf } from "../../support/publish-plan.ts";

const run = (argv: readonly string[], reader = dataPlanCluster()) => runCliWith(argv, reader, { now: new Date("2026-11-30T12:00:00Z") });
const MARK = "this plan carries row values";

describe("a plan that carries row values", () => {
  it("is marked in plan's text header and its Markdown, and -o json is the document as served", async () => {
    const text = await run(["plan", "storefront", "-n", "app"]);
    expect(text.status, text.stderr).toBe(0);
    await expectGolden(text.stdout, "plan/data-plan.txt");
    expect(text.stdout).toContain(`Row values:     ${MARK} (public.countries, settings)`);
    const md = await run(["plan", "storefront", "-n", "app", "-o", "markdown"]);
    expect(md.stdout).toContain(`**${MARK}** (\`public.countries\`, \`settings\`)`);
    const json = await run(["plan", "storefront", "-n", "app", "-o", "json"]);
    expect(json.stdout).toBe(dataPlan.document);
  });

  it("is not marked when the plan manages no rows", async () => {
    const reader = new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema({ plan: currentPlanStatus(plan1) }) }, ...fakeObjectsOf(plan1)]);
    for (const o of ["text", "markdown"]) expect((await run(["plan", "storefront", "-n", "app", "-o", o], reader)).stdout).not.toMatch(/row values/iu);
    expect((await run(["approve", "storefront", "-n", "app"], reader)).stdout).not.toMatch(/row values/iu);
  });

  it("is named in approve's header, the manifest unchanged", async () => {
    const r = await run(["approve", "storefront", "-n", "app"]);
    expect(r.status, r.stderr).toBe(0);
    await expectGolden(r.stdout, "approve/data-plan.yaml");
    expect(r.stdout).toContain(`#   row values:        YES: ${MARK} (public.countries, settings)`);
    const json = await run(["approve", "storefront", "-n", "app", "-o", "json"]);
    expect(json.stdout).not.toMatch(/row values|rowValues/iu);
  });

  it("is named in plan --locks -o json", async () => {
    const r = await run(["plan", "storefront", "-n", "app", "--locks", "-o", "json"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ rowValues: ["public.countries", "settings"] });
  });
});

describe("mcp and a plan that carries row values", () => {
  let session: McpSession | undefined;
  afterEach(async () => {
    await session?.client.close();
    session = undefined;
  });
  const call = async (name: string, args: Record<string, unknown>) => (await session!.client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

  it.each([
    ["plan", { schema: "storefront", namespace: "app" }],
    ["plan", { schema: "storefront", namespace: "app", locks: true }],
    ["diff", { schema: "storefront", namespace: "app", from: `plan/${plan1.name}` }],
  ] as const)("withholds the statements by default: %s %j", async (tool, args) => {
    session = await mcpSession(dataPlanCluster(fakeObjectsOf(plan1)));
    const r = await call(tool, args);
    const text = textOf(r);
    expect(r.isError ?? false).toBe(false);
    expect(text).toMatch(/^withheld: this plan carries row values \(public\.countries, settings\), and access to it is access to that data; [^\n]*--allow-row-values[^\n]*\n$/u);
    expect(JSON.stringify(r.structuredContent)).not.toContain(ROW_SECRET);
    expect(text).not.toContain("INSERT");
    expect(r.structuredContent).toMatchObject({ withheld: true, rowValues: ["public.countries", "settings"] });
  });

  it("serves them when started with --allow-row-values", async () => {
    session = await mcpSession(dataPlanCluster(), ["--allow-row-values"]);
    const r = await call("plan", { schema: "storefront", namespace: "app" });
    expect(textOf(r)).toContain(ROW_SECRET);
    expect(r.structuredContent).toMatchObject({ managed_rows: [{ table: "countries" }, { table: "settings" }] });
  });
});
