// Lock impact on the real lab through the real kubectl: test/scenarios/lock-impact.yaml, recorded as
// the demo records it. A re-plan of storefront builds an index without CONCURRENTLY, rewrites
// orders for a type change and adds a foreign key without NOT VALID; `plan --locks` prints the
// table and the transaction's summary for the verified plan, `inbox --locks` a LOCKS column,
// approve's header its Lock impact line; the plan is applied and PostgreSQL has what it said.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatChecks, formatFailures } from "../scenarios/runner.ts";
import { recordScenario, writePages } from "../scenarios/page/recorder.ts";

const skip = process.env.PTAH_E2E_SKIP;
const FILE = path.join(import.meta.dirname, "..", "scenarios", "lock-impact.yaml");
const PAGES = path.join(import.meta.dirname, "..", "..", ".cache", "e2e-pages-lock-impact");

describe.skipIf(Boolean(skip))("lock impact on the lab", () => {
  it("prints the lock table and summary of a verified plan, inbox's LOCKS and approve's Lock impact line", async () => {
    const { result, record } = await recordScenario(FILE, { binDir: process.env.PTAH_BIN_DIR! });
    expect(
      result.checks.filter((c) => !c.held),
      `namespace ${result.namespace}:\n${formatFailures(result.checks)}\n\n${formatChecks(result.checks)}`,
    ).toEqual([]);
    expect(result.steps.filter((s) => s.viewer && !s.viewer.held).map((s) => `step ${s.index}: ${s.viewer!.detail}`)).toEqual([]);
    const byNote = (text: string) => result.steps.find((s) => s.step.note.includes(text))!;
    const plan = byNote("Read what each statement locks").stdout;
    // The table: one row per statement, in the plan's order, each with its finding.
    expect(plan).toMatch(/^#\s+LOCKS\s+BLOCKS\s+HOLDS\s+FINDING$/mu);
    expect(plan).toMatch(/^1\s+ACCESS EXCLUSIVE on public\.orders\s+reads and writes\s+rewrite\s+type-change-rewrite: /mu);
    expect(plan).toMatch(/^2\s+SHARE on public\.orders\s+writes\s+build\s+index-not-concurrent: /mu);
    expect(plan).toMatch(/^3\s+SHARE ROW EXCLUSIVE on public\.customers, SHARE ROW EXCLUSIVE on public\.orders\s+writes\s+scan\s+foreign-key-validates: /mu);
    expect(plan).toContain("\nTransaction: transactionMode all: one transaction for statements 1-3;");
    expect(plan).toContain("\nLock modes as PostgreSQL 15 takes them; the plugin never connects to a database and knows nothing of table size or load.\n");
    // The header above it is the verified plan's: the same fingerprint the approval binds.
    const fingerprint = /^Fingerprint:\s+(sha256:[0-9a-f]{64})$/mu.exec(plan)?.[1];
    const header = byNote("header says it in one line").stdout;
    expect(header).toContain(`fingerprint:       ${fingerprint}`);
    expect(header).toMatch(/^# Lock findings: 5; /mu);
    expect(byNote("which waiting plan is dangerous").stdout).toMatch(/\s+LOCKS\s+YOU CAN\s+NEXT\n.*ACCESS EXCLUSIVE \(blocks reads and writes\)/u);
    const [page] = writePages(PAGES, [record]);
    expect(fs.readFileSync(page!, "utf8")).toContain("index-not-concurrent");
  }, 240_000);
});
