// The architecture as a test (docs/architecture.md): layers import only downwards, no cycles, and
// the rules on who may touch the cluster, the terminal, the clock and which libraries.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_HEADERS } from "../src/commands/registry.ts";
import { foldersNamed, layoutProblems, repeatedNames, sharedProblems, verbFolderProblems, type Graph } from "./support/command-layout.ts";

const SRC = path.resolve(import.meta.dirname, "..", "src");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

/** Every entry under `dir` that is not a directory, relative and with "/", and whether it is a regular file. */
function listing(dir: string, base = dir): { rel: string; regular: boolean }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listing(full, base);
    return [{ rel: path.relative(base, full).split(path.sep).join("/"), regular: e.isFile() }];
  });
}

/** The declaration files src/ has (a .d.ts is types only); another is named like any other non-.ts file. */
const DECLARATIONS = new Set(["render/cli-table3-utils.d.ts", "locks/libpg-query-glue.d.ts"]);

/**
 * Every entry of a listing of src/ that is not a TypeScript module: the lint rules, the read-only
 * proofs and this file's checks read only `*.ts`, so a `.mjs`, `.js` or `.cjs` (or a symlink) there
 * would be linted with no rules and walked by no proof.
 */
function notTypeScript(entries: readonly { rel: string; regular: boolean }[]): string[] {
  return entries.flatMap((e) => {
    if (!e.regular) return [`${e.rel}: not a regular file`];
    if (e.rel.endsWith(".d.ts")) return DECLARATIONS.has(e.rel) ? [] : [`${e.rel}: a declaration file src/ did not have`];
    return e.rel.endsWith(".ts") ? [] : [`${e.rel}: not .ts`];
  });
}

interface Import {
  readonly spec: string;
  readonly typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, "utf8");
  const out: Import[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gmsu)) out.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of text.matchAll(/import\("([^"]+)"\)/gu)) out.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/^import\s+"([^"]+)"/gmu)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** The layer of a src-relative module: its top folder, or the file for errors.ts/main.ts. */
/** The src/ path an import of `file` names. */
function toSrc(file: string, spec: string): string {
  return path
    .relative(SRC, path.resolve(path.dirname(file), spec))
    .split(path.sep)
    .join("/");
}

function layerOf(rel: string): string {
  const [first] = rel.split("/");
  return rel.includes("/") ? first! : rel.replace(/\.ts$/u, "");
}

// The layer table (docs/architecture.md, 'Layers'), row by row: the project layers each layer may
// import. The table has one type-only allowance (commands may name kube's types, e.g.
// ClusterReader) and two module allowances (cli may import kube/connect.ts, the composition root, and
// kube/bounded-read.ts, the bounded file read it shares with the kubeconfig's);
// nothing else. A command's view model and its text live in its folder, commands/<verb>/; the
// text layer below every command is render/.
const TABLE: Record<string, readonly string[]> = {
  errors: [],
  model: ["errors"],
  render: ["errors"],
  plan: ["model", "errors"],
  // The lock analyser (docs/locks.md): a domain like plan/, on PostgreSQL's parser alone.
  locks: [],
  // The lock analyser's finding codes are concepts of the knowledge base (one list, locks/findings.ts).
  explain: ["model", "locks"],
  kube: ["model", "errors"],
  approval: ["plan", "model", "errors"],
  commands: ["approval", "plan", "locks", "explain", "render", "model", "errors"],
  cli: ["commands", "errors"],
  main: ["cli"],
};
const TYPE_ONLY: Record<string, readonly string[]> = { commands: ["kube"] };
const MODULE_ONLY: Record<string, readonly string[]> = { cli: ["kube/connect.ts", "kube/bounded-read.ts"] };

function allowed(layer: string, target: string, targetLayer: string, typeOnly: boolean): boolean {
  return Boolean(TABLE[layer]?.includes(targetLayer)) || (typeOnly && Boolean(TYPE_ONLY[layer]?.includes(targetLayer))) || Boolean(MODULE_ONLY[layer]?.includes(target));
}

const NPM_OWNERS: Record<string, readonly string[]> = {
  "@kubernetes/client-node": ["kube"],
  "cli-table3": ["render"],
  "jsonpath-plus": ["render"],
  zod: ["model", "commands"],
  // render's YAML emitter (the table's "if adopted"); kube parses kubeconfig files with it.
  "js-yaml": ["render", "kube"],
  // PostgreSQL's parser (WebAssembly): the lock analyser alone, loaded on its first analysis.
  "libpg-query/wasm/libpg-query.js": ["locks"],
  // The CEL evaluator of the approval policies: loaded only where a policy is read.
  "@marcbachmann/cel-js": ["approval"],
  // The MCP SDK: `kubectl ptah mcp` alone (commands/mcp/; eslint.read-only.js names its modules).
  ...Object.fromEntries(["server/index.js", "shared/stdio.js", "shared/transport.js", "types.js"].map((m) => [`@modelcontextprotocol/sdk/${m}`, ["commands"]])),
};

const SHELL = new Set(["main", "cli", "kube"]);
const IO_MODULES = ["node:fs", "node:http", "node:https", "node:net", "node:child_process", "node:tls"];

const all = files(SRC).map((f) => ({ file: f, rel: path.relative(SRC, f).split(path.sep).join("/") }));

describe("architecture", () => {
  it("every file under src/ is .ts (the declaration files it has excepted)", () => {
    const entries = listing(SRC);
    expect(entries.length).toBeGreaterThan(50);
    expect(notTypeScript(entries)).toEqual([]);
  });

  it("names a module that is not .ts: on a made-up listing, and planted in a copy of src/", () => {
    const fake = ["kube/http.ts", "render/cli-table3-utils.d.ts", "kube/side.mjs", "kube/side.js", "cli/x.cjs", "kube/y.mts", "kube/z.d.ts", "kube/README"];
    expect(notTypeScript([...fake.map((rel) => ({ rel, regular: true })), { rel: "kube/link.ts", regular: false }])).toEqual([
      "kube/side.mjs: not .ts",
      "kube/side.js: not .ts",
      "cli/x.cjs: not .ts",
      "kube/y.mts: not .ts",
      "kube/z.d.ts: a declaration file src/ did not have",
      "kube/README: not .ts",
      "kube/link.ts: not a regular file",
    ]);
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-src-"));
    try {
      fs.cpSync(SRC, copy, { recursive: true });
      fs.writeFileSync(path.join(copy, "kube", "side.mjs"), 'import https from "node:https";\nexport const leak = () => https.request("https://x", { method: "DELETE" });\n');
      expect(notTypeScript(listing(copy))).toEqual(["kube/side.mjs: not .ts"]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it.each(all.map((f) => [f.rel, f] as const))("%s imports only from the layers below it", (_rel, f) => {
    const layer = layerOf(f.rel);
    for (const imp of importsOf(f.file)) {
      if (!imp.spec.startsWith(".")) continue;
      const target = path
        .relative(SRC, path.resolve(path.dirname(f.file), imp.spec))
        .split(path.sep)
        .join("/");
      const targetLayer = layerOf(target);
      if (targetLayer === layer) continue;
      expect(allowed(layer, target, targetLayer, imp.typeOnly), `${f.rel} imports ${target} (${layer} → ${targetLayer}${imp.typeOnly ? ", type only" : ""})`).toBe(true);
    }
  });

  it("keeps each npm library in the layer that owns it", () => {
    for (const f of all) {
      for (const imp of importsOf(f.file)) {
        const owners = NPM_OWNERS[imp.spec];
        if (owners) expect(owners.includes(layerOf(f.rel)), `${f.rel} imports ${imp.spec}`).toBe(true);
        if (IO_MODULES.includes(imp.spec)) expect(SHELL.has(layerOf(f.rel)), `${f.rel} imports ${imp.spec}: only main, cli and kube do I/O`).toBe(true);
      }
    }
  });

  it("keeps process, console and the wall clock out of everything but the shell", () => {
    for (const f of all) {
      if (SHELL.has(layerOf(f.rel))) continue;
      const text = fs.readFileSync(f.file, "utf8").replace(/\/\/.*$/gmu, "");
      expect(/\bprocess\.|\bconsole\.|Date\.now\(\)|new Date\(\)|Math\.random\(/u.test(text), `${f.rel} uses process/console/the clock/randomness`).toBe(false);
    }
  });

  it("has no import cycles", () => {
    const graph = new Map<string, string[]>();
    for (const f of all) {
      graph.set(
        f.rel,
        importsOf(f.file)
          .filter((i) => i.spec.startsWith(".") && !i.typeOnly)
          .map((i) =>
            path
              .relative(SRC, path.resolve(path.dirname(f.file), i.spec))
              .split(path.sep)
              .join("/"),
          ),
      );
    }
    const state = new Map<string, "visiting" | "done">();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === "done") return;
      expect(state.get(node) === "visiting", `cycle: ${[...trail, node].join(" → ")}`).toBe(false);
      state.set(node, "visiting");
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, "done");
    };
    for (const node of graph.keys()) visit(node, []);
  });
  // One folder per command: src/commands/<verb>/ holds its declaration (<verb>-command.ts), its
  // reads, view model and text, and nothing outside that folder uses them but the registry;
  // what two or more commands (or a command and the shell) use lives in commands/shared/.
  // Adding a command is one folder plus one entry in src/commands/registry.ts.
  const rels = all.map((f) => f.rel);
  const graph: Graph = new Map(
    all.map((f) => [
      f.rel,
      importsOf(f.file)
        .filter((i) => i.spec.startsWith("."))
        .map((i) => toSrc(f.file, i.spec)),
    ]),
  );
  const verbs = COMMAND_HEADERS.map((h) => h.name);

  it("has one folder per command of the registry, with its declaration, its files named <verb>-<part>.ts, and nothing else in commands/ but shared/ and the registry", () => {
    expect(verbs.length).toBeGreaterThan(15);
    expect(layoutProblems(rels, verbs)).toEqual([]);
  });

  it("keeps each command's files to that command (and the registry)", () => {
    expect(verbFolderProblems(graph)).toEqual([]);
  });

  // The contract every command implements sits under them all: it names nothing of commands/
  // (a type it needs from a command's helpers belongs in a lower layer, as PermissionForm in kube/).
  it("keeps the command contract (commands/command-types.ts) free of anything of commands/", () => {
    expect((graph.get("commands/command-types.ts") ?? []).filter((t) => layerOf(t) === "commands")).toEqual([]);
  });

  it("holds in commands/shared/ only what two or more users share", () => {
    expect(sharedProblems(graph)).toEqual([]);
  });

  it("names every file of src/ once, and has one folder named render", () => {
    expect(repeatedNames(rels)).toEqual([]);
    expect(foldersNamed(rels, "render")).toEqual(["render"]);
  });

  it("has a test folder for every command: test/commands/<verb>/", () => {
    const tests = path.resolve(SRC, "..", "test", "commands");
    expect(verbs.filter((v) => !fs.existsSync(path.join(tests, v)) || files(path.join(tests, v)).length === 0)).toEqual([]);
  });

  it("names each kind of misplaced file, on made-up listings", () => {
    expect(layoutProblems(["commands/registry.ts", "commands/a/a-command.ts", "commands/b/x.ts", "commands/c.ts", "commands/shared/d/e.ts"], ["a", "b"])).toEqual([
      "b: no commands/b/b-command.ts",
      "commands/b/x.ts: not named b-<part>.ts",
      "commands/c.ts: neither a command's folder, shared/ nor the registry",
      "commands/shared/d/e.ts: shared/ has no subfolders",
    ]);
    expect(layoutProblems(["commands/z/z-command.ts"], [])).toEqual(["commands/z/z-command.ts: commands/z/ is no command of the registry"]);
    const made: Graph = new Map([
      ["commands/registry.ts", ["commands/a/a-command.ts", "commands/b/b-command.ts"]],
      ["commands/a/a-command.ts", ["commands/a/a-text.ts", "commands/b/b-text.ts", "commands/shared/one.ts", "commands/shared/via.ts"]],
      ["commands/b/b-command.ts", ["commands/shared/two.ts", "commands/shared/via.ts"]],
      ["commands/shared/via.ts", ["commands/shared/deep.ts"]],
      ["cli/run.ts", ["commands/shared/two.ts"]],
      ["commands/shared/one.ts", []],
      ["commands/shared/two.ts", []],
      ["commands/shared/deep.ts", []],
      ["commands/shared/none.ts", []],
    ]);
    expect(verbFolderProblems(made)).toEqual(["commands/a/a-command.ts imports commands/b/b-text.ts, which only commands/b/ may use"]);
    expect(sharedProblems(made)).toEqual([
      "commands/shared/one.ts is used by a alone: it belongs in that folder",
      "commands/shared/none.ts is used by nothing alone: it belongs in that folder",
    ]);
    expect(repeatedNames(["a/x.ts", "b/x.ts", "b/y.ts"])).toEqual(["x.ts: a/x.ts, b/x.ts"]);
    expect(foldersNamed(["render/a.ts", "commands/render/b.ts", "commands/status/c.ts"], "render")).toEqual(["commands/render", "render"]);
  });

  // Files ≲ 300 lines: the explain knowledge base's topic files are data, not modules.
  // cli/complete.ts is the completion protocol only: at most 200 (what to offer is declared by
  // each command, commands/shared/candidates.ts).
  const LIMITS: Record<string, number> = { "cli/complete.ts": 200 };
  it.each(all.filter((f) => !f.rel.startsWith("explain/topics/")).map((f) => [f.rel, f] as const))("%s is at most 300 lines", (rel, f) => {
    const lines = fs.readFileSync(f.file, "utf8").split("\n").length - 1;
    expect(lines, `${rel} has ${lines} lines`).toBeLessThanOrEqual(LIMITS[rel] ?? 300);
  });

  // Read-only by construction (the seam's shape, the one POST): test/guarantees/read-only.test.ts.
});
