// Fast start: commands that need no cluster (--version, --help, explain TOPIC, completion,
// __complete for words) never load the connection code nor @kubernetes/client-node, and only
// `mcp` loads zod (the MCP SDK's; the models' validators are generated at build time). The npm bin's loader names every file of
// the bundle it loads (PTAH_CODE_CACHE_LOG, src/cli/code-cache.ts); the chunks holding
// src/kube/connect.ts and client-node are found in esbuild's metafile (dist/meta.npm.json).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNpmBundle } from "../support/npm-bundle.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const META = path.join(ROOT, "dist", "meta.npm.json");
const ENTRY = path.join(ROOT, "dist", "npm", "kubectl-ptah.cjs");
const BIN = path.join(ROOT, "bin", "kubectl-ptah.js");

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string }>; entryPoint?: string }>;
}

let dir = "";
let meta: Metafile;
/** Output file (absolute) → the inputs it holds. */
const chunks = new Map<string, string[]>();

beforeAll(() => {
  ensureNpmBundle();
  meta = JSON.parse(fs.readFileSync(META, "utf8")) as Metafile;
  for (const [out, o] of Object.entries(meta.outputs)) chunks.set(path.resolve(ROOT, out), Object.keys(o.inputs));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fast-start-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function holding(predicate: (input: string) => boolean): string[] {
  return [...chunks].filter(([, inputs]) => inputs.some(predicate)).map(([file]) => file);
}
const connectChunks = (): string[] => holding((i) => i === "src/kube/connect.ts");
const clientNodeChunks = (): string[] => holding((i) => i.includes("node_modules/@kubernetes/client-node/"));
const zodChunks = (): string[] => holding((i) => i.includes("node_modules/zod/"));

let runs = 0;
/** Runs the npm bin with `args`; returns the dist files it loaded, its status and stderr. */
function loaded(args: readonly string[], env: NodeJS.ProcessEnv = {}): { files: string[]; status: number | null; stderr: string } {
  const log = path.join(dir, `loaded-${++runs}.log`);
  fs.writeFileSync(log, "");
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1", PTAH_CODE_CACHE_LOG: log, ...env },
    timeout: 30_000,
  });
  // `hit|miss|rejected|off FILE` per file loaded.
  const files = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(line.indexOf(" ") + 1));
  return { files, status: r.status, stderr: r.stderr };
}

describe("the npm bundle's split", () => {
  it("holds zod only where `mcp` alone loads it (the MCP SDK's own): the models' validators are generated at build time", () => {
    // Every chunk holding zod is one the MCP server's chunk imports, which only `mcp` loads.
    const server = holding((i) => i === "src/commands/mcp/mcp-server.ts");
    expect(server).toHaveLength(1);
    const reached = new Set<string>();
    const walk = (out: string): void => {
      reached.add(out);
      for (const imp of meta.outputs[out]?.imports ?? []) if (imp.kind === "import-statement" && imp.path in meta.outputs && !reached.has(imp.path)) walk(imp.path);
    };
    walk(path.relative(ROOT, server[0]!));
    const mcpOnly = [...reached].filter(
      (out) => !Object.entries(meta.outputs).some(([other, o]) => !reached.has(other) && o.imports.some((i) => i.path === out && i.kind === "import-statement")),
    );
    expect(zodChunks().length).toBeGreaterThan(0);
    for (const file of zodChunks()) expect(mcpOnly, file).toContain(path.relative(ROOT, file));
    expect(holding((i) => i === "src/model/validators.ts")).toHaveLength(1);
    expect(holding((i) => i === "src/model/codegen.ts" || i === "src/model/kinds.ts")).toEqual([]);
  });

  it("loads node:v8 only in the chunk a long list loads and in the lock analyser's parser chunk", () => {
    // kube/young-generation.ts, imported once a read passes 256 KB (kube/page-reader.ts); locks/parser.ts,
    // imported by the commands that analyse locks, which sets how V8 compiles the parser.
    const young = holding((i) => i === "src/kube/young-generation.ts");
    const parser = holding((i) => i === "src/locks/parser.ts");
    expect(young).toHaveLength(1);
    expect(parser).toHaveLength(1);
    const allowed = [...young, ...parser];
    for (const file of chunks.keys()) if (!allowed.includes(file)) expect(fs.readFileSync(file, "utf8"), file).not.toMatch(/require\("(node:)?v8"\)/u);
    for (const file of allowed) expect(fs.readFileSync(file, "utf8"), file).toMatch(/require\("(node:)?v8"\)/u);
  });

  it("puts the connection code and client-node in chunks of their own, loaded only by dynamic import", () => {
    expect(connectChunks()).toHaveLength(1);
    expect(clientNodeChunks().length).toBeGreaterThan(0);
    const entry = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === "src/main.ts")!;
    // Everything the entry loads statically, transitively.
    const staticSet = new Set<string>();
    const walk = (out: string): void => {
      for (const imp of meta.outputs[out]?.imports ?? []) {
        if (imp.kind !== "import-statement" || !(imp.path in meta.outputs) || staticSet.has(imp.path)) continue;
        staticSet.add(imp.path);
        walk(imp.path);
      }
    };
    walk(entry[0]);
    for (const file of [...connectChunks(), ...clientNodeChunks(), ...zodChunks()]) expect(staticSet.has(path.relative(ROOT, file))).toBe(false);
  });
});

describe("commands that need no cluster load neither the connection code, client-node nor zod", () => {
  it.each([
    [["--version"]],
    [["--help"]],
    [["help", "status"]],
    [["status", "--help"]],
    [["version", "--client"]],
    [["explain"]],
    [["explain", "stale"]],
    [["explain", "PlanNoLongerCurrent", "-o", "json"]],
    [["completion", "bash"]],
    [["completion", "kubectl"]],
    [["__complete", ""]],
    [["__complete", "status", "--"]],
    [["__complete", "status", "-o", ""]],
    [["__complete", "explain", "sta"]],
    [["nope"]],
  ])("kubectl ptah %j", (args) => {
    const r = loaded(args);
    if (args[0] === "nope") expect(r.stderr).toMatch(/^error: unknown command "nope"/u);
    else expect(r.stderr).toBe("");
    expect(r.files).toContain(ENTRY);
    for (const file of [...connectChunks(), ...clientNodeChunks(), ...zodChunks()]) expect(r.files).not.toContain(file);
  });
});

// A command's declaration and code load when the line names it (commands/registry.ts):
// chunks holding another command's file, or a library only other commands use, stay unread.
const COMMAND_FILE = /^src\/commands\/([a-z]+)\/\1-command\.ts$/u;
const declaration = (name: string): string => `src/commands/${name}/${name}-command.ts`;
const commandChunks = (name: string): string[] => holding((i) => i === declaration(name));
const otherCommandChunks = (name: string): string[] =>
  [...chunks].filter(([, inputs]) => inputs.some((i) => COMMAND_FILE.test(i)) && !inputs.includes(declaration(name))).map(([file]) => file);
const libraryChunks = (lib: string): string[] => holding((i) => i.includes(`node_modules/${lib}/`));

describe("a start loads only the running command's code", () => {
  it.each([
    [["--help"], undefined],
    [["__complete", "st"], undefined],
    [["explain", "stale"], "explain"],
    [["status", "--help"], "status"],
    [["__complete", "plan", "-o", ""], "plan"],
  ])("kubectl ptah %j", (args, command) => {
    const r = loaded(args);
    expect(r.stderr).toBe("");
    if (command) for (const file of commandChunks(command)) expect(r.files).toContain(file);
    for (const file of otherCommandChunks(command ?? "")) expect(r.files, `${args.join(" ")} loads ${file}`).not.toContain(file);
  });

  it("explain and the root help load neither js-yaml, jsonpath-plus nor cli-table3", () => {
    const libraries = ["js-yaml", "jsonpath-plus", "cli-table3"].flatMap(libraryChunks);
    expect(libraries.length).toBeGreaterThan(2);
    for (const args of [["--help"], ["explain", "stale"]]) for (const file of libraries) expect(loaded(args).files).not.toContain(file);
  });
});

describe("the check itself sees the lazy chunks load", () => {
  it("a command's chunk, and the libraries it uses, load when it runs", () => {
    const r = loaded(["status", "--kubeconfig", path.join(dir, "missing-config")]);
    for (const file of [...commandChunks("status"), ...libraryChunks("js-yaml")]) expect(r.files).toContain(file);
  });

  it("a cluster command loads the connection code, and not client-node with a plain kubeconfig", () => {
    const r = loaded(["status", "--kubeconfig", path.join(dir, "missing-config")]);
    expect(r.status).toBe(1);
    for (const file of connectChunks()) expect(r.files).toContain(file);
    for (const file of clientNodeChunks()) expect(r.files).not.toContain(file);
  });

  it("a kubeconfig with an auth-provider loads client-node", () => {
    const config = path.join(dir, "auth-provider.yaml");
    fs.writeFileSync(
      config,
      JSON.stringify({
        clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:1" } }],
        users: [{ name: "u", user: { "auth-provider": { name: "oidc", config: { "id-token": "x", "client-id": "y", "idp-issuer-url": "https://127.0.0.1:1" } } } }],
        contexts: [{ name: "x", context: { cluster: "c", user: "u" } }],
        "current-context": "x",
      }),
    );
    const r = loaded(["status", "--kubeconfig", config, "--request-timeout", "1s"]);
    expect(r.status).toBe(1);
    expect(r.files.some((f) => clientNodeChunks().includes(f))).toBe(true);
  });
});
