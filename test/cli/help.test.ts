// kubectl-style sanity checks over the command registry (kubectl's cmd_sanity idea).
import { describe, expect, it } from "vitest";
import { renderCommandHelp, renderRootHelp } from "../../src/cli/help.ts";
import { GLOBAL_FLAGS } from "../../src/cli/global-flags.ts";
import { usageLine } from "../../src/cli/usage.ts";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { runCliWith } from "../support/cli.ts";

describe.each(ALL_COMMANDS.map((c) => [c.name, c] as const))("command %s", (name, command) => {
  it("has a usage line and examples that start with kubectl ptah", () => {
    expect(usageLine(command).startsWith(`kubectl ptah ${name}`)).toBe(true);
    expect(command.examples.length).toBeGreaterThan(0);
    for (const e of command.examples) {
      expect(e.command.startsWith("kubectl ptah ") || e.command.startsWith("source <(kubectl")).toBe(true);
      expect(e.comment).not.toMatch(/^#|\/\//u);
    }
  });

  it("has a one-line summary without a trailing period", () => {
    expect(command.summary).not.toMatch(/\.$|\n/u);
    expect(command.summary.length).toBeLessThanOrEqual(110);
  });

  it("names its flags in lowercase kebab-case, each with a description, none clashing with a global flag", () => {
    const globals = new Set<string>(GLOBAL_FLAGS.map((f) => f.name));
    for (const f of command.flags) {
      expect(f.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/u);
      expect(f.describe.length).toBeGreaterThan(10);
      expect(globals.has(f.name)).toBe(false);
    }
  });

  it("answers --help and -h with its help on stdout and exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const r = await runCliWith([name, flag], undefined);
      expect(r).toMatchObject({ status: 0, stderr: "" });
      expect(r.stdout).toBe(renderCommandHelp(command));
    }
  });
});

describe("root help", () => {
  it("names every command and upstream's usage lines", () => {
    const text = renderRootHelp(ALL_COMMANDS);
    for (const c of ALL_COMMANDS) expect(text).toContain(`  ${c.name} `);
    for (const u of ["usage: kubectl ptah plan", "kubectl ptah schema", "kubectl ptah migration"]) expect(text).toContain(u);
  });

  it.each([
    { argv: [], status: 2 },
    { argv: ["--help"], status: 0 },
    { argv: ["-h"], status: 0 },
    { argv: ["help"], status: 0 },
  ])("kubectl ptah $argv prints usage on stdout with exit $status (as upstream)", async ({ argv, status }) => {
    const r = await runCliWith(argv, undefined);
    expect(r.status).toBe(status);
    expect(r.stdout).toContain("usage: kubectl ptah plan");
  });

  it("refuses an unknown command with exit 2 naming it, stdout empty", async () => {
    const r = await runCliWith(["apply", "storefront"], undefined);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain('unknown command "apply"');
  });

  it("prints kubectl-ptah <version> for --version", async () => {
    const r = await runCliWith(["--version"], undefined);
    expect(r).toMatchObject({ status: 0, stdout: "kubectl-ptah v0.0.0-test\n", stderr: "" });
  });
});
