// `inbox --locks`: a LOCKS column with each waiting schema plan's strongest lock and what it
// blocks, read and verified as `plan` reads it; without the flag, no plan is read.
import { describe, expect, it } from "vitest";
import { runCliWith } from "../../support/cli.ts";
import { clusterState, FIXTURES_NOW, NS, publishCurrent } from "../../plan/fixtures.ts";
import { LOCK_STATEMENTS, lockState } from "../../plan/lock-fixtures.ts";
import { flipByte } from "../../plan/tampering-cases.ts";
import { AWAITING_CONDITIONS } from "../../support/builders.ts";

const inbox = (args: readonly string[], state = lockState()) => runCliWith(["inbox", "-n", NS, ...args], state.reader, { now: FIXTURES_NOW });

describe("inbox --locks", () => {
  it("adds LOCKS after PRIVILEGES: the strongest mode and what it blocks", async () => {
    const r = await inbox(["--locks"]);
    expect(r.status, r.stderr).toBe(0);
    const [head, row] = r.stdout.split("\n");
    expect(head).toMatch(/PRIVILEGES\s+LOCKS\s+YOU CAN/u);
    expect(row).toContain("ACCESS EXCLUSIVE (blocks reads and writes)");
  });

  it("reads no plan without the flag, and no LOCKS column", async () => {
    const state = lockState();
    const r = await inbox([], state);
    expect(r.stdout).not.toContain("LOCKS");
    expect(state.reader.requests.filter((q) => q.startsWith("get "))).toEqual([]);
  });

  it("shows a plan that does not verify as <not verified>, with one warning line, and the rest", async () => {
    const current = publishCurrent({ statements: LOCK_STATEMENTS });
    flipByte(current, 0, 40);
    const state = clusterState({ current });
    state.reader.put("PtahSchema", { ...state.schema, status: { ...(state.schema.status as object), conditions: AWAITING_CONDITIONS } });
    const r = await inbox(["--locks"], state);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("<not verified>");
    expect(r.stderr).toMatch(/^Warning: ptahschema application\/storefront: lock impact not shown: /u);
  });

  it("carries the cell in -o json", async () => {
    const r = await inbox(["--locks", "-o", "json"]);
    const doc = JSON.parse(r.stdout) as { items: { locks?: string }[] };
    expect(doc.items[0]!.locks).toBe("ACCESS EXCLUSIVE (blocks reads and writes)");
  });
});
