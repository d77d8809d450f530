// `plan --locks`: the lock table, the transaction's summary and the limit, for a verified plan
// under its schema's policy; -o json|yaml with the same fields; another dialect in one line.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { clusterState, FIXTURES_NOW, NS, publishCurrent, SCHEMA } from "../../plan/fixtures.ts";
import { LOCK_STATEMENTS, lockState } from "../../plan/lock-fixtures.ts";
import { expectGolden } from "../../support/golden.ts";
import { flipByte } from "../../plan/tampering-cases.ts";

async function plan(args: readonly string[], state = lockState()) {
  return runCliWith(["plan", SCHEMA, ...args], state.reader, { namespace: NS, now: FIXTURES_NOW });
}

describe("plan --locks", () => {
  it("prints the header, the lock table, the transaction's summary and the limit, then the SQL", async () => {
    const r = await plan(["--locks"]);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "plan/current-locks.txt");
    expect(r.stdout).toMatch(/^#\s+LOCKS\s+BLOCKS\s+HOLDS\s+FINDING$/mu);
    expect(r.stdout).toContain("Transaction: transactionMode all: one transaction");
    expect(r.stdout).toContain("lockTimeout 10s");
    expect(r.stdout).toContain("never connects to a database and knows nothing of table size or load");
  });

  it("names each finding on its statement's row", async () => {
    const r = await plan(["--locks"]);
    const row = (n: number) => r.stdout.split("\n").find((l) => l.startsWith(`${n} `)) ?? "";
    expect(row(1)).toMatch(/SHARE on public\.orders\s+writes\s+build\s+index-not-concurrent/u);
    expect(row(2)).toMatch(/ACCESS EXCLUSIVE on public\.orders\s+reads and writes\s+rewrite\s+type-change-rewrite/u);
    expect(row(3)).toMatch(/SHARE ROW EXCLUSIVE on public\.order_items, SHARE ROW EXCLUSIVE on public\.orders\s+writes\s+scan\s+foreign-key-validates/u);
  });

  it("prints the same fields as JSON and YAML, and verifies the plan first", async () => {
    const state = lockState();
    const r = await plan(["--locks", "-o", "json"], state);
    expect(r.status).toBe(0);
    await expectGolden(r.stdout, "plan/current-locks.json");
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["schema", "plan", "fingerprint", "dialect", "analysed", "statements", "transaction", "findings", "notAnalysed", "limit"]);
    expect(state.reader.requests.some((q) => q.startsWith("get PtahSchemaPlanChunk"))).toBe(true);
    const yaml = await plan(["--locks", "-o", "yaml"]);
    expect(yaml.stdout).toContain("holds: rewrite");
    expect(yaml.stdout).toContain("code: type-change-rewrite");
  });

  it("refuses to print a plan that does not verify, with --locks as without", async () => {
    const current = publishCurrent({ statements: LOCK_STATEMENTS });
    flipByte(current, 0, 40);
    const r = await plan(["--locks"], clusterState({ current }));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
  });

  it("tolerates a schema with no policy: the operator's defaults (file, 30s)", async () => {
    const r = await plan(["--locks"], lockState(null));
    expect(r.stdout).toContain("transactionMode file (a schema plan is one file)");
    expect(r.stdout).toContain("lockTimeout 30s");
    expect(r.stdout).not.toContain("protected-table");
  });

  it("says another dialect in one line, exit status unchanged", async () => {
    const r = await plan(["--locks"], lockState(null, "mysql"));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("\nnot analysed (dialect mysql)\n\n");
    expect(r.stdout).not.toContain("LOCKS");
  });

  it.each([
    [["--locks", "-o", "sql"], "--locks belongs to the text, json and yaml views"],
    [["--locks", "-o", "markdown"], "--locks belongs to the text, json and yaml views"],
    [["--locks", "--verify"], "--verify prints a report, not the plan"],
    [["--locks", "--export", "x.json"], "--export writes a file"],
  ])("refuses %j as a usage error", async (argv, message) => {
    const r = await runCliWith(["plan", "a", ...argv], clusterState().reader);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.connects).toBe(0);
  });
});
