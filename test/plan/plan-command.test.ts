import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { planCommand } from "../../src/commands/plan.ts";
import { UsageError } from "../../src/errors.ts";
import { formatPrivileges } from "../../src/views/plan.ts";
import { globalOptions, runCommand } from "../support/run-command.ts";
import { clusterState, CURRENT_STATEMENTS, NS, publishCurrent, SCHEMA } from "./fixtures.ts";
import { expectGolden } from "../support/golden.ts";


async function plan(flags: Record<string, unknown> = {}, output?: string, state = clusterState()) {
  return runCommand(planCommand, { positionals: [SCHEMA], flags, global: output ? { output } : {} }, state.reader, { namespace: NS });
}

describe("plan toOptions", () => {
  const args = (positionals: string[], flags: Record<string, unknown> = {}, output?: string, allNamespaces = false) => ({
    positionals,
    flags,
    global: globalOptions({ output, allNamespaces }),
  });

  it.each<{ name: string; input: ReturnType<typeof args>; message: string }>([
    { name: "no name", input: args([]), message: "name one PtahSchema" },
    { name: "two names", input: args(["a", "b"]), message: "name one PtahSchema" },
    { name: "both selections", input: args(["a"], { current: true, applied: true }), message: "--current and --applied are two different plans; ask for one" },
    { name: "an unknown format", input: args(["a"], {}, "wide"), message: 'unknown output format "wide"; it is one of [text sql json yaml]' },
    { name: "--verify with -o sql", input: args(["a"], { verify: true }, "sql"), message: "--verify prints a report, not the plan" },
    { name: "--verify with --statements", input: args(["a"], { verify: true, statements: true }), message: "--verify prints a report, not the plan" },
    { name: "--statements with -o json", input: args(["a"], { statements: true }, "json"), message: "--statements belongs to the text view" },
    { name: "--all-namespaces", input: args(["a"], {}, undefined, true), message: "a plan is read from one namespace" },
  ])("refuses $name as a usage error", ({ input, message }) => {
    let caught: unknown;
    try {
      planCommand.toOptions(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toContain(message);
    expect((caught as UsageError).exitStatus).toBe(2);
  });

  it("checks the name count before the selections, and the selections before the format", () => {
    expect(() => planCommand.toOptions(args([], { current: true, applied: true }, "yaml!"))).toThrow("name one PtahSchema");
    expect(() => planCommand.toOptions(args(["a"], { current: true, applied: true }, "yaml!"))).toThrow("ask for one");
  });

  it("selects the current plan and text by default", () => {
    expect(planCommand.toOptions(args(["storefront"]))).toEqual({ schema: "storefront", selection: "current", output: "text", statements: false, verify: false });
    expect(planCommand.toOptions(args(["storefront"], { applied: true }, "sql")).selection).toBe("applied");
  });

  it("says in its help that --current is the default and applied is not a log of each statement", () => {
    const current = planCommand.flags.find((f) => f.name === "current")!;
    const applied = planCommand.flags.find((f) => f.name === "applied")!;
    expect(current.describe).toContain("(the default)");
    expect(applied.describe).toContain("log of what each statement did");
    expect(planCommand.examples.every((e) => e.command.startsWith("kubectl ptah plan"))).toBe(true);
  });

  it("leaves stdout empty and exits 2 on a refused command line", async () => {
    const result = await runCommand(planCommand, { positionals: [], flags: {} }, clusterState().reader);
    expect(result).toEqual({ stdout: "", stderr: "error: name one PtahSchema (see 'kubectl ptah plan -h' for help and examples)\n", status: 2 });
  });
});

describe("plan output", () => {
  it("prints the current plan as text", async () => {
    const result = await plan();
    expect(result.status).toBe(0);
    await expectGolden(result.stdout, "plan/current.txt");
  });

  it("prints the applied plan as text, with Applied:", async () => {
    const result = await plan({ applied: true });
    expect(result.stdout).toContain("Plan:           applied (ptah-plan-");
    expect(result.stdout).toContain("Applied:        2026-09-13T08:04:24Z\n");
    await expectGolden(result.stdout, "plan/applied.txt");
  });

  it("adds the statements table to the text view", async () => {
    await expectGolden((await plan({ statements: true })).stdout, "plan/current-statements.txt");
  });

  it("prints the SQL, one ; per statement, never re-split", async () => {
    const result = await plan({}, "sql");
    await expectGolden(result.stdout, "plan/current.sql");
    const expected = CURRENT_STATEMENTS.map((s) => s.sql.trim().replace(/;$/, "")).join(";\n") + ";\n";
    expect(result.stdout).toBe(expected);
  });

  it("prints the applied SQL as upstream's scripts expect", async () => {
    await expectGolden((await plan({ applied: true }, "sql")).stdout, "plan/applied.sql");
  });

  it("prints the stored document bytes for -o json, which hash to the content digest", async () => {
    const state = clusterState();
    const result = await plan({}, "json", state);
    expect(result.stdout).toBe(state.current.document);
    const digest = "sha256:" + createHash("sha256").update(result.stdout).digest("hex");
    expect(digest).toBe((state.current.plan.spec as { contentDigest: string }).contentDigest);
    await expectGolden(result.stdout, "plan/current.json");
  });

  it("adds one newline to a document that lacks it, and only then", async () => {
    const current = publishCurrent({ transformDocument: (d) => d.trimEnd() });
    const result = await plan({}, "json", clusterState({ current }));
    expect(result.stdout).toBe(current.document + "\n");
  });

  it("prints the verified document as YAML", async () => {
    await expectGolden((await plan({}, "yaml")).stdout, "plan/current.yaml");
  });

  it("prints a verification report under --verify, without SQL", async () => {
    const result = await plan({ verify: true });
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("CREATE");
    await expectGolden(result.stdout, "plan/current-verify.txt");
  });

  it("never prints a chunk name", async () => {
    const state = clusterState();
    for (const output of ["text", "sql", "json", "yaml"]) {
      const result = await plan({}, output, state);
      expect(result.stdout).not.toContain(`${state.current.name}-000`);
    }
  });

  it("reads only the schema, the plan and its chunks", async () => {
    const state = clusterState();
    await plan({ applied: true }, "sql", state);
    expect(state.reader.requests).toEqual([
      `get PtahSchema ${NS}/${SCHEMA}`,
      `get PtahSchemaPlan ${NS}/${state.applied.name}`,
      `get PtahSchemaPlanChunk ${NS}/${state.applied.name}-000`,
    ]);
  });

  it("neutralises escape sequences in the text view but keeps -o sql byte-exact", async () => {
    const sql = "SELECT 1; -- \u001b[2Khidden\tcolumn";
    const current = publishCurrent({ statements: [{ sql, severity: "safe", reason: "\u001b[31mred" }], privilegeChanges: [] });
    const state = clusterState({ current });
    const text = (await plan({ statements: true }, undefined, state)).stdout;
    expect(text).not.toContain("\u001b");
    expect(text).toContain("-- ^[[2Khidden\tcolumn;\n");
    expect((await plan({}, "sql", state)).stdout).toBe(sql + ";\n");
    const onTerminal = await runCommand(planCommand, { positionals: [SCHEMA], global: { output: "sql" } }, state.reader, { namespace: NS, tty: true });
    expect(onTerminal.stdout).toBe("SELECT 1; -- ^[[2Khidden\tcolumn;\n");
  });

  it("marks destructive SQL the plan does not record as such", async () => {
    const current = publishCurrent({
      statements: [{ sql: 'ALTER TABLE "customers" DROP COLUMN "email";', severity: "warning" }],
      destructive: false,
      privilegeChanges: [],
    });
    const text = (await plan({}, undefined, clusterState({ current }))).stdout;
    expect(text).toContain("Destructive:    true (read by this plugin, not recorded)\n");
  });
});

describe("the Privileges line", () => {
  it.each<{ name: string; recorded: string[]; read: string[]; want: string }>([
    { name: "none", recorded: [], read: [], want: "none" },
    { name: "recorded and read", recorded: ["Grant"], read: ["Grant"], want: "Grant" },
    { name: "recorded but not read", recorded: ["Grant", "Ownership"], read: [], want: "Grant, Ownership" },
    { name: "read but not recorded", recorded: [], read: ["SecurityDefiner"], want: "SecurityDefiner (read by this plugin, not recorded)" },
    {
      name: "mixed",
      recorded: ["Grant", "FunctionReplacement"],
      read: ["Grant", "SecurityDefiner", "Ownership"],
      want: "Grant, FunctionReplacement; SecurityDefiner, Ownership (read by this plugin, not recorded)",
    },
  ])("$name", ({ recorded, read, want }) => {
    expect(formatPrivileges(recorded, read)).toBe(want);
  });

  it("shows recorded and read kinds of a real plan", async () => {
    const text = (await plan()).stdout;
    expect(text).toContain("Privileges:     FunctionReplacement, Grant; SecurityDefiner (read by this plugin, not recorded)\n");
  });
});
