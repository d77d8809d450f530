// Bounds on what the API server sends, through the REAL connection code (kubeconfig, TLS,
// transport, the list page decoder, the watch's line splitting) against the local fault server:
// objects nested 10,000 levels deep (5,000 for arrays) in a list, a list answered with something
// that is no list, items that are not objects, and a watch line that never ends.
import type http from "node:http";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliRun } from "../support/cli.ts";
import { aMigration, awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { emptyList, runRealCli, sendJson, useFaultServer, writeKubeconfig, type Handler } from "../support/fault-server.ts";
import { MAX_WATCH_LINE_BYTES } from "../../src/kube/response.ts";

const GROUP = "/apis/operator.ptah.run/v1alpha1";
const SCHEMAS = `${GROUP}/namespaces/app/ptahschemas`;

const fault = useFaultServer("ptah-bounds-", { beforeAll, afterAll });
let runs = 0;

async function run(argv: readonly string[], signal?: AbortSignal): Promise<CliRun> {
  const token = `b-${++runs}`;
  fault.server.token = token;
  const kubeconfig = writeKubeconfig(fault.dir, `config-${runs}`, { server: fault.server.url, caFile: fault.pki.caFile, user: { token } });
  return runRealCli(argv, { kubeconfig, home: fault.home, ...(signal ? { signal } : {}) });
}

function expectOneError(r: CliRun, line: string): void {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 1, stdout: "", stderr: `${line}\n` });
}

/** A JSON body written as text (JSON.stringify itself recurses, and fails on these nestings). */
function sendText(res: http.ServerResponse, text: string): void {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

const DEEP = "__deep__";
const NESTINGS = [
  { form: "10,000 levels of objects", text: `${'{"a":'.repeat(9_999)}{}${"}".repeat(9_999)}` },
  { form: "5,000 levels of arrays", text: `${"[".repeat(5_000)}${"]".repeat(5_000)}` },
] as const;

/** The schemas and migrations of every namespace (-A): two good objects and a migration `deep` nested as `nested`. */
function allNamespaces(nested: string): Handler {
  return (req, res) => {
    const p = (req.url ?? "").split("?")[0]!;
    if (p === `${GROUP}/ptahschemas`)
      return sendJson(res, 200, { apiVersion: "v1", kind: "List", metadata: { resourceVersion: "1" }, items: [awaitingSchema(), inSyncSchema({ name: "orders", uid: "u-3" })] });
    if (p === `${GROUP}/ptahmigrations`) {
      const deep = aMigration({ name: "deep", namespace: "other", phase: "Ready", conditions: [] });
      (deep.spec as Record<string, unknown>).extra = DEEP;
      const good = aMigration({ name: "billing", phase: "Ready", conditions: [] });
      const page = { apiVersion: "v1", kind: "List", metadata: { resourceVersion: "1" }, items: [deep, good] };
      return sendText(res, JSON.stringify(page).replace(JSON.stringify(DEEP), nested));
    }
    sendJson(res, 200, emptyList());
  };
}

const TOO_DEEP = /^Warning: not shown: ptahmigration other\/deep is nested deeper than 128 levels[^\n]*\n$/u;

describe.each(NESTINGS)("a listed object nested $form, read by the real list decoder", ({ text }) => {
  it("status -A: one warning naming it, the others shown, exit 0", async () => {
    fault.server.reset(allNamespaces(text));
    const r = await run(["status", "-A"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(TOO_DEEP);
    for (const name of ["storefront", "orders", "billing"]) expect(r.stdout).toContain(name);
    expect(r.stdout).not.toContain("deep");
  });

  it.each(["json", "yaml"])("status -A -o %s: left out with the same warning, the others printed as served, exit 0", async (format) => {
    fault.server.reset(allNamespaces(text));
    const r = await run(["status", "-A", "-o", format]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(TOO_DEEP);
    const doc = (format === "json" ? JSON.parse(r.stdout) : yaml.load(r.stdout)) as { items: { metadata: { name: string } }[] };
    expect(doc.items.map((i) => i.metadata.name)).toEqual(["storefront", "orders", "billing"]);
  });
});

describe("a list answered with something that is no list", () => {
  it.each([
    ["a JSON string", '"hello"'],
    ["a JSON number", "42"],
    ["JSON null", "null"],
    ["JSON true", "true"],
    ["a JSON array", "[]"],
    ["a JSON object without items", '{"kind":"Status","metadata":{}}'],
    ["a JSON object whose items are a JSON string", '{"items":"none","metadata":{}}'],
  ])("%s: one error line naming what came back, exit 1", async (what, body) => {
    fault.server.reset((req, res) => ((req.url ?? "").split("?")[0] === SCHEMAS ? sendText(res, body) : sendJson(res, 200, emptyList())));
    const r = await run(["status", "-n", "app"]);
    expectOneError(r, `error: the server answered the list of ptahschemas.operator.ptah.run with ${what}, not a list`);
    const json = await run(["status", "-n", "app", "-o", "json"]);
    expectOneError(json, `error: the server answered the list of ptahschemas.operator.ptah.run with ${what}, not a list`);
  });

  it('"items": null is an empty list, as Go writes an empty slice and kubectl reads it', async () => {
    fault.server.reset((req, res) =>
      (req.url ?? "").split("?")[0] === SCHEMAS ? sendText(res, '{"items":null,"metadata":{"resourceVersion":"1"}}') : sendJson(res, 200, emptyList()),
    );
    const r = await run(["status", "-n", "app"]);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "No resources found in app namespace.\n" });
  });
});

describe("items that are not objects", () => {
  const body = () => `{"kind":"List","metadata":{"resourceVersion":"1"},"items":[7,${JSON.stringify(awaitingSchema())},"x",null,[1]]}`;
  const WARNED = [
    "Warning: not shown: item 0 of the list of ptahschemas.operator.ptah.run is a JSON number, not an object",
    "Warning: not shown: item 2 of the list of ptahschemas.operator.ptah.run is a JSON string, not an object",
    "Warning: not shown: item 3 of the list of ptahschemas.operator.ptah.run is JSON null, not an object",
    "Warning: not shown: item 4 of the list of ptahschemas.operator.ptah.run is a JSON array, not an object",
  ];

  it.each([
    ["json", (out: string) => JSON.parse(out) as unknown],
    ["yaml", (out: string) => yaml.load(out)],
  ])("-o %s prints the one object as served and invents none; each other item is one warning; exit 0", async (format, load) => {
    fault.server.reset((req, res) => ((req.url ?? "").split("?")[0] === SCHEMAS ? sendText(res, body()) : sendJson(res, 200, emptyList())));
    const r = await run(["status", "-n", "app", "-o", format]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(WARNED.map((w) => `${w}\n`).join(""));
    const items = (load(r.stdout) as { items: Record<string, unknown>[] }).items;
    expect(items).toEqual([{ apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchema", ...awaitingSchema() }]);
  });

  it("the table shows the object and warns for each other item; exit 0", async () => {
    fault.server.reset((req, res) => ((req.url ?? "").split("?")[0] === SCHEMAS ? sendText(res, body()) : sendJson(res, 200, emptyList())));
    const r = await run(["status", "-n", "app"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(WARNED.map((w) => `${w}\n`).join(""));
    expect(r.stdout).toMatch(/^NAME +PHASE[^\n]*\nstorefront +AwaitingApproval/u);
  });
});

describe("a watch line that never ends", () => {
  it(`is dropped at ${MAX_WATCH_LINE_BYTES} bytes with one stderr line; the watch resumes, then lists again, as after a torn line`, async () => {
    const controller = new AbortController();
    const safety = setTimeout(() => controller.abort(), 30_000);
    const seen: string[] = [];
    let watches = 0;
    let sentMost = 0;
    fault.server.reset((req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      const isWatch = url.searchParams.get("watch") === "true";
      if (url.pathname !== SCHEMAS) {
        if (!isWatch) return sendJson(res, 200, emptyList("5"));
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        return;
      }
      if (!isWatch) {
        seen.push("list");
        // The relist sees the schema after it converged.
        const first = seen.length === 1;
        return sendJson(res, 200, { apiVersion: "v1", kind: "List", metadata: { resourceVersion: first ? "5" : "9" }, items: [first ? awaitingSchema() : inSyncSchema()] });
      }
      watches++;
      seen.push(`watch from ${url.searchParams.get("resourceVersion")}`);
      res.writeHead(200, { "content-type": "application/json" });
      if (watches > 2) {
        setTimeout(() => controller.abort(), 100);
        res.flushHeaders();
        return;
      }
      // One line with no newline, for as long as the client reads it.
      const block = Buffer.alloc(64 * 1024, 0x78);
      let sent = 0;
      const pump = (): void => {
        while (!res.destroyed && res.write(block)) sent += block.length;
        sentMost = Math.max(sentMost, sent);
        if (!res.destroyed) res.once("drain", pump);
      };
      res.write('{"type":"MODIFIED","object":{"metadata":{"name":"');
      pump();
    });
    const r = await run(["status", "--watch", "-o", "name"], controller.signal);
    clearTimeout(safety);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(seen).toEqual(["list", "watch from 5", "watch from 5", "list", "watch from 9"]);
    expect(r.logged).toEqual([
      `Warning: dropped a watch line of ptahschemas.operator.ptah.run longer than ${MAX_WATCH_LINE_BYTES} bytes (no event the API server sends is that long); watching again from resourceVersion 5`,
      `Warning: dropped a watch line of ptahschemas.operator.ptah.run longer than ${MAX_WATCH_LINE_BYTES} bytes (no event the API server sends is that long); listing again`,
    ]);
    // The client stopped reading soon after the limit (the server may have buffered a few blocks more).
    expect(sentMost).toBeLessThan(MAX_WATCH_LINE_BYTES + 8 * 1024 * 1024);
    // The listed schema, and the relisted one: nothing lost.
    expect(r.emitted.split("\n").filter(Boolean)).toEqual(Array(2).fill("ptahschema.operator.ptah.run/storefront"));
  });
});
