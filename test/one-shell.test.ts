// One shell: every in-process CLI test goes through test/support/cli.ts, which
// runs the real runCli with argv strings. No test builds a RunContext, calls a command's
// toOptions or run itself, or drives runCli around that harness. Decided on each file's syntax
// tree (TypeScript's parser), so a comment or a string that names runCli does not count, and a
// dynamic import() is read by what it loads: a non-literal one cannot be decided and is refused.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const TEST = import.meta.dirname;
const RUN = path.resolve(TEST, "..", "src", "cli", "run.ts");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

const HARNESS = "support/cli.ts";
const SELF = "one-shell.test.ts";
/** Dynamic imports of something other than a literal, each with why it is not the shell. */
const COMPUTED_IMPORTS: Readonly<Record<string, string>> = {
  "lab/bundle.test.ts": "loads the lab bundle it has just built, by file URL with a cache-buster",
  "model/validators.property.test.ts": "loads the validators module src/model/codegen.ts has just generated, by file URL",
};

/** What a file does that only the harness may do, one line each. */
export function shellUses(rel: string, text: string): string[] {
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const dir = path.dirname(path.join(TEST, rel));
  const isRun = (spec: string) => spec.startsWith(".") && path.resolve(dir, spec) === RUN;
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && isRun(n.moduleSpecifier.text)) {
      found.push("imports the shell (src/cli/run.ts) itself");
    }
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = n.arguments[0];
      if (!arg || !ts.isStringLiteralLike(arg)) {
        if (!COMPUTED_IMPORTS[rel]) found.push("has a dynamic import() whose module cannot be read");
      } else if (isRun(arg.text)) found.push("imports the shell (src/cli/run.ts) dynamically");
    }
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)
            ? callee.argumentExpression.text
            : undefined;
      if (name === "runCli") found.push("calls runCli directly");
      if ((name === "toOptions" || name === "run") && (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee))) {
        let receiver: ts.Expression = callee.expression;
        while (ts.isNonNullExpression(receiver) || ts.isParenthesizedExpression(receiver)) receiver = receiver.expression;
        const isCommand =
          (ts.isIdentifier(receiver) && /command$/iu.test(receiver.text)) ||
          (ts.isCallExpression(receiver) && ts.isIdentifier(receiver.expression) && receiver.expression.text === "findCommand");
        if (isCommand) found.push(`calls a command's ${name}`);
      }
    }
    if (ts.isIdentifier(n) && n.text === "RunContext") found.push("names RunContext");
    if (ts.isIdentifier(n) && n.text === "makeExplainCommand") found.push("builds its own explain command");
    n.forEachChild(visit);
  };
  visit(source);
  return [...new Set(found)];
}

const sources = files(TEST)
  .map((f) => ({ rel: path.relative(TEST, f).split(path.sep).join("/"), text: fs.readFileSync(f, "utf8") }))
  .filter((s) => s.rel !== SELF);

describe("one shell", () => {
  it("the harness is the only test code that runs the shell", () => {
    expect(shellUses(HARNESS, sources.find((s) => s.rel === HARNESS)!.text)).toContain("calls runCli directly");
    const offenders = sources.filter((s) => s.rel !== HARNESS).flatMap((s) => shellUses(s.rel, s.text).map((what) => `${s.rel} ${what}`));
    expect(offenders).toEqual([]);
  });

  it("each computed import it lets through is still there (no stale exception)", () => {
    for (const rel of Object.keys(COMPUTED_IMPORTS)) {
      const text = fs.readFileSync(path.join(TEST, rel), "utf8");
      expect(shellUses(rel, text), rel).toEqual([]);
      expect(shellUses("elsewhere.test.ts", text), rel).toContain("has a dynamic import() whose module cannot be read");
    }
  });

  it.each([
    ["a call of runCli", `import { runCli } from "../../src/cli/run.ts";\nawait runCli(["status"], ctx);`, ["imports the shell (src/cli/run.ts) itself", "calls runCli directly"]],
    [
      "runCli through a dynamic import",
      `const m = await import("../../src/cli/run.ts");\nawait m.runCli(["status"], ctx);`,
      ["imports the shell (src/cli/run.ts) dynamically", "calls runCli directly"],
    ],
    [
      "a computed dynamic import",
      `const m = await import(["..", "src", "cli", "run.ts"].join("/"));\nawait m["run" + "Cli"](["status"]);`,
      ["has a dynamic import() whose module cannot be read"],
    ],
    ["runCli by element access", `await shell["runCli"](["status"]);`, ["calls runCli directly"]],
    ["a command's run", `await findCommand("plan")!.run(opts, ctx);`, ["calls a command's run"]],
    ["a RunContext", `const ctx: RunContext = {} as never;`, ["names RunContext"]],
    ["only a comment and a string", `// runCli(["status"]) and RunContext\nconst s = "runCli(x) import('../src/cli/run.ts')";`, []],
  ])("names %s", (_what, text, want) => {
    expect(shellUses("cli/scratch.test.ts", text)).toEqual(want);
  });

  it("the second harnesses are gone", () => {
    for (const gone of ["support/run-command.ts", "explain/support.ts"]) expect(fs.existsSync(path.join(TEST, gone)), gone).toBe(false);
  });
});
