import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findCommand } from "../../../src/commands/all-commands.ts";
import { formatPrivileges } from "../../../src/commands/shared/plan-view.ts";
import { runCliWith } from "../../support/cli.ts";
import { clusterState, CURRENT_STATEMENTS, FIXTURES_NOW, NS, publishCurrent, SCHEMA } from "../../plan/fixtures.ts";
import { expectGolden } from "../../support/golden.ts";

/** `kubectl ptah plan <schema> ARGS…` through the real shell, in the fixtures' namespace. */
async function plan(args: readonly string[] = [], state = clusterState(), tty = false) {
  return runCliWith(["plan", SCHEMA, ...args], state.reader, { namespace: NS, now: FIXTURES_NOW, tty });
}

describe("plan command line", () => {
  it.each<{ name: string; argv: string[]; message: string }>([
    { name: "no name", argv: ["plan"], message: "name one PtahSchema" },
    { name: "two names", argv: ["plan", "a", "b"], message: "name one PtahSchema" },
    { name: "both selections", argv: ["plan", "a", "--current", "--applied"], message: "--current and --applied are two different plans; ask for one" },
    { name: "an unknown format", argv: ["plan", "a", "-o", "wide"], message: 'unknown output format "wide"; it is one of [text sql json yaml markdown]' },
    { name: "--verify with -o sql", argv: ["plan", "a", "--verify", "-o", "sql"], message: "--verify prints a report, not the plan" },
    { name: "--verify with --statements", argv: ["plan", "a", "--verify", "--statements"], message: "--verify prints a report, not the plan" },
    { name: "--statements with -o json", argv: ["plan", "a", "--statements", "-o", "json"], message: "--statements belongs to the text view" },
    { name: "--all-namespaces", argv: ["plan", "a", "-A"], message: "a plan is read from one namespace" },
  ])("refuses $name as a usage error, before connecting", async ({ argv, message }) => {
    const r = await runCliWith(argv, clusterState().reader);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
    expect(r.connects).toBe(0);
  });

  it("checks the name count before the selections, and the selections before the format", async () => {
    expect((await runCliWith(["plan", "--current", "--applied", "-o", "yaml!"], undefined)).stderr).toContain("name one PtahSchema");
    expect((await runCliWith(["plan", "a", "--current", "--applied", "-o", "yaml!"], undefined)).stderr).toContain("ask for one");
  });

  it("selects the current plan and text by default", async () => {
    const state = clusterState();
    const byDefault = await plan([], state);
    expect(byDefault.status).toBe(0);
    expect(byDefault.stdout).toContain(`Plan:           current (${state.current.name}`);
    expect(byDefault.stdout).toBe((await plan(["--current", "-o", "text"])).stdout);
    const applied = clusterState();
    await plan(["--applied", "-o", "sql"], applied);
    expect(applied.reader.requests[1]).toBe(`get PtahSchemaPlan ${NS}/${applied.applied.name}`);
  });

  it("says in its help that --current is the default and applied is not a log of each statement", () => {
    const planCommand = findCommand("plan")!;
    const current = planCommand.flags.find((f) => f.name === "current")!;
    const applied = planCommand.flags.find((f) => f.name === "applied")!;
    expect(current.describe).toContain("(the default)");
    expect(applied.describe).toContain("log of what each statement did");
    expect(planCommand.examples.every((e) => e.command.startsWith("kubectl ptah plan"))).toBe(true);
  });

  it("leaves stdout empty and exits 2 on a refused command line", async () => {
    const result = await runCliWith(["plan"], clusterState().reader);
    expect(result).toMatchObject({ stdout: "", stderr: "error: name one PtahSchema (see 'kubectl ptah plan -h' for help and examples)\n", status: 2 });
  });
});

describe("plan output", () => {
  it("prints the current plan as text", async () => {
    const result = await plan();
    expect(result.status).toBe(0);
    await expectGolden(result.stdout, "plan/current.txt");
  });

  it("prints the applied plan as text, with Applied:", async () => {
    const result = await plan(["--applied"]);
    expect(result.stdout).toContain("Plan:           applied (ptah-plan-");
    expect(result.stdout).toContain("Applied:        2026-09-13T08:04:24Z\n");
    await expectGolden(result.stdout, "plan/applied.txt");
  });

  it("adds the statements table to the text view", async () => {
    await expectGolden((await plan(["--statements"])).stdout, "plan/current-statements.txt");
  });

  it("prints the SQL, one ; per statement, never re-split", async () => {
    const result = await plan(["-o", "sql"]);
    await expectGolden(result.stdout, "plan/current.sql");
    const expected = CURRENT_STATEMENTS.map((s) => s.sql.trim().replace(/;$/, "")).join(";\n") + ";\n";
    expect(result.stdout).toBe(expected);
  });

  it("prints the applied SQL as upstream's scripts expect", async () => {
    await expectGolden((await plan(["--applied", "-o", "sql"])).stdout, "plan/applied.sql");
  });

  it("prints the stored document bytes for -o json, which hash to the content digest", async () => {
    const state = clusterState();
    const result = await plan(["-o", "json"], state);
    expect(result.stdout).toBe(state.current.document);
    const digest = "sha256:" + createHash("sha256").update(result.stdout).digest("hex");
    expect(digest).toBe((state.current.plan.spec as { contentDigest: string }).contentDigest);
    await expectGolden(result.stdout, "plan/current.json");
  });

  it("adds one newline to a document that lacks it, and only then", async () => {
    const current = publishCurrent({ transformDocument: (d) => d.trimEnd() });
    const result = await plan(["-o", "json"], clusterState({ current }));
    expect(result.stdout).toBe(current.document + "\n");
  });

  it("prints the verified document as YAML", async () => {
    await expectGolden((await plan(["-o", "yaml"])).stdout, "plan/current.yaml");
  });

  it("prints a verification report under --verify, without SQL", async () => {
    const result = await plan(["--verify"]);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("CREATE");
    await expectGolden(result.stdout, "plan/current-verify.txt");
  });

  it("prints the report under --verify when there is nothing to verify, and exits 3 like plan does", async () => {
    const result = await plan(["--verify"], clusterState({ current: null }));
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(
      /^CHECK +RESULT +DETAIL\nschema +ok [^\n]+\nselection +FAILED +[^\n]+\n\nThe current plan of application\/storefront did not verify; nothing from it was printed\.\n$/u,
    );
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/u);
    expect(await plan([], clusterState({ current: null }))).toMatchObject({ status: 3, stdout: "", stderr: result.stderr });
  });

  it("never prints a chunk name", async () => {
    const state = clusterState();
    for (const output of ["text", "sql", "json", "yaml"]) {
      const result = await plan(["-o", output], state);
      expect(result.stdout).not.toContain(`${state.current.name}-000`);
    }
  });

  it("reads only the schema, the plan and its chunks", async () => {
    const state = clusterState();
    await plan(["--applied", "-o", "sql"], state);
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
    const text = (await plan(["--statements"], state)).stdout;
    expect(text).not.toContain("\u001b");
    expect(text).toContain("-- ^[[2Khidden\tcolumn;\n");
    expect((await plan(["-o", "sql"], state)).stdout).toBe(sql + ";\n");
    const onTerminal = await plan(["-o", "sql"], state, true);
    expect(onTerminal.stdout).toBe("SELECT 1; -- ^[[2Khidden\tcolumn;\n");
  });

  it("prints the plan's own Destructive flag, as upstream, and warns on stderr of destructive SQL it does not record", async () => {
    const current = publishCurrent({
      statements: [{ sql: 'ALTER TABLE "customers" DROP COLUMN "email";', severity: "warning" }],
      destructive: false,
      privilegeChanges: [],
    });
    const r = await plan([], clusterState({ current }));
    expect(r.stdout).toContain("Destructive:    false\n");
    expect(r.stderr).toBe(`Warning: the SQL of ${current.name} reads as destructive (read by this plugin), but the plan does not record it as destructive\n`);
    expect((await plan([], clusterState())).stderr).toBe("");
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
