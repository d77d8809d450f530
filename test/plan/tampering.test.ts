// The tampering table of issue 5: every case must refuse with its message, exit 1, and print
// nothing on stdout, whatever the output format.
import { afterAll, describe, expect, it } from "vitest";
import { planCommand } from "../../src/commands/plan.ts";
import { runCommand } from "../support/run-command.ts";
import { clusterState, NS, SCHEMA } from "./fixtures.ts";
import { CASES, flipByte, spec, stateOf, threeChunkPlan } from "./tampering-cases.ts";

let refusals = 0;
afterAll(() => {
  if (refusals > 0) console.log(`plan tampering: ${refusals / 4} tampered plans, each refused in all 4 output formats (${refusals} runs): exit 1, empty stdout, the failed check named`);
});

describe("plan refuses a tampered plan", () => {
  it.each(CASES)("$name", async (c) => {
    const state = stateOf(c);
    const target = c.applied ? state.applied : state.current;
    const message = typeof c.message === "function" ? c.message(target) : c.message;
    for (const output of ["text", "sql", "json", "yaml"]) {
      const flags = c.applied ? { applied: true } : {};
      const result = await runCommand(planCommand, { positionals: [SCHEMA], flags, global: { output } }, state.reader, { namespace: NS });
      expect(result.stdout).toBe("");
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr.startsWith("error: ")).toBe(true);
      refusals++;
    }
  });

  it("refuses before reading a single chunk when the plan spec does not recompute", async () => {
    const p = threeChunkPlan();
    spec(p).artifactDigest = `sha256:${"ab".repeat(32)}`;
    const { reader } = clusterState({ current: p });
    await runCommand(planCommand, { positionals: [SCHEMA] }, reader, { namespace: NS });
    expect(reader.requests).toEqual([`get PtahSchema ${NS}/${SCHEMA}`, `get PtahSchemaPlan ${NS}/${p.name}`]);
  });

  it("reports the checks up to the failed one on stderr under --verify, with an empty stdout", async () => {
    const p = threeChunkPlan();
    flipByte(p, 1, 7);
    const { reader } = clusterState({ current: p });
    const result = await runCommand(planCommand, { positionals: [SCHEMA], flags: { verify: true } }, reader, { namespace: NS });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/chunk 0\s+ok/);
    expect(result.stderr).toMatch(/chunk 1\s+FAILED\s+read the stored plan .*plan chunk 1 does not match the manifest/);
    expect(result.stderr).toContain("did not verify; nothing from it was printed");
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(`error: read the stored plan ${p.name}: plan chunk 1 does not match the manifest`);
  });
});
