// The stuck rules at their edges: exactly at a deadline, a retry time already past, a time that is
// not a time, the deadline from the spec, and inbox's footer words.
import { describe, expect, it } from "vitest";
import { parseObject } from "../../../src/model/parse.ts";
import type { PtahMigration, PtahSchema } from "../../../src/model/kinds.ts";
import { countStuck, migrationStuck, schemaStuck, stuckFooter } from "../../../src/commands/shared/stuck.ts";
import { aMigration, inSyncSchema } from "../../support/builders.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();

function schema(status: Record<string, unknown>, spec: Record<string, unknown> = {}): PtahSchema {
  const raw = inSyncSchema();
  return parseObject("PtahSchema", { ...raw, spec: { ...(raw.spec as object), ...spec }, status: { ...(raw.status as object), ...status } }).object;
}

function migration(status: Record<string, unknown>): PtahMigration {
  return parseObject("PtahMigration", aMigration({ phase: "Applying", conditions: [], status })).object;
}

describe("what is stuck", () => {
  it("is stalled only past the deadline, not at it", () => {
    expect(schemaStuck(schema({ activeOperation: { type: "Plan", startedAt: at(15) } }), NOW)).toEqual([]);
    expect(schemaStuck(schema({ activeOperation: { type: "Plan", startedAt: at(16) } }), NOW).map((f) => f.kind)).toEqual(["stalled"]);
    expect(schemaStuck(schema({ activeOperation: { type: "Plan", startedAt: at(16) } }, { execution: { activeDeadlineSeconds: 1800 } }), NOW)).toEqual([]);
  });

  it("is stalled again once the declared retry time has passed", () => {
    expect(migrationStuck(migration({ activeOperation: { type: "Apply", startedAt: at(60), retryNotBefore: at(1) } }), NOW).map((f) => f.kind)).toEqual(["stalled"]);
    expect(migrationStuck(migration({ activeOperation: { type: "Apply", startedAt: at(60), retryNotBefore: at(-1) } }), NOW)).toEqual([]);
  });

  it("treats a time that is not a time as absent, and a suspended phase as not scheduled", () => {
    expect(schemaStuck(schema({ nextReconciliationTime: "soon" }), NOW)).toEqual([]);
    expect(schemaStuck(schema({ phase: "Suspended", nextReconciliationTime: at(60) }), NOW)).toEqual([]);
    expect(schemaStuck(schema({ nextReconciliationTime: at(16) }), NOW).map((f) => f.why)).toEqual(["late 16m (nothing is working on it)"]);
  });

  it("reads an Apply whose outcome is unknown from the conditions too", () => {
    const s = schema({ conditions: [{ type: "Ready", status: "False", reason: "ApplyOutcomeUnknown" }] });
    expect(schemaStuck(s, NOW).map((f) => f.kind)).toEqual(["outcome-unknown"]);
    expect(countStuck([s, schema({})], [], NOW)).toBe(1);
  });

  it("words inbox's footer for one and for many, and says nothing for none", () => {
    expect(stuckFooter(0, " -A")).toBe("");
    expect(stuckFooter(1, " -n app")).toBe("1 object has stopped converging: kubectl ptah status -n app --stuck\n");
    expect(stuckFooter(3, " -A")).toBe("3 objects have stopped converging: kubectl ptah status -A --stuck\n");
  });
});
