// A declarative-data plan on the lab, through the real kubectl: the plan the simulator makes for the
// countries reference table (test/sim/catalog-rows.ts: the table, then its rows) is published in an
// unlabelled namespace the operator's way (plan, chunks, Ready), so the shared lab's simulator, whatever
// its version, never touches it: its document carries `managed_rows` and its statements the rows'
// values, and the schema's drift report lists `data_rows_inserted`, as the simulator writes them. `plan` marks it, `plans -o wide` and `inbox` show ROW VALUES (from the drift
// report without --locks, from the verified plan with it), approve's header names the tables,
// `status --report --with-sql` carries the statements (and no credential), and `mcp` withholds them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createNamespace, createObject, labEnv, setStatus } from "../support/lab.ts";
import { labAwaitingStatus, publishPlanInLab } from "../support/lab-publish.ts";
import { credentialsOf } from "../support/kubeconfig-secrets.ts";
import { pluginEnv, ptah, schemaManifest } from "../support/plugin.ts";
import { diff, findingCategory, resolveSchema } from "../sim/catalog.ts";
import { managedRowsOf } from "../sim/catalog-rows.ts";

const skip = process.env.PTAH_E2E_SKIP;
const MARK = "this plan carries row values";
/** A row's value: only the plan's statements hold it. */
const ROW = "'Ruritania'";
let ns = "";

const line = (text: string, pattern: RegExp): string => text.split("\n").find((l) => pattern.test(l)) ?? "";

describe.skipIf(Boolean(skip))("a declarative-data plan on the lab", { timeout: 180_000 }, () => {
  beforeAll(() => {
    const art = resolveSchema("oci://registry.lab/schemas/countries:v1");
    if ("error" in art) throw new Error(art.error);
    // The simulator's plan from an empty database, and its drift categories.
    const { statements } = diff({ tables: [] }, art.model);
    ns = createNamespace("data-plan");
    const schema = createObject(schemaManifest(ns, "storefront"));
    const uid = (schema.metadata as { uid: string }).uid;
    const plan = publishPlanInLab({ schema: { name: "storefront", namespace: ns, uid }, statements, managedRows: managedRowsOf(statements, art.model.rows ?? []) });
    const findings = [...new Set(statements.map((st) => findingCategory(st.sql)))].map((category) => ({ category, count: 1, severity: "safe" }));
    setStatus(schema, { ...labAwaitingStatus(plan), target: { engine: "postgresql", driftFindingCount: findings.length, driftFindings: findings } });
  });

  it("plan marks it, and its SQL holds the rows", () => {
    const r = ptah(["plan", "storefront", "-n", ns]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Row values:\\s+${MARK} \\(public\\.countries\\); reading it is reading that data$`, "mu"));
    expect(r.stdout).toContain(`INSERT INTO "public"."countries" ("code", "name") VALUES ('DE', 'Germany'), ('RU', ${ROW});`);
  });

  it("plans -o wide shows ROW VALUES, and plans alone does not", () => {
    const wide = ptah(["plans", "storefront", "-n", ns, "-o", "wide"]);
    expect(wide.status, wide.stderr).toBe(0);
    expect(wide.stdout).toMatch(/\bROW VALUES\n/u);
    expect(line(wide.stdout, /^ptah-plan-/u)).toMatch(/yes: public\.countries$/u);
    expect(ptah(["plans", "storefront", "-n", ns]).stdout).not.toContain("ROW VALUES");
  });

  it("inbox shows ROW VALUES from the drift report, and from the verified plan with --locks", () => {
    const drift = ptah(["inbox", "-n", ns]);
    expect(drift.status, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(/\bROW VALUES\b/u);
    expect(line(drift.stdout, /ptahschema\/storefront/u)).toContain("yes (drift: rows to insert)");
    const locks = ptah(["inbox", "-n", ns, "--locks"]);
    expect(locks.status, locks.stderr).toBe(0);
    expect(line(locks.stdout, /ptahschema\/storefront/u)).toContain("yes: public.countries");
  });

  it("approve's header names it", () => {
    const r = ptah(["approve", "storefront", "-n", ns], "approver");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`#   row values:        YES: ${MARK} (public.countries)`);
  });

  it("status --report --with-sql carries the statements after the row-values line, and no credential", () => {
    const r = ptah(["status", "storefront", "-n", ns, "--report", "--with-sql"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`- **Row values:** **${MARK}** (\`public.countries\`)`);
    expect(r.stdout).toMatch(new RegExp(`\`\`\`sql\\nCREATE TABLE "countries" [^\\n]*;\\nINSERT INTO "public"\\."countries" [^\\n]*${ROW}\\);\\n\`\`\`\\n`, "u"));
    for (const s of credentialsOf(labEnv().kubeconfigs.viewer)) expect(r.stdout.includes(s), "a credential of the kubeconfig is in the report").toBe(false);
    expect(ptah(["status", "storefront", "-n", ns, "--report"]).stdout).not.toContain(ROW);
  });

  it("mcp withholds the statements", async () => {
    const env = Object.fromEntries(Object.entries(pluginEnv("viewer")).filter((e): e is [string, string] => e[1] !== undefined));
    const client = new Client({ name: "kubectl-ptah-e2e", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: "kubectl", args: ["ptah", "mcp", "-n", ns], env, stderr: "pipe" }));
    try {
      const r = (await client.callTool({ name: "plan", arguments: { schema: "storefront" } })) as CallToolResult;
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(text).toMatch(/^withheld: this plan carries row values \(public\.countries\)/u);
      expect(text).not.toContain(ROW);
      expect(JSON.stringify(r.structuredContent)).not.toContain("Ruritania");
    } finally {
      await client.close();
    }
  });
});
