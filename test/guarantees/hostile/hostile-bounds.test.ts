// Every input path fed the same hostile set — a YAML alias bomb, 5,000 levels of nesting, a stream
// that never ends (and, where the input arrives over time, one that trickles) — each run in a child
// process bounded from outside (bounded-run.ts: a 256 MB heap, a 45 s timeout that kills), through
// the one harness (runCliWith over the real connection code). Each must end by itself with one
// `error: …` line and an empty stdout (plan --verify's report of checks excepted, by design), or,
// for MCP, a JSON-RPC answer of one line under the request's id. An input expanded without bound
// dies on the heap limit, which fails the test with V8's report: no test here times anything.
// Inputs that cannot carry a hostile form are said beside their path (JSON has no aliases, so an
// alias bomb in a JSON input is a document that does not read as one).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Writable } from "node:stream";
import { boundedRun, removeChildScript, writeUntilClosed, type BoundedRun } from "../../support/bounded-run.ts";
import { runCliWith } from "../../support/cli.ts";
import { sendJson, useFaultServer, writeKubeconfig } from "../../support/fault-server.ts";
import { aliasBomb, DEEP, DEEP_EXPORT, ENDLESS_FILE } from "../../support/hostile-files.ts";
import { needTool } from "../../support/machine-tools.ts";
import { makeKey, writeAllowedSigners } from "../../support/ssh-keygen.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, SCHEMA } from "../../plan/fixtures.ts";
import { awaitingSchema } from "../../support/builders.ts";

const fault = useFaultServer("ptah-hostile-bounds-", { beforeAll, afterAll });
afterAll(removeChildScript);
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ NO_COLOR: "1", PATH: process.env.PATH, HOME: fault.home, ...extra });

let n = 0;
function file(text: string): string {
  const f = path.join(fault.dir, `hostile-${++n}`);
  fs.writeFileSync(f, text);
  return f;
}

/** The same three for every file path. */
const FILE_INPUTS: readonly (readonly [string, () => string])[] = [
  ["a YAML alias bomb", () => file(aliasBomb())],
  ["5,000 levels of nesting", () => file(DEEP)],
  ["a file that never ends (/dev/zero)", () => ENDLESS_FILE],
];

/** Ended by itself, one error line on stderr, stdout empty (or, for --verify, its report that printed nothing of the plan). */
function expectOneLine(r: BoundedRun, line: RegExp, verifyReport = false): void {
  expect(r.timedOut, `killed at the timeout; stderr: ${r.stderr.slice(0, 300)}`).toBe(false);
  expect(r.signal, r.stderr.slice(0, 500)).toBeNull();
  expect(r.stderr, r.stderr.slice(0, 500)).toMatch(/^error: [^\n]+\n$/u);
  expect(r.stderr).toMatch(line);
  expect([1, 2]).toContain(r.status);
  if (verifyReport && r.stdout !== "") expect(r.stdout).toMatch(/did not verify; nothing from it was printed\.\n$/u);
  else expect(r.stdout).toBe("");
}

describe("the kubeconfig", () => {
  it.each(FILE_INPUTS)("%s: one line, kubectl's words", async (_name, input) => {
    const f = input();
    const r = await boundedRun(["status", "--kubeconfig", f], { env: env() });
    expectOneLine(
      r,
      new RegExp(
        `^error: error loading config file "${f}": (yaml: document contains excessive aliasing|yaml: nesting is deeper than 128 levels|it is larger than 33554432 bytes)`,
        "u",
      ),
    );
  });
});

describe("-f FILE (plan --verify -f)", () => {
  const inputs = FILE_INPUTS.map(([name, input]) => [name, name.startsWith("5,000") ? () => file(DEEP_EXPORT) : input] as const);
  it.each(inputs)("%s: one line", async (_name, input) => {
    const r = await boundedRun(["plan", "--verify", "-f", input()], { env: env() });
    // The bomb is no JSON; the nesting is past the export's bound; the endless file past its 64 MiB.
    expectOneLine(r, /^error: (the export file is not JSON|the export file nests deeper than 132 levels|\/dev\/zero is larger than 67108864 bytes)/u, true);
  });
});

describe("standard input (plan --verify -f /dev/stdin)", () => {
  const feeds: readonly (readonly [string, (stdin: Writable) => Promise<void>])[] = [
    ["a YAML alias bomb", async (stdin) => void stdin.write(aliasBomb())],
    ["5,000 levels of nesting", async (stdin) => void stdin.write(DEEP_EXPORT)],
    // Written until the child stops reading (it ends at the bound): 200 MiB at most.
    ["a stream that never ends", (stdin) => writeUntilClosed(stdin, Buffer.alloc(1024 * 1024, 0x20), 200)],
  ];
  it.each(feeds)("%s: one line", async (_name, feed) => {
    const r = await boundedRun(["plan", "--verify", "-f", "/dev/stdin"], { env: env(), feed, pipe: true });
    expectOneLine(r, /^error: (the export file is not JSON|the export file nests deeper than 132 levels|\/dev\/stdin is larger than 67108864 bytes)/u, true);
  });
});

describe("the allowed signers file and the signature file", () => {
  let made: Promise<{ exported: string; allowed: string }> | undefined;
  /** A signed export and the allowed signers file naming its key, made once (ssh-keygen makes the key). */
  const signedExport = (ctx: { skip(note: string): never }): Promise<{ exported: string; allowed: string }> => {
    const tool = needTool(ctx, "ssh-keygen");
    made ??= (async () => {
      const key = makeKey(tool, fault.dir, "signer");
      const allowed = writeAllowedSigners(fault.dir, "allowed", [{ principal: "alice@example.com", key }]);
      const base = clusterState();
      const state = clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
      const exported = path.join(fault.dir, "export.json");
      const r = await runCliWith(["plan", SCHEMA, "--plan", state.applied.name, "--export", exported, "--sign", key], state.reader, { namespace: NS, now: FIXTURES_NOW });
      expect(r.status, r.stderr).toBe(0);
      return { exported, allowed };
    })();
    return made;
  };

  it.for(FILE_INPUTS)("--allowed-signers: %s: one line", async ([, input], ctx) => {
    const { exported } = await signedExport(ctx);
    const r = await boundedRun(["plan", "--verify", "-f", exported, "--allowed-signers", input()], { env: env() });
    expectOneLine(r, /^error: (the allowed signers file \S+ does not read at line 1: |\/dev\/zero is larger than 1048576 bytes)/u, true);
  });

  it.for(FILE_INPUTS)("--signature: %s: one line", async ([, input], ctx) => {
    const { exported, allowed } = await signedExport(ctx);
    const r = await boundedRun(["plan", "--verify", "-f", exported, "--allowed-signers", allowed, "--signature", input()], { env: env() });
    expectOneLine(r, /^error: (the export is not signed: \/dev\/zero is larger than 1048576 bytes|\S+ is not an SSH signature: )/u, true);
  });
});

describe("served objects (the fault server)", () => {
  const schemaPath = "/apis/operator.ptah.run/v1alpha1/namespaces/app/ptahschemas/storefront";
  const kubeconfig = (): string => writeKubeconfig(fault.dir, `config-${++n}`, { server: fault.server.url, caFile: fault.pki.caFile });

  it("the object a command is about, nested 5,000 deep: one line", async () => {
    fault.server.reset((req, res) => {
      if ((req.url ?? "").startsWith(schemaPath)) {
        const text = JSON.stringify(awaitingSchema()).replace(/\}$/u, `,"extra":${DEEP.trim()}}`);
        res.writeHead(200, { "content-type": "application/json" }).end(text);
        return;
      }
      sendJson(res, 404, {});
    });
    const r = await boundedRun(["schema", "storefront", "-n", "app"], { env: env({ KUBECONFIG: kubeconfig() }) });
    expectOneLine(r, /nested deeper than 128 levels/u);
  });

  it("a body that trickles and never ends: one line at --request-timeout", async () => {
    fault.server.reset((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"kind":"PtahSchema","metadata":{"name":"');
      const timer = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(timer));
    });
    const r = await boundedRun(["schema", "storefront", "-n", "app", "--request-timeout=2s"], { env: env({ KUBECONFIG: kubeconfig() }) });
    expectOneLine(r, /^error: /u);
  });
});

describe("MCP messages", () => {
  it("over the bound, 5,000 deep, a YAML bomb and a line that never ends: each answered or dropped, the server ends cleanly", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const deepCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"explain","arguments":{"topic":${DEEP.trim()}}}}`;
    const answered = (out: string): boolean => [2, 3, 4].every((id) => out.includes(`"id":${id}`));
    const r = await boundedRun(["mcp"], {
      env: env({ KUBECONFIG: path.join(fault.dir, "none") }),
      keepOpen: true,
      until: answered,
      feed: async (stdin) => {
        stdin.write(`${JSON.stringify(init)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
        stdin.write(`{"jsonrpc":"2.0","method":"ping","params":{"pad":"${"x".repeat(3 * 1024 * 1024)}"},"id":2}\n`);
        stdin.write(`${deepCall}\n`);
        stdin.write(`${aliasBomb().replace(/\n/gu, " ")}\n`);
        stdin.write(`{"jsonrpc":"2.0","id":4,"method":"ping"}\n`);
        // A line that never ends, 40 MiB of it, after the others: held no further than the bound.
        for (let i = 0; i < 40; i++) stdin.write(Buffer.alloc(1024 * 1024, 0x78));
      },
    });
    expect(r.timedOut, r.stderr.slice(0, 300)).toBe(false);
    expect(r.signal, r.stderr.slice(0, 500)).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n").filter(Boolean);
    const byId = new Map(lines.map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string }; result?: unknown }).map((m) => [m.id, m]));
    expect(byId.get(2)?.error?.code).toBe(-32600);
    expect(byId.get(2)?.error?.message).not.toContain("\n");
    // The nesting is one wrong argument to the tool: its one-line refusal.
    expect(byId.get(3)?.result).toEqual({
      content: [{ type: "text", text: "error: invalid arguments for explain: topic.0: Invalid input: expected string, received array" }],
      isError: true,
    });
    expect(byId.get(4)?.result).toEqual({});
    expect(r.stderr).not.toMatch(/\n\s+at /u);
  });
});
