// `kubectl ptah mcp`: the plugin's read commands as tools of a Model Context Protocol server on
// stdio (the SDK's server; our transport over the shell's streams). Each tool call is the command
// line tools.ts makes of it, run by the shell itself (ctx.runLine) through the one connection the
// server made at its start: its -o json answer is the structured result, its human text the
// content. So an assistant sees exactly what `kubectl ptah … -o json` prints, verified the same
// way, and reaches the cluster only through the read-only seam every command uses.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, ListToolsRequestSchema, type CallToolResult, type JSONRPCRequest, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { RefusalError } from "../../errors.ts";
import { sanitizeMultiline } from "../../render/sanitize.ts";
import type { Connection, GlobalOptions, LineResult, RunContext } from "../command-types.ts";
import { pageOf, shown, structuredOf } from "./mcp-answer.ts";
import { approvalCommand } from "./mcp-approval-tool.ts";
import { ArgumentError, commandLine, DESCRIPTIONS, OUTPUTS, TOOL_SHAPES, type AnyArgs, type ToolName } from "./mcp-tools.ts";
import { rowValueTablesOf, withheldAnswer } from "./mcp-row-values.ts";
import { LineTransport } from "./mcp-transport.ts";

/** Tool calls served at once; more wait their turn (each is up to two command lines). */
export const MAX_CALLS_AT_ONCE = 4;

const INSTRUCTIONS =
  "Read-only inspector of the Ptah schema operator (operator.ptah.run): schemas, plans, approvals, migrations and what waits for a person. " +
  "Every answer is what `kubectl ptah` prints for the same arguments, with plans verified before they are shown. " +
  "This server never creates, changes or deletes anything, and it never approves: approval_command returns the command a person runs; hand it to the user.";

/**
 * A tool served beside the plugin's own (none in the shipped command): the read-only proof's test
 * adds one that writes, to see the audit-log proof of an MCP session go red.
 */
export interface ExtraTool {
  readonly name: string;
  readonly description: string;
  readonly call: () => Promise<CallToolResult>;
}

export interface McpServeOptions {
  /** Serve the statements of plans that carry row values (the command's --allow-row-values). */
  readonly allowRowValues: boolean;
}

export async function serveMcp(ctx: RunContext, options: McpServeOptions, extra: readonly ExtraTool[] = []): Promise<void> {
  if (!ctx.input || !ctx.runLine) throw new RefusalError("mcp needs standard input and the shell's line runner");
  const runLine = ctx.runLine.bind(ctx);
  // The cluster is chosen once, by the server's own flags; the first call connects.
  let connection: Promise<Connection> | undefined;
  const connect = (global: GlobalOptions): Promise<Connection> => {
    // A failed connect (the server not up yet, an expired credential) is tried again by the next call.
    const made = (connection ??= ctx.connect().catch((err: unknown) => {
      connection = undefined;
      throw err;
    }));
    return made.then((c) => (global.namespace === undefined ? c : { ...c, namespace: global.namespace }));
  };
  const gate = semaphore(MAX_CALLS_AT_ONCE);
  const server = new Server({ name: "kubectl-ptah", version: ctx.version }, { instructions: INSTRUCTIONS, capabilities: { tools: {} } });
  const extraByName = new Map(extra.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...TOOLS, ...extra.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object" as const } }))],
  }));
  // tools/call is served by the fallback handler, so that no schema of the SDK reads its params
  // first: a call whose params do not read is -32602 with one line, not -32603 with the schema's
  // issues as JSON. Any other method nobody serves is "Method not found", as before.
  server.fallbackRequestHandler = async (request, handler) => {
    if (request.method !== "tools/call") throw rpcError(ErrorCode.MethodNotFound, "Method not found");
    const { name, args } = callParams(request);
    const more = extraByName.get(name);
    if (more) return more.call();
    if (!Object.hasOwn(TOOL_SHAPES, name)) return toolError(`error: unknown tool "${name}"; the tools are ${Object.keys(TOOL_SHAPES).join(", ")}`);
    const tool = name as ToolName;
    // Our own check, so that a refusal is one line naming each field wrong (the SDK's is several).
    const parsed = z.strictObject(TOOL_SHAPES[tool]).safeParse(args);
    if (!parsed.success) return toolError(`error: invalid arguments for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")}`);
    return gate(() => {
      const signal = AbortSignal.any([ctx.signal, handler.signal]);
      const run = (argv: readonly string[]): Promise<LineResult> => runLine(argv, { signal, connect });
      return call(tool, parsed.data as AnyArgs, run, ctx, options).catch(toolError);
    });
  };
  const transport = new LineTransport(ctx.input(), (text) => ctx.emit(text), ctx.log ?? (() => {}));
  await server.connect(transport);
  const aborted = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
  await Promise.race([transport.done, aborted]);
  await server.close();
}

/** The tools as tools/list gives them: each argument shape as JSON Schema, each marked read-only. */
const TOOLS: Tool[] = (Object.keys(TOOL_SHAPES) as ToolName[]).map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  inputSchema: z.toJSONSchema(z.strictObject(TOOL_SHAPES[name]), { target: "draft-7" }) as Tool["inputSchema"],
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
}));

async function call(name: ToolName, args: AnyArgs, run: (argv: readonly string[]) => Promise<LineResult>, ctx: RunContext, options: McpServeOptions): Promise<CallToolResult> {
  if (name === "approval_command") return approvalCommand(args, run, ctx.global);
  const outputs = OUTPUTS[name];
  const jsonLine = commandLine(name, args, outputs.json);
  const [json, text] = await Promise.all([run(jsonLine), run(commandLine(name, args, outputs.text))]);
  const failed = [json, text].find((r) => r.stdout === "" && r.status !== 0);
  if (failed) return toolError(failed.stderr);
  const structured = structuredOf(json.stdout, jsonLine);
  const rowTables = options.allowRowValues ? [] : rowValueTablesOf(name, structured.value);
  if (rowTables.length > 0) return withheldAnswer(rowTables, shown(commandLine(name, { ...args, page: undefined }, outputs.text)));
  const page = pageOf(sanitizeMultiline(text.stdout), args.page ?? 1, commandLine(name, { ...args, page: undefined }, outputs.text));
  const notes = [page.note, structured.note].filter((n) => n !== undefined).join("\n");
  return {
    content: [{ type: "text", text: notes ? `${page.text}${page.text.endsWith("\n") || page.text === "" ? "" : "\n"}${notes}\n` : page.text }],
    structuredContent: structured.value,
  };
}

/** A JSON-RPC error the SDK sends as it is: its code, and the message without the SDK's "MCP error" prefix. */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A tools/call's params: a tool's name and an object of arguments, or -32602 saying in one line what is wrong. */
function callParams(request: JSONRPCRequest): { name: string; args: unknown } {
  const params = request.params;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(params)) throw rpcError(ErrorCode.InvalidParams, "invalid params for tools/call: params must be an object with the tool's name and its arguments");
  if (typeof params.name !== "string") throw rpcError(ErrorCode.InvalidParams, "invalid params for tools/call: name must be a string, the name of a tool (tools/list lists them)");
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    throw rpcError(
      ErrorCode.InvalidParams,
      `invalid params for tools/call: arguments must be an object of the tool's arguments, not ${Array.isArray(params.arguments) ? "an array" : params.arguments === null ? "null" : typeof params.arguments}`,
    );
  }
  return { name: params.name, args: params.arguments ?? {} };
}

/** A refusal as MCP's tool error: the plugin's one `error: …` line, nothing else. */
export function toolError(err: unknown): CallToolResult {
  const line = typeof err === "string" ? err : err instanceof ArgumentError ? `error: ${err.message}` : `error: internal: ${err instanceof Error ? err.message : String(err)}`;
  const text = sanitizeMultiline(line.trim()).split("\n")[0] ?? "error";
  return { content: [{ type: "text", text }], isError: true };
}

/** At most `n` tasks at once, the rest in arrival order. */
function semaphore(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
