// approve's comment header says what the approval lets the operator lock: one Lock impact line
// (the strongest lock, its hold, until when, what it blocks, lockTimeout) and the findings counted.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { FIXTURES_NOW, NS, SCHEMA } from "../../plan/fixtures.ts";
import { lockState } from "../../plan/lock-fixtures.ts";

describe("approve: lock impact", () => {
  it("prints the Lock impact line and the findings count above the manifest", async () => {
    const r = await runCliWith(["approve", SCHEMA, "-n", NS], lockState().reader, { now: FIXTURES_NOW });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("# Lock impact: ACCESS EXCLUSIVE on public.orders (rewrite) until commit; blocks reads and writes; lockTimeout 10s\n");
    expect(r.stdout).toContain(`# Lock findings: 8; each statement's locks: kubectl ptah plan ${SCHEMA} -n ${NS} --locks\n`);
  });

  it("says another dialect in one line", async () => {
    const r = await runCliWith(["approve", SCHEMA, "-n", NS], lockState(null, "mysql").reader, { now: FIXTURES_NOW });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("# Lock impact: not analysed (dialect mysql)\n");
  });
});
