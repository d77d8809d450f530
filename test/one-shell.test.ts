// One shell (issue 13): every in-process CLI test goes through test/support/cli.ts, which runs the
// real runCli with argv strings. No test builds a RunContext, calls a command's toOptions or run
// itself, or drives runCli around that harness.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const TEST = import.meta.dirname;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

const HARNESS = "support/cli.ts";
const SELF = "one-shell.test.ts";
const sources = files(TEST)
  .map((f) => ({ rel: path.relative(TEST, f).split(path.sep).join("/"), text: fs.readFileSync(f, "utf8") }))
  .filter((s) => s.rel !== SELF);

const RULES: { what: string; pattern: RegExp }[] = [
  { what: "imports the shell (src/cli/run.ts) itself", pattern: /from "[./]*src\/cli\/run\.ts"/u },
  { what: "calls runCli directly", pattern: /\brunCli\(/u },
  { what: "builds a RunContext", pattern: /\bRunContext\b/u },
  { what: "calls a command's toOptions or run", pattern: /\b\w*[cC]ommand!?\.(toOptions|run)\(|\bfindCommand\([^)]*\)!?\.(toOptions|run)\(/u },
  { what: "builds its own explain command", pattern: /\bmakeExplainCommand\b/u },
];

describe("one shell", () => {
  it("the harness is the only test code that runs the shell", () => {
    expect(sources.find((s) => s.rel === HARNESS)?.text).toMatch(/\brunCli\(/u);
    const offenders = sources.filter((s) => s.rel !== HARNESS).flatMap((s) => RULES.filter((r) => r.pattern.test(s.text)).map((r) => `${s.rel} ${r.what}`));
    expect(offenders).toEqual([]);
  });

  it("the second harnesses are gone", () => {
    for (const gone of ["support/run-command.ts", "explain/support.ts"]) expect(fs.existsSync(path.join(TEST, gone)), gone).toBe(false);
  });
});
