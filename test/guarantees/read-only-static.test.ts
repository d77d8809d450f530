// The static read-only proof can fail: each known way around the transport and the process guard is applied
// to an in-memory copy of a real module of src/, and the proof that guards it must name it — the
// lint rules of eslint.read-only.js for imports, globals and processes, the checker's proof of
// test/support/transport-proof.ts for the transport's own surface, and the transport modules' fixed
// list of exports (test/support/transport-exports.ts). Each module, unchanged, passes them all.
// The table is the proof's own red run; reverting a bypass is running the module as it is.
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";
import readOnly from "../../eslint.read-only.js";
import { transportExportProblems } from "../support/transport-exports.ts";
import { readOnlyProof, SRC, srcProgram, unexpectedMethodWrites } from "../support/transport-proof.ts";
import type ts from "typescript";

const ROOT = path.resolve(SRC, "..");
const read = (rel: string): string => fs.readFileSync(path.join(SRC, rel), "utf8");
const append = (code: string) => (text: string) => `${text}\n${code}\n`;

interface Bypass {
  readonly name: string;
  readonly file: string;
  readonly edit: (text: string) => string;
}

const DELETE = `["delete", "ptahschema", "storefront"]`;

/** Caught by the lint rules (eslint.read-only.js). */
const LINT: readonly Bypass[] = [
  {
    name: "a renamed https import",
    file: "kube/reader.ts",
    edit: append(`import * as web from "node:https";\nexport const leak = () => web.request("https://x", { method: "DELETE" });`),
  },
  { name: "an unprefixed http import", file: "kube/reader.ts", edit: append(`import h from "http";\nexport const leak = () => h.request("http://x", { method: "DELETE" });`) },
  {
    name: "node:http2's connect",
    file: "kube/reader.ts",
    edit: append(`import { connect } from "node:http2";\nexport const leak = () => connect("https://x").request({ ":method": "DELETE" });`),
  },
  { name: "net.createConnection", file: "kube/reader.ts", edit: append(`import net from "node:net";\nexport const leak = () => net.createConnection(443, "x");`) },
  {
    name: "net.createConnection where net's helpers are allowed",
    file: "kube/connect.ts",
    edit: append(`import { createConnection } from "node:net";\nexport const leak = () => createConnection(443, "x");`),
  },
  { name: "globalThis.fetch", file: "kube/reader.ts", edit: append(`export const leak = () => globalThis.fetch("https://x", { method: "DELETE" });`) },
  { name: "an aliased fetch", file: "kube/reader.ts", edit: append(`const send = fetch;\nexport const leak = () => send("https://x", { method: "DELETE" });`) },
  {
    name: "fetch destructured from globalThis",
    file: "commands/status/status-command.ts",
    edit: append(`const { fetch: send } = globalThis;\nexport const leak = () => send("https://x", { method: "DELETE" });`),
  },
  { name: "a computed global", file: "kube/reader.ts", edit: append(`export const leak = () => (globalThis as Record<string, any>)["fe" + "tch"]("https://x");`) },
  {
    name: "Function as a prototype's constructor, by Reflect.get",
    file: "plan/verify.ts",
    edit: append(`export const leak = () => Reflect.get(Object.getPrototypeOf(() => 0), "constructor")("return fetch")()("https://x", { method: "DELETE" });`),
  },
  { name: "Function through .constructor", file: "plan/verify.ts", edit: append(`export const leak = () => ({}).constructor.constructor("return fetch")()("https://x");`) },
  { name: "eval", file: "kube/reader.ts", edit: append(`export const leak = () => eval("fetch")("https://x");`) },
  { name: "WebSocket", file: "kube/reader.ts", edit: append(`export const leak = () => new WebSocket("wss://x");`) },
  { name: "a spawned kubectl delete", file: "kube/reader.ts", edit: append(`import { spawn } from "node:child_process";\nexport const leak = () => spawn("kubectl", ${DELETE});`) },
  {
    name: "doctor's execFile back in cli/local.ts",
    file: "cli/local.ts",
    edit: append(`import { execFile } from "node:child_process";\nexport const leak = () => execFile("kubectl", ${DELETE});`),
  },
  {
    name: "the exec credential's spawn back in kube/credentials.ts",
    file: "kube/credentials.ts",
    edit: append(`import { spawn } from "node:child_process";\nexport const leak = () => spawn("kubectl", ${DELETE});`),
  },
  {
    name: "the guard's execFile with another argv",
    file: "cli/process-guard.ts",
    edit: (text) => text.replace('execFile("kubectl", ["version", "--client", "-o", "json"]', `execFile("kubectl", ${DELETE}`),
  },
  { name: "the guard's execFile passed on", file: "cli/process-guard.ts", edit: (text) => text.replace('  execFile("kubectl",', '  void [execFile];\n  execFile("kubectl",') },
  {
    name: "the guard's spawn outside startCredentialPlugin",
    file: "cli/process-guard.ts",
    edit: append(`export const leak = () => original<ChildProcesses["spawn"]>("child_process", "spawn")("kubectl", ${DELETE});`),
  },
  {
    name: "another child_process function in the guard",
    file: "cli/process-guard.ts",
    edit: append(`export const leak = () => original<ChildProcesses["execFileSync"]>("child_process", "execFileSync")("kubectl", ${DELETE});`),
  },
  { name: "node:fs's default import, then a write", file: "kube/reader.ts", edit: append(`import fs from "node:fs";\nexport const leak = () => fs.writeFileSync("/tmp/x", "x");`) },
  { name: "node:fs's namespace, unprefixed", file: "kube/reader.ts", edit: append(`import * as f from "fs";\nexport const leak = () => f.rmSync("/tmp/x");`) },
  { name: "a write of node:fs by name", file: "cli/context.ts", edit: append(`import { writeFileSync } from "node:fs";\nexport const leak = () => writeFileSync("/tmp/x", "x");`) },
  { name: "node:fs/promises", file: "kube/connect.ts", edit: append(`import { writeFile } from "node:fs/promises";\nexport const leak = () => writeFile("/tmp/x", "x");`) },
  { name: "openSync to write", file: "cli/context.ts", edit: append(`export const leak = () => openSync("/tmp/x", "w");`) },
  { name: "a dynamic import of node:fs", file: "cli/local.ts", edit: append(`export const leak = async () => (await import("node:fs")).writeFileSync("/tmp/x", "x");`) },
  { name: "a guard capability in a module not named for it", file: "kube/reader.ts", edit: append(`export { createNewFile } from "../cli/process-guard.ts";`) },
  {
    name: "another capability than the module's own",
    file: "cli/fd-output.ts",
    edit: append(`import { createNewFile } from "./process-guard.ts";\nexport const leak = () => createNewFile("/tmp/x", "x");`),
  },
  { name: "the guard's namespace", file: "cli/context.ts", edit: append(`import * as guard from "./process-guard.ts";\nexport const leak = () => guard.codeCacheFolder("/");`) },
  { name: "a dynamic import of the guard", file: "cli/local.ts", edit: append(`export const leak = async () => (await import("./process-guard.ts")).codeCacheFolder("/");`) },
  { name: "a dynamic import(name)", file: "kube/reader.ts", edit: append(`export const leak = async (name: string) => import(name);`) },
  { name: "a dynamic import of a template", file: "commands/inbox/inbox-command.ts", edit: append("export const leak = async (m: string) => import(`node:${m}`);") },
  {
    name: "a dynamic import of child_process",
    file: "cli/context.ts",
    edit: append(`export const leak = async () => (await import("node:child_process")).execFileSync("kubectl", ${DELETE});`),
  },
  { name: "process.getBuiltinModule", file: "kube/connect.ts", edit: append(`export const leak = () => process.getBuiltinModule("node:child_process");`) },
  { name: "main.ts's getBuiltinModule for another built-in", file: "main.ts", edit: append(`export const leak = () => process.getBuiltinModule("node:https");`) },
  { name: "main.ts's getBuiltinModule passed on", file: "main.ts", edit: append(`export const leak = process.getBuiltinModule;`) },
  { name: "main.ts's getBuiltinModule computed", file: "main.ts", edit: append(`export const leak = () => process["getBuiltinModule"]("node:https");`) },
  {
    name: "the loader importing https",
    file: "cli/code-cache.ts",
    edit: append(`import https from "node:https";\nexport const leak = () => https.request("https://x", { method: "DELETE" });`),
  },
  {
    name: "createRequire",
    file: "kube/reader.ts",
    edit: append(`import { createRequire } from "node:module";\nexport const leak = () => createRequire(import.meta.url)("node:https");`),
  },
  {
    name: "a worker thread",
    file: "kube/reader.ts",
    edit: append(`import { Worker } from "node:worker_threads";\nexport const leak = () => new Worker("fetch('https://x')", { eval: true });`),
  },
  { name: "a network package", file: "kube/reader.ts", edit: append(`import { request } from "undici";\nexport const leak = () => request("https://x", { method: "DELETE" });`) },
  { name: "a re-export of https", file: "kube/reader.ts", edit: append(`export { request } from "node:https";`) },
];

/** Caught by the checker's proof (test/support/transport-proof.ts): new modules of src/kube/ … */
const TYPE = `import type { Transport } from "./http.ts";\n`;
const VALUE = `import { Transport } from "./http.ts";\n`;
const CHECKER_MODULES: readonly { readonly name: string; readonly code: string }[] = [
  { name: "a computed create", code: `${TYPE}export const leak = (t: Transport) => t["create"]({ kind: "PtahSchemaApproval", namespace: "x", body: {} });` },
  { name: "create taken, called later", code: `${TYPE}export const leak = (t: Transport) => t.create.bind(t);` },
  { name: "a Transport destructured", code: `${TYPE}export const leak = ({ create }: Transport) => create;` },
  { name: "a Transport through any", code: `${TYPE}export const leak = (t: Transport) => (t as any).once("DELETE", "/x", {});` },
  { name: "a Transport handed to Reflect", code: `${TYPE}export const leak = (t: Transport) => Reflect.get(t, "once");` },
  { name: "a subclass of the transport", code: `${VALUE}export class Loud extends Transport {\n  remove(p: string) {\n    return this.get(p);\n  }\n}` },
  { name: "Transport.prototype", code: `${VALUE}export const leak = Transport.prototype.create;` },
  { name: "another caller of create", code: `${TYPE}export const leak = (t: Transport) => t.create({ kind: "PtahSchemaApproval", namespace: "x", body: {} });` },
];
/** … and changes of the surfaces themselves, each in a copy of its module. */
const CHECKER_EDITS: readonly Bypass[] = [
  {
    name: "a new public member of the transport",
    file: "kube/http.ts",
    edit: (text) => text.replace("  close(): void {", "  async remove(p: string): Promise<HttpResponse> {\n    return this.get(p);\n  }\n\n  close(): void {"),
  },
  {
    name: "a new member of the seam",
    file: "kube/types.ts",
    edit: (text) => text.replace("  serverInfo(): Promise<ServerInfo>;", "  serverInfo(): Promise<ServerInfo>;\n  remove(kind: string, name: string): Promise<void>;"),
  },
];

/**
 * Caught by the transport modules' fixed list of exports (test/support/transport-exports.ts): the
 * lint rules allow the network in these modules, so a new export there is seen by nothing else.
 */
const EXPORT_EDITS: readonly Bypass[] = [
  {
    name: "a new exported function of the transport module that sends DELETE",
    file: "kube/http.ts",
    edit: append(`export function remove(url: URL): http.ClientRequest {\n  return https.request(url, { method: "DELETE" });\n}`),
  },
  { name: "a re-export from the proxy tunnel", file: "kube/proxy-tunnel.ts", edit: append(`export { request } from "node:https";`) },
  {
    name: "a new public member of the tunnel agent",
    file: "kube/proxy-tunnel.ts",
    edit: (text) =>
      text.replace("  readonly proxy: URL;", `  readonly proxy: URL;\n  remove(url: URL): http.ClientRequest {\n    return https.request(url, { method: "DELETE" });\n  }`),
  },
];

/**
 * Caught by the closed set of methods (test/support/transport-proof.ts's methodWrites): a method
 * written anywhere but the one send site's closed parameter, however the request is then sent.
 */
const METHOD_EDITS: readonly Bypass[] = [
  {
    name: 'options.method = "DELETE" on a plain https.request, in a function of the transport module',
    file: "kube/http.ts",
    edit: append(
      `function remove(url: URL): http.ClientRequest {\n  const options: https.RequestOptions = {};\n  options.method = "DELETE";\n  return https.request(url, options);\n}\nvoid remove;`,
    ),
  },
  { name: "a method written by element access", file: "kube/proxy-tunnel.ts", edit: append(`export const leak = (o: Record<string, string>) => {\n  o["method"] = "PATCH";\n};`) },
];

// Inline configuration is off: an eslint-disable comment cannot hide a bypass from this proof.
const eslint = new ESLint({
  cwd: ROOT,
  allowInlineConfig: false,
  overrideConfigFile: true,
  overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, ...readOnly],
});

async function lintFindings(rel: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(SRC, rel) });
  return result!.messages.map((m) => `${m.ruleId ?? "parse"} ${m.line}: ${m.message}`);
}

const table: string[] = [];

describe("the static read-only proof names every bypass", () => {
  it("the lint rules hold over every module of src/ as it is", async () => {
    const results = await eslint.lintFiles([path.join(SRC, "**/*.ts")]);
    expect(results.length).toBeGreaterThan(50);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.relative(SRC, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`))).toEqual([]);
  });

  it.each(LINT.map((b) => [b.name, b] as const))("lint: %s", async (_name, b) => {
    const original = read(b.file);
    expect(await lintFindings(b.file, original), `src/${b.file} as it is`).toEqual([]);
    const mutated = b.edit(original);
    expect(mutated).not.toBe(original);
    const found = await lintFindings(b.file, mutated);
    expect(found.filter((f) => f.startsWith("read-only/")).length, found.join("\n")).toBeGreaterThan(0);
    table.push(`red  lint     ${b.name} (src/${b.file}): ${found[0]}`);
  });

  describe("the checker", () => {
    let base: ts.Program;
    beforeAll(() => {
      base = srcProgram();
    }, 600_000);

    // That it holds over src/ as it is, walking every module, is test/guarantees/read-only.test.ts's first test.

    it("names each bypass in new modules of src/kube/ (one scratch program, each module judged alone)", () => {
      const files = Object.fromEntries(CHECKER_MODULES.map((b, i) => [`kube/scratch-${i}.ts`, b.code]));
      const scratch = srcProgram(files, base);
      CHECKER_MODULES.forEach((b, i) => {
        const problems = readOnlyProof(scratch, [`kube/scratch-${i}.ts`]);
        expect(problems.length, `${b.name}: ${b.code}`).toBeGreaterThan(0);
        table.push(`red  checker  ${b.name} (src/kube/scratch-${i}.ts): ${problems[0]}`);
      });
    }, 600_000);

    it.each(CHECKER_EDITS.map((b) => [b.name, b] as const))(
      "checker: %s",
      (_name, b) => {
        const original = read(b.file);
        const mutated = b.edit(original);
        expect(mutated).not.toBe(original);
        // The changed module is walked; the surfaces are read from the whole program's types.
        const problems = readOnlyProof(srcProgram({ [b.file]: mutated }, base), [b.file]);
        expect(problems.length, `src/${b.file} with ${b.name}`).toBeGreaterThan(0);
        table.push(`red  checker  ${b.name} (src/${b.file}): ${problems[0]}`);
      },
      600_000,
    );

    // The transport's exports (test/support/transport-exports.ts), on the same base program.
    it("exports: the transport modules as they are", () => {
      expect(transportExportProblems(base)).toEqual([]);
    });

    it.each(EXPORT_EDITS.map((b) => [b.name, b] as const))(
      "exports: %s",
      (_name, b) => {
        const original = read(b.file);
        const mutated = b.edit(original);
        expect(mutated).not.toBe(original);
        const problems = transportExportProblems(srcProgram({ [b.file]: mutated }, base));
        expect(problems.length, `src/${b.file} with ${b.name}`).toBeGreaterThan(0);
        table.push(`red  exports  ${b.name} (src/${b.file}): ${problems[0]}`);
      },
      600_000,
    );

    it.each(METHOD_EDITS.map((b) => [b.name, b] as const))(
      "methods: %s",
      (_name, b) => {
        const original = read(b.file);
        const mutated = b.edit(original);
        expect(unexpectedMethodWrites(srcProgram({ [b.file]: original }, base), [b.file]), `src/${b.file} as it is`).toEqual([]);
        const problems = unexpectedMethodWrites(srcProgram({ [b.file]: mutated }, base), [b.file]);
        expect(problems.length, `src/${b.file} with ${b.name}`).toBeGreaterThan(0);
        table.push(`red  methods  ${b.name} (src/${b.file}): ${problems[0]}`);
      },
      600_000,
    );
  });

  it("prints the table", () => {
    console.log(`static read-only proof: ${table.length} bypasses, each named (red), every module as it is passes (green):\n${table.join("\n")}`);
    expect(table).toHaveLength(LINT.length + CHECKER_MODULES.length + CHECKER_EDITS.length + EXPORT_EDITS.length + METHOD_EDITS.length);
  });
});
