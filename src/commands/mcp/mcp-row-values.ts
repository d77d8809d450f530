// A declarative-data plan's statements carry the rows' values, so handing its SQL to an assistant
// hands it the data. Unless the server was started with --allow-row-values, the plan and diff
// tools answer such a plan with one line saying so instead of its statements. Pure.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sanitize } from "../../errors.ts";
import { managedTableName } from "../../plan/document.ts";
import type { ToolName } from "./mcp-tools.ts";

/** The tools whose answers quote a plan's statements. */
const QUOTES_SQL: ReadonlySet<ToolName> = new Set<ToolName>(["plan", "diff"]);

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function tableOf(m: unknown): string | undefined {
  if (m === null || typeof m !== "object") return undefined;
  const { schema, table } = m as { schema?: unknown; table?: unknown };
  if (typeof table !== "string") return undefined;
  return managedTableName({ schema: typeof schema === "string" ? schema : undefined, table });
}

/**
 * The tables whose rows the answer's plans carry, read from the tool's -o json: the plan document's
 * `managed_rows`, or the `rowValues` our own summaries (plan --locks, diff's two sides) add.
 */
export function rowValueTablesOf(tool: ToolName, structured: Record<string, unknown>): string[] {
  if (!QUOTES_SQL.has(tool)) return [];
  const found = new Set<string>();
  if (Array.isArray(structured["managed_rows"])) for (const m of structured["managed_rows"]) found.add(tableOf(m) ?? "");
  for (const t of strings(structured["rowValues"])) found.add(t);
  for (const side of ["from", "to"]) {
    const plan = (structured[side] as { plan?: { rowValues?: unknown } } | undefined)?.plan;
    for (const t of strings(plan?.rowValues)) found.add(t);
  }
  found.delete("");
  return [...found];
}

/** The answer in place of the statements: one plain line, and how to be served them. */
export function withheldAnswer(tables: readonly string[], command: string): CallToolResult {
  const names = tables.map(sanitize).join(", ");
  const text =
    `withheld: this plan carries row values (${names}), and access to it is access to that data; ` +
    `this server serves such statements only when started with --allow-row-values (kubectl ptah mcp --allow-row-values); a person can read it with: ${command}`;
  return { content: [{ type: "text", text: `${text}\n` }], structuredContent: { withheld: true, rowValues: tables.map(sanitize), command } };
}
