// Adding a command is one folder and one registry line, as a maintainer meets it: in a scratch copy
// of the tree, a trivial verb is added as exactly that, `npm run docs` writes what is generated,
// the accept step rewrites the goldens that list every command, and then the tests that list
// commands (help, completion, the reference pages, the README's table, docs/rbac.md, doctor's
// permission rows, the timeouts table, the layout) pass. Every other file that changed was
// written by those two steps: docs, the README's table or a golden, never a source or test file.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** What the unit tier of a tree needs: its code, tests, docs and configuration (node_modules is linked). */
const COPIED = ["src", "test", "docs", "rbac", "README.md", "package.json", "tsconfig.json", "vitest.config.ts"];
/** The unit tests that list every command, and so must take a new one without an edit. */
const LISTING = [
  // test/docs but this file, which would run itself again.
  "test/docs/command-pages.test.ts",
  "test/docs/rbac-page.test.ts",
  "test/docs/options-page.test.ts",
  "test/cli/help.test.ts",
  "test/cli/registry.test.ts",
  "test/cli/output-flag.test.ts",
  "test/commands/completion",
  "test/commands/doctor",
  "test/commands/hello",
  "test/guarantees/timeouts.test.ts",
  "test/architecture.test.ts",
];

const VERB = `// \`kubectl ptah hello\`: a verb that says hello, to prove adding one takes one folder.
import type { CommandBody } from "../command-types.ts";
import { OFFLINE } from "../shared/permissions.ts";

export const helloCommand: CommandBody<Record<string, never>> = {
  positionals: [],
  outputs: [],
  examples: [{ comment: "Say hello", command: "kubectl ptah hello" }],
  flags: [],
  permissions: [{ form: "hello", argv: ["hello"], rules: [], note: OFFLINE }],
  toOptions: () => ({}),
  run: async () => ({ kind: "printed", stdout: "hello\\n" }),
};
`;
const VERB_TEST = `import { expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";

it("says hello", async () => {
  expect((await runCliWith(["hello"], undefined)).stdout).toBe("hello\\n");
});
`;
const LINE = `  hello: { summary: "Say hello, to prove a verb is one folder and one line", load: () => import("./hello/hello-command.ts").then((m) => m.helloCommand) },\n`;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-scratch-verb-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function files(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) return [];
    return e.isDirectory() ? files(p, base) : [path.relative(base, p)];
  });
}

function digests(dir: string): Map<string, string> {
  return new Map(
    files(dir).map((f) => [
      f,
      crypto
        .createHash("sha256")
        .update(fs.readFileSync(path.join(dir, f)))
        .digest("hex"),
    ]),
  );
}

/** A child run in the scratch tree, as outside any test run and outside CI (the docs step refuses CI). */
function npm(args: readonly string[]): { status: number | null; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "CI" && k !== "PTAH_E2E" && k !== "PTAH_WRITE_DOCS"));
  const r = spawnSync("npm", args, { cwd: scratch, env: { ...env, NO_COLOR: "1" }, encoding: "utf8", timeout: 900_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.slice(-6000) };
}

describe("a new verb is one folder and one registry line", () => {
  it("passes the tests that list commands after the docs step and the golden accept step, nothing else edited", () => {
    for (const entry of COPIED) fs.cpSync(path.join(ROOT, entry), path.join(scratch, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(scratch, "node_modules"));
    const before = digests(scratch);

    // The hand-made part: the verb's folder, its test folder and one line of the registry.
    fs.mkdirSync(path.join(scratch, "src/commands/hello"));
    fs.writeFileSync(path.join(scratch, "src/commands/hello/hello-command.ts"), VERB);
    fs.mkdirSync(path.join(scratch, "test/commands/hello"));
    fs.writeFileSync(path.join(scratch, "test/commands/hello/hello.test.ts"), VERB_TEST);
    const registry = path.join(scratch, "src/commands/registry.ts");
    const text = fs.readFileSync(registry, "utf8");
    const at = text.indexOf("  completion: ");
    expect(at, "the registry has a completion line to add the verb before").toBeGreaterThan(0);
    fs.writeFileSync(registry, text.slice(0, at) + LINE + text.slice(at));

    const docs = npm(["run", "docs"]);
    expect(docs.status, docs.output).toBe(0);
    const accept = npm(["run", "test:update", "--", ...LISTING]);
    expect(accept.status, accept.output).toBe(0);
    const check = npm(["exec", "--", "vitest", "run", "--project", "unit", ...LISTING]);
    expect(check.status, check.output).toBe(0);

    const after = digests(scratch);
    const handMade = new Set(["src/commands/hello/hello-command.ts", "test/commands/hello/hello.test.ts", "src/commands/registry.ts"]);
    const changed = [...after].filter(([f, d]) => before.get(f) !== d && !handMade.has(f)).map(([f]) => f);
    const generated = (f: string) => f === "README.md" || f.startsWith("docs/") || f.startsWith("test/golden/");
    expect(changed.filter((f) => !generated(f))).toEqual([]);
    expect(changed).toContain("docs/commands/hello.md");
    expect(changed).toContain("README.md");
    expect(changed).toContain("docs/rbac.md");
  }, 900_000);
});
