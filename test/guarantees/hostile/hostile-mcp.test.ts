// Hostile input through `kubectl ptah mcp`: worlds of hostile objects (hostile-arbitraries.ts, the
// same generator every view is held to) served to an MCP session driven by the SDK's client, every
// tool called on the world's names and namespaces. Every answer keeps the contract an assistant
// relies on: the session never ends or crashes, a refusal is one `error: …` line (never an
// internal error), and nothing on the wire or in any text holds a raw
// control character (JSON escapes what it must; the transport escapes DEL, C1 and bidi too).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FakeReader } from "../../support/fake-reader.ts";
import { mcpSession } from "../../support/mcp.ts";
import { ALL_KINDS, worldOf, type World } from "./hostile-arbitraries.ts";
import { runs } from "../../properties/runs.ts";

/** What a person may see in a text: the line break and the tab (inside SQL), nothing else below U+0020. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
/** The wire: one JSON message a line, so not even a tab. */
const UNSAFE_ON_WIRE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

const CI = process.env.CI === "true" || process.env.CI === "1";
const WORLDS = runs(CI ? 60 : 20);

function namesOf(world: World): { names: string[]; namespaces: string[] } {
  const names = new Set<string>();
  const namespaces = new Set<string>(["app"]);
  for (const o of world.objects) {
    const meta = o.raw.metadata as { name?: unknown; namespace?: unknown } | undefined;
    if (typeof meta?.name === "string") names.add(meta.name);
    if (typeof meta?.namespace === "string") namespaces.add(meta.namespace);
  }
  return { names: [...names].slice(0, 3), namespaces: [...namespaces].slice(0, 2) };
}

function callsFor(world: World): [string, Record<string, unknown>][] {
  const { names, namespaces } = namesOf(world);
  const calls: [string, Record<string, unknown>][] = [];
  for (const namespace of namespaces) {
    calls.push(["status", { namespace }], ["inbox", { namespace }], ["approvals", { namespace }], ["ledger", { namespace }], ["plans", { namespace }]);
    for (const name of names) {
      calls.push(
        ["status", { schema: name, namespace }],
        ["schema", { schema: name, namespace }],
        ["plan", { schema: name, namespace }],
        ["diff", { schema: name, namespace }],
        ["history", { schema: name, namespace }],
        ["migration", { migration: name, namespace }],
        ["explain", { topic: [name], namespace }],
        ["approval_command", { schema: name, namespace }],
      );
    }
  }
  calls.push(["status", { allNamespaces: true }], ["approvals", { allNamespaces: true }], ["doctor", {}]);
  return calls;
}

const REFUSAL = /^error: (?!internal:)[^\n]*$/u;

describe("hostile input through the MCP tools (property)", { timeout: 300_000 }, () => {
  it(`${WORLDS} worlds of hostile objects, every tool: no crash, one-line refusals, no raw control character`, async () => {
    let calls = 0;
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ALL_KINDS).chain((kind) => worldOf(kind, 12)),
        async (world) => {
          const session = await mcpSession(new FakeReader(world.objects), [], { namespace: "app" });
          try {
            for (const [name, args] of callsFor(world)) {
              calls++;
              const r = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
              const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
              expect(UNSAFE.exec(text), `${name} ${JSON.stringify(args)}: ${JSON.stringify(text.slice(0, 300))}`).toBeNull();
              if (r.isError) expect(text, `${name} ${JSON.stringify(args)}`).toMatch(REFUSAL);
              else answered++;
            }
            for (const line of session.stdout().split("\n")) expect(UNSAFE_ON_WIRE.exec(line), line.slice(0, 300)).toBeNull();
          } finally {
            await session.client.close();
          }
          expect((await session.finished).status).toBe(0);
        },
      ),
      { numRuns: WORLDS },
    );
    console.log(`hostile input through mcp: ${WORLDS} worlds, ${calls} tool calls (${answered} answered, the rest refused in one line): 0 crashes, 0 raw control characters`);
  });
});
