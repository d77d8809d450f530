// The code's two allowlists, on the TypeScript compiler, each shown failing: what each layer of
// src/ imports from outside src/ (eslint.layers.js's lists, test/support/import-allowlist.ts) and
// which modules reach the process, the global object, Function, eval or Node's loader
// (test/support/process-reach.ts). Every module as it is passes; each plant, applied to an
// in-memory copy of a real module, is named with its file and line. The plants are kinds of
// reach, not the rule's spelling: the rules list what is allowed, and these show them closing.
import path from "node:path";
import fs from "node:fs";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import type ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import layers, { TYPES, VALUES } from "../../eslint.layers.js";
import { importProblems, usedByLayer } from "../support/import-allowlist.ts";
import { processReachProblems } from "../support/process-reach.ts";
import { SRC, srcProgram } from "../support/transport-proof.ts";

const read = (rel: string): string => fs.readFileSync(path.join(SRC, rel), "utf8");
const append = (code: string) => (text: string) => `${text}\n${code}\n`;

interface Plant {
  readonly name: string;
  readonly file: string;
  readonly code: string;
  /** Whether ESLint's static part (eslint.layers.js) names it too. */
  readonly lint?: boolean;
}

/** Imports outside the layer's list. */
const IMPORTS: readonly Plant[] = [
  {
    name: "node:process by name, then a built-in through it",
    file: "kube/reader.ts",
    code: `import { getBuiltinModule } from "node:process";\nexport const leak = () => getBuiltinModule("node:child_process");`,
    lint: true,
  },
  { name: "a bare built-in", file: "kube/connect.ts", code: `import os2 from "os";\nexport const leak = () => os2.homedir();`, lint: true },
  { name: "a package's unlisted subpath", file: "model/meta.ts", code: `import * as z4 from "zod/v4";\nexport const leak = z4;`, lint: true },
  { name: "a relative path leaving src/", file: "cli/local.ts", code: `import readOnly from "../../eslint.read-only.js";\nexport const leak = readOnly;` },
  { name: "another layer's built-in", file: "render/table.ts", code: `import { createHash } from "node:crypto";\nexport const leak = createHash;`, lint: true },
  { name: "another layer's package", file: "commands/status/status-command.ts", code: `import { JSONPath } from "jsonpath-plus";\nexport const leak = JSONPath;`, lint: true },
  { name: "a types-only module for its values", file: "kube/credentials.ts", code: `import { spawnSync } from "node:child_process";\nexport const leak = spawnSync;`, lint: true },
  { name: "a re-export of an unlisted built-in", file: "kube/reader.ts", code: `export { request } from "node:http2";`, lint: true },
  { name: "a dynamic import of an unlisted built-in", file: "commands/inbox/inbox-command.ts", code: `export const leak = async () => import("node:dgram");` },
  { name: "a dynamic import of a computed name", file: "kube/reader.ts", code: `export const leak = async (m: string) => import(m);` },
  {
    name: "getBuiltinModule of an unlisted built-in, where process is allowed",
    file: "cli/embedded.ts",
    code: `export const leak = () => process.getBuiltinModule("node:child_process");`,
  },
  { name: "getBuiltinModule under another name", file: "main.ts", code: `const load = process.getBuiltinModule;\nexport const leak = () => load("node:http");` },
  { name: "createRequire's require", file: "cli/code-cache.ts", code: `export const leak = () => process.getBuiltinModule("node:module").createRequire("/")("node:https");` },
  { name: "the global require", file: "kube/reader.ts", code: `export const leak = () => require("node:child_process");` },
];

/** Reaches of the process, the global object, Function, eval or Node's loader outside the list. */
const REACHES: readonly Plant[] = [
  { name: "const p = process", file: "kube/reader.ts", code: `const p = process;\nexport const leak = () => p.getBuiltinModule("node:child_process");` },
  { name: `globalThis["process"]`, file: "kube/reader.ts", code: `export const leak = () => (globalThis as Record<string, unknown>)["process"];` },
  { name: "import proc from node:process", file: "kube/connect.ts", code: `import proc from "node:process";\nexport const leak = () => proc.env;` },
  { name: "import * as proc from node:process", file: "plan/verify.ts", code: `import * as proc from "node:process";\nexport const leak = () => proc.argv;` },
  {
    name: "import { getBuiltinModule } from node:process",
    file: "kube/reader.ts",
    code: `import { getBuiltinModule } from "node:process";\nexport const leak = () => getBuiltinModule("node:child_process");`,
  },
  { name: `Function("return this")()`, file: "plan/verify.ts", code: `export const leak = () => Function("return this")() as unknown;` },
  { name: "new Function", file: "render/table.ts", code: `export const leak = () => new Function("return process")() as unknown;` },
  { name: "(0, eval)", file: "kube/reader.ts", code: `export const leak = () => (0, eval)("process") as unknown;` },
  { name: "eval renamed", file: "commands/status/status-command.ts", code: `const run = eval;\nexport const leak = () => run("process") as unknown;` },
  { name: `Reflect.get(globalThis, "process")`, file: "commands/status/status-command.ts", code: `export const leak = () => Reflect.get(globalThis, "process") as unknown;` },
  { name: "global.process", file: "kube/http.ts", code: `export const leak = () => global.process.getBuiltinModule("node:child_process");` },
  { name: "constructor.constructor", file: "approval/ledger.ts", code: `export const leak = () => ({}).constructor.constructor("return process")() as unknown;` },
  {
    name: "the process through an allowed member's result",
    file: "kube/request-log.ts",
    code: `export const leak = () => process.once("exit", () => undefined).getBuiltinModule("node:child_process");`,
  },
  { name: "a member the module is not listed for", file: "kube/young-generation.ts", code: `export const leak = () => process.env;` },
  { name: "the process passed on from a listed module", file: "cli/local.ts", code: `export const leak = () => process;` },
  { name: "the process destructured", file: "cli/embedded.ts", code: `export const { getBuiltinModule: leak } = process;` },
  { name: "process in a shell module not listed", file: "cli/context.ts", code: `export const leak = () => process.env;` },
  { name: "require", file: "kube/reader.ts", code: `export const leak = () => require("node:child_process") as unknown;` },
  { name: "module", file: "kube/reader.ts", code: `export const leak = () => module.constructor;` },
];

const table: string[] = [];

describe("the code's allowlists", () => {
  let base: ts.Program;
  beforeAll(() => {
    base = srcProgram();
  }, 600_000);

  it("every module of src/ imports only what its layer's list names, and each list is what the layer uses", () => {
    expect(importProblems(base)).toEqual([]);
    const used = usedByLayer(base);
    for (const layer of Object.keys(VALUES)) {
      expect(used[layer]?.values ?? [], `${layer}'s values`).toEqual([...VALUES[layer]!].sort());
      expect(used[layer]?.types ?? [], `${layer}'s types`).toEqual([...(TYPES[layer] ?? [])].sort());
    }
  });

  it("every module of src/ reaches the process, globalThis, Function, eval or require only as listed", () => {
    expect(processReachProblems(base)).toEqual([]);
  });

  /**
   * The plants in rounds of one per file (each appends to its own module only), one scratch program
   * a round, each plant judged on its file alone: a dozen programs instead of one per plant.
   */
  function judge(plants: readonly Plant[], check: (program: ts.Program, only: readonly string[]) => string[], label: string): void {
    const rounds: Plant[][] = [];
    for (const plant of plants) {
      const round = rounds.find((r) => !r.some((q) => q.file === plant.file)) ?? (rounds[rounds.push([]) - 1] as Plant[]);
      round.push(plant);
    }
    for (const round of rounds) {
      const program = srcProgram(Object.fromEntries(round.map((b) => [b.file, append(b.code)(read(b.file))])), base);
      for (const b of round) {
        const problems = check(program, [b.file]);
        expect(problems.length, `${b.name}: src/${b.file} with ${b.code}`).toBeGreaterThan(0);
        table.push(`red  ${label.padEnd(8)} ${b.name} (src/${b.file}): ${problems[0]}`);
      }
    }
  }

  it("names each import outside its layer's list, in copies of real modules", () => {
    judge(IMPORTS, importProblems, "imports");
  }, 600_000);

  it("names each reach of the process, globalThis, Function, eval or require outside the list, in copies of real modules", () => {
    judge(REACHES, processReachProblems, "reach");
  }, 600_000);

  it("ESLint names the static imports of the table too (eslint.layers.js), and passes every module as it is", async () => {
    const eslint = new ESLint({
      cwd: path.resolve(SRC, ".."),
      allowInlineConfig: false,
      overrideConfigFile: true,
      overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, ...layers],
    });
    const results = await eslint.lintFiles([path.join(SRC, "**/*.ts")]);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.relative(SRC, r.filePath)}:${m.line} ${m.message}`))).toEqual([]);
    for (const b of IMPORTS.filter((i) => i.lint)) {
      const [result] = await eslint.lintText(append(b.code)(read(b.file)), { filePath: path.join(SRC, b.file) });
      const found = result!.messages.filter((m) => m.ruleId === "layers/imports");
      expect(found.length, `${b.name}: ${b.code}`).toBeGreaterThan(0);
      table.push(`red  lint     ${b.name} (src/${b.file}): ${found[0]!.message}`);
    }
    // A module of src/ that is not .ts: ESLint would lint it with no rules, so it names the file itself.
    const [mjs] = await eslint.lintText(`import https from "node:https";\nexport const leak = () => https.request("https://x", { method: "DELETE" });\n`, {
      filePath: path.join(SRC, "kube", "side.mjs"),
    });
    expect(mjs!.messages.map((m) => m.ruleId)).toEqual(["layers/only-typescript"]);
  }, 120_000);

  it("prints the table", () => {
    console.log(`the code's allowlists: ${table.length} plants, each named (red), every module as it is passes (green):\n${table.join("\n")}`);
    expect(table).toHaveLength(IMPORTS.length + REACHES.length + IMPORTS.filter((i) => i.lint).length);
  });
});
