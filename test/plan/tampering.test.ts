// The tampering table (tampering-cases.ts): every case must refuse with its message, exit 1, and print
// nothing on stdout, whatever the output format.
import { afterAll, describe, expect, it } from "vitest";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { clusterState, CURRENT_STATEMENTS, FIXTURES_NOW, NS, SCHEMA } from "./fixtures.ts";
import { CASES, flipByte, spec, stateOf, threeChunkPlan } from "./tampering-cases.ts";

/** `kubectl ptah plan <schema> ARGS…` through the real shell, in the fixtures' namespace. */
function runPlan(args: readonly string[], reader: ReturnType<typeof clusterState>["reader"]) {
  return runCliWith(["plan", SCHEMA, ...args], reader, { namespace: NS, now: FIXTURES_NOW });
}

let refusals = 0;
afterAll(() => {
  if (refusals > 0)
    console.log(`plan tampering: ${refusals / 4} tampered plans, each refused in all 4 output formats (${refusals} runs): exit 1, empty stdout, the failed check named`);
});

describe("plan refuses a tampered plan", () => {
  it.each(CASES)("$name", async (c) => {
    const state = stateOf(c);
    const target = c.applied ? state.applied : state.current;
    const message = typeof c.message === "function" ? c.message(target) : c.message;
    for (const output of ["text", "sql", "json", "yaml"]) {
      const result = await runPlan([...(c.applied ? ["--applied"] : []), "-o", output], state.reader);
      expect(result.stdout).toBe("");
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toMatch(/^error: [^\n]+\n$/u);
      refusals++;
    }
  });

  it("refuses before reading a single chunk when the plan spec does not recompute", async () => {
    const p = threeChunkPlan();
    spec(p).artifactDigest = `sha256:${"ab".repeat(32)}`;
    const { reader } = clusterState({ current: p });
    await runPlan([], reader);
    expect(reader.requests).toEqual([`get PtahSchema ${NS}/${SCHEMA}`, `get PtahSchemaPlan ${NS}/${p.name}`]);
  });

  it("prints the report under --verify, the failed check marked, then exits 1 with the one error line", async () => {
    const p = threeChunkPlan();
    flipByte(p, 1, 7);
    const { reader } = clusterState({ current: p });
    const result = await runPlan(["--verify"], reader);
    expect(result.status).toBe(1);
    // The report is on stdout, like the difference `kubectl diff` prints before exiting 1.
    expect(result.stdout).toMatch(/^CHECK\s+RESULT\s+DETAIL\n/u);
    expect(result.stdout).toMatch(/chunk 0\s+ok/);
    expect(result.stdout).toMatch(/chunk 1\s+FAILED\s+read the stored plan .*plan chunk 1 does not match the manifest/);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(`The current plan of ${NS}/${SCHEMA} did not verify; nothing from it was printed.`);
    expect(result.stdout).not.toMatch(/chunk 2\s/u); // nothing after the failed check
    // Check names and results only: no SQL, no document, no chunk bytes.
    for (const statement of CURRENT_STATEMENTS) expect(result.stdout).not.toContain(statement.sql.split("\n")[0]!);
    expect(result.stdout).not.toMatch(/\b(CREATE|ALTER|DROP|SELECT)\b|format_version/u);
    expect(result.stderr).toBe(`error: read the stored plan ${p.name}: plan chunk 1 does not match the manifest\n`);
    await expectGolden(result.stdout, "plan/verify-refused.txt");
  });

  it.each(CASES)("--verify reports $name on stdout and exits with the refusal's status", async (c) => {
    const state = stateOf(c);
    const target = c.applied ? state.applied : state.current;
    const message = typeof c.message === "function" ? c.message(target) : c.message;
    const result = await runPlan([...(c.applied ? ["--applied"] : []), "--verify"], state.reader);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/FAILED/u);
    expect(result.stdout).toMatch(/did not verify; nothing from it was printed\.\n$/u);
    expect(result.stdout).not.toMatch(/\b(CREATE|ALTER|DROP|SELECT)\b/u);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/u);
  });
});
