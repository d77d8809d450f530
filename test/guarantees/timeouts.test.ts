// Timeouts everywhere: no command can hang forever. A table over every command
// of the registry (src/commands/all-commands.ts) that talks to the cluster, run by the REAL CLI in-process
// against the fault server's endpoint that never answers: each gives up at --request-timeout with
// one error line and an empty stdout. `wait` is also bounded by its own --timeout, even with
// --request-timeout=0 and a server that never answers. `status --watch` and `history --watch` run
// until interrupted by design (as `kubectl get -w` does); their first reads honour
// --request-timeout, and an interrupt ends them.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { OFFLINE as OFFLINE_NOTE } from "../../src/commands/shared/permissions.ts";
import { awaitingSchema } from "../support/builders.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FaultServer, emptyList, list, makePki, runRealCli, sendJson, tempDir, writeKubeconfig, type Pki } from "../support/fault-server.ts";
import { REAL_CONNECTION } from "../support/cli.ts";
import { mcpSession } from "../support/mcp.ts";

let dir: string;
let home: string;
let pki: Pki;
let server: FaultServer;
let runs = 0;
const tally: string[] = [];

beforeAll(async () => {
  dir = tempDir("ptah-timeouts-");
  home = path.join(dir, "home");
  fs.mkdirSync(home);
  pki = makePki(dir);
  server = await new FaultServer(pki.serverCert, pki.serverKey).start();
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  console.log(`timeouts: ${tally.length} command lines against a server that never answers, each ended by --request-timeout or --timeout within its bound (${tally.join("; ")})`);
});

async function run(argv: readonly string[], signal?: AbortSignal): Promise<{ status: number; stdout: string; stderr: string; emitted: string; ms: number }> {
  const token = `t-${++runs}`;
  server.token = token;
  const kubeconfig = writeKubeconfig(dir, `config-${runs}`, { server: server.url, caFile: pki.caFile, user: { token }, namespace: "app" });
  const start = performance.now();
  const r = await runRealCli(argv, { kubeconfig, home, signal });
  return { ...r, ms: performance.now() - start };
}

const SILENT = (): void => {
  /* accepts the request and never answers */
};

/**
 * Every command line that reads the cluster. `expect` is the one stderr line (the request timeout
 * unless said otherwise).
 */
const TABLE: { command: string; argv: string[]; expect?: { status: number; line: RegExp }; report?: true; stdout?: RegExp }[] = [
  { command: "status", argv: ["status"] },
  { command: "status", argv: ["status", "storefront", "-o", "yaml"] },
  { command: "status", argv: ["status", "-A", "--watch"] },
  { command: "schema", argv: ["schema", "storefront"] },
  { command: "plan", argv: ["plan", "storefront"] },
  // --verify prints its report on stdout, the failed read marked, and still the one error line.
  { command: "plan", argv: ["plan", "storefront", "--verify"], report: true },
  { command: "plan", argv: ["plan", "storefront", "--plan", "ptah-plan-0a1b"] },
  { command: "plans", argv: ["plans", "-A", "--unpinned", "-o", "name"] },
  { command: "diff", argv: ["diff", "storefront"] },
  { command: "diff", argv: ["diff", "storefront", "--from", "approval", "storefront-v1", "-o", "json"] },
  { command: "migration", argv: ["migration", "billing"] },
  { command: "approve", argv: ["approve", "storefront"] },
  { command: "approve", argv: ["approve", "storefront", "--dry-run=server"] },
  { command: "approve", argv: ["approve", "migration", "billing"] },
  { command: "approvals", argv: ["approvals", "-A"] },
  { command: "ledger", argv: ["ledger", "storefront"] },
  { command: "ledger", argv: ["ledger", "-A", "-o", "csv"] },
  { command: "inbox", argv: ["inbox", "-A"] },
  { command: "acknowledge", argv: ["acknowledge", "billing"] },
  { command: "history", argv: ["history", "storefront"] },
  { command: "history", argv: ["history", "migration", "billing", "--watch"] },
  { command: "wait", argv: ["wait", "storefront", "--for=phase=InSync", "--timeout=60s"] },
  // A single word that may name a schema: the cluster's failure is the answer, with the topic lookup's.
  {
    command: "explain",
    argv: ["explain", "storefront"],
    expect: {
      status: 1,
      line: /^error: the server [^ ]+ did not answer within 1s \(--request-timeout\); and no topic "storefront"; run 'kubectl ptah explain' to list topics\n$/u,
    },
  },
  { command: "explain", argv: ["explain", "approval", "storefront-v1"] },
  { command: "explain", argv: ["explain", "migration", "billing"] },
  // kubectl prints the client's version before the connection error.
  { command: "version", argv: ["version"], stdout: /^Client Version: \S+\n$/u },
  { command: "endorse", argv: ["endorse", "storefront"] },
];

/** Commands that never read the cluster, as their permission forms declare (explain also has offline topics). */
const OFFLINE = new Set(ALL_COMMANDS.filter((c) => c.permissions.every((f) => f.rules.length === 0 && f.note === OFFLINE_NOTE)).map((c) => c.name));

/** Commands whose timeout is a line of their report, tested on their own below. */
const REPORTS = new Set(["doctor"]);

/** A session whose every tool call is one command line, each bounded alike (tested below). */
const SESSIONS = new Set(["mcp"]);

describe("every command that talks to the cluster honours --request-timeout", () => {
  it("the table names every such command of the registry", () => {
    const inTable = new Set(TABLE.map((t) => t.command));
    for (const c of ALL_COMMANDS)
      expect(inTable.has(c.name) || OFFLINE.has(c.name) || REPORTS.has(c.name) || SESSIONS.has(c.name), `${c.name} is not in the timeouts table`).toBe(true);
  });

  it("mcp: a tool call ends with the request timeout's line as its tool error, and the session goes on", async () => {
    server.reset(SILENT);
    const token = `t-${++runs}`;
    server.token = token;
    const kubeconfig = writeKubeconfig(dir, `config-${runs}`, { server: server.url, caFile: pki.caFile, user: { token }, namespace: "app" });
    const session = await mcpSession(REAL_CONNECTION, ["--request-timeout=1s"], { env: { NO_COLOR: "1", PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig } });
    for (const [name, args] of [
      ["status", { schema: "storefront" }],
      ["inbox", { allNamespaces: true }],
    ] as const) {
      const r = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(r.content).toEqual([{ type: "text", text: expect.stringMatching(/^error: the server [^ ]+ did not answer within 1s \(--request-timeout\)[^\n]*$/u) as unknown }]);
    }
    const offline = (await session.client.callTool({ name: "explain", arguments: { topic: ["stale"] } })) as CallToolResult;
    expect(offline.isError ?? false).toBe(false);
    await session.client.close();
    expect((await session.finished).status).toBe(0);
    tally.push("mcp status, inbox: 1s each");
  });

  it.each(TABLE.map((t) => ({ ...t, line: t.argv.join(" ") })))("$line --request-timeout=1s", async ({ argv, expect: want, report, stdout }) => {
    server.reset(SILENT);
    const r = await run([...argv, "--request-timeout=1s"]);
    if (report)
      expect(r.stdout).toMatch(
        /^CHECK +RESULT +DETAIL\nschema +FAILED +read schema [^\n]+did not answer within 1s[^\n]*\n\nThe current plan of [^\n]+ did not verify; nothing from it was printed\.\n$/u,
      );
    else if (stdout) expect(r.stdout).toMatch(stdout);
    else expect(r.stdout).toBe("");
    if (want) {
      expect(r.status).toBe(want.status);
      expect(r.stderr).toMatch(want.line);
    } else {
      // (plan and migration say which read it was: "error: read schema app/storefront: the server …")
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^error: [^\n]*\n$/u);
      expect(r.stderr.endsWith(`the server ${server.host} did not answer within 1s (--request-timeout)\n`)).toBe(true);
    }
    expect(r.ms).toBeLessThan(6000);
    tally.push(`${argv.join(" ")}: ${(r.ms / 1000).toFixed(1)}s`);
  });

  it("doctor reports the timeout as its server check's problem (exit 1) and skips the cluster checks", async () => {
    server.reset(SILENT);
    const r = await run(["doctor", "--request-timeout=1s"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(new RegExp(`problem +server +the server ${server.host.replace(/\./gu, "\\.")} did not answer within 1s \\(--request-timeout\\)`, "u"));
    expect(r.stdout).toMatch(/skipped +commands +the server did not answer/u);
    expect(r.ms).toBeLessThan(10_000);
    tally.push(`doctor: ${(r.ms / 1000).toFixed(1)}s`);
  });

  it("the hidden completion request gives up at its own deadline, with no candidates and exit 0", async () => {
    server.reset(SILENT);
    const r = await run(["__complete", "status", ""]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^:\d+$/u);
    expect(r.ms).toBeLessThan(6000);
    tally.push(`__complete status: ${(r.ms / 1000).toFixed(1)}s`);
  });
});

describe("wait has --timeout", () => {
  it("ends at --timeout when the condition never holds (the server answers, nothing changes)", async () => {
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.searchParams.get("watch") === "true") {
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders(); // an open watch that never sends an event
        return;
      }
      sendJson(res, 200, url.pathname.endsWith("/ptahschemas") ? list([awaitingSchema()]) : emptyList());
    });
    const r = await run(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=2s"]);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: "error: timed out waiting for phase InSync on ptahschema.operator.ptah.run/storefront; last seen: phase AwaitingApproval, Ready=False (AwaitingApproval)\n",
    });
    expect(r.ms).toBeGreaterThanOrEqual(1900);
    expect(r.ms).toBeLessThan(6000);
    tally.push(`wait --timeout=2s over an open watch: ${(r.ms / 1000).toFixed(1)}s`);
  });

  it("ends at --timeout even with --request-timeout=0 and a server that never answers", async () => {
    server.reset(SILENT);
    const r = await run(["wait", "storefront", "-n", "app", "--for=phase=InSync", "--timeout=2s", "--request-timeout=0"]);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: "error: timed out waiting for phase InSync on ptahschema.operator.ptah.run/storefront; last seen: the object was not seen\n",
    });
    expect(r.ms).toBeLessThan(6000);
    tally.push(`wait --timeout=2s --request-timeout=0, no answer: ${(r.ms / 1000).toFixed(1)}s`);
  });
});

describe("status --watch and history --watch run until interrupted", () => {
  it.each([
    ["status", "--watch"],
    ["history", "storefront", "--watch"],
  ])("%s %s ends on an interrupt, exit 0, nothing on stderr", async (...argv) => {
    server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      if (url.searchParams.get("watch") === "true") {
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        return;
      }
      if (url.pathname.endsWith("/ptahschemas/storefront")) return sendJson(res, 200, awaitingSchema());
      sendJson(res, 200, url.pathname.endsWith("/ptahschemas") ? list([awaitingSchema()]) : emptyList());
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const r = await run([...argv, "-n", "app"], controller.signal);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(r.emitted).toContain("storefront");
    expect(r.ms).toBeLessThan(6000);
  });
});
