import { describe, expect, it } from "vitest";
import { NotFoundError, PtahError, ReadError } from "../../src/errors.ts";
import { loadVerifiedPlan } from "../../src/plan/load.ts";
import { CHUNK_SIZE, CheckLog } from "../../src/plan/verify.ts";
import { renderPlanSql } from "../../src/commands/shared/plan-view.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { appliedStatus, fakeObjectsOf, publishSchemaPlan, type StatementInput } from "../support/publish-plan.ts";
import { clusterState, NS, publishApplied, publishCurrent, SCHEMA, SCHEMA_REF } from "./fixtures.ts";

async function refusal(promise: Promise<unknown>): Promise<PtahError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PtahError) return err;
    throw err;
  }
  throw new Error("expected a refusal, and the plan loaded");
}

/**
 * Statements placed so that the 1st, 2nd and 3rd chunk boundaries fall inside a SQL string
 * literal, inside a JSON escape (`<` is stored as \u003c) and inside a 3-byte UTF-8 character.
 */
function chunkSpanningStatements(): { statements: StatementInput[]; targets: string[] } {
  const markers = ["'a string literal crossing a chunk'", "WHERE a <> b", "price in €uro"];
  // [marker, the byte sequence in the document, how many of its bytes precede the boundary]
  const targets: [string, number][] = [
    ["literal crossing", 3],
    ["\\u003c\\u003e", 4],
    ["€", 1],
  ];
  const fill = [0, 0, 0];
  const build = (): StatementInput[] => markers.map((m, i) => ({ sql: `-- ${"x".repeat(fill[i]!)}\nSELECT ${m};`, severity: "safe", reason: `boundary ${i + 1}` }));
  for (let k = 0; k < 3; k++) {
    const bytes = Buffer.from(publishSchemaPlan({ schema: SCHEMA_REF, statements: build() }).document, "utf8");
    const at = bytes.indexOf(Buffer.from(targets[k]![0], "utf8"));
    fill[k]! += (k + 1) * CHUNK_SIZE - (at + targets[k]![1]);
  }
  return { statements: build(), targets: targets.map((t) => t[0]) };
}

describe("loadVerifiedPlan", () => {
  it("reconstructs a plan whose chunk boundaries fall in a string, an escape and a multi-byte character", async () => {
    const { statements, targets } = chunkSpanningStatements();
    const current = publishCurrent({ statements, privilegeChanges: [] });
    expect(current.chunks).toHaveLength(4);
    const bytes = Buffer.from(current.documentBytes);
    // Each boundary really splits its target: chunk k ends in the middle of the sequence.
    expect(bytes.subarray(CHUNK_SIZE - 3, CHUNK_SIZE).toString()).toBe("lit");
    expect(bytes.subarray(CHUNK_SIZE, CHUNK_SIZE + 13).toString()).toBe(targets[0]!.slice(3));
    expect(bytes.subarray(2 * CHUNK_SIZE - 4, 2 * CHUNK_SIZE).toString()).toBe("\\u00");
    expect(bytes.subarray(2 * CHUNK_SIZE, 2 * CHUNK_SIZE + 2).toString()).toBe("3c");
    expect(bytes[3 * CHUNK_SIZE - 1]).toBe(0xe2); // the first byte of "€" ends chunk 2
    expect(bytes.subarray(3 * CHUNK_SIZE, 3 * CHUNK_SIZE + 2)).toEqual(Buffer.from([0x82, 0xac]));

    const { reader } = clusterState({ current });
    const verified = await loadVerifiedPlan(reader, NS, SCHEMA, "current");
    expect(Buffer.from(verified.documentBytes).equals(bytes)).toBe(true);
    const sql = renderPlanSql(verified.document);
    expect(sql).toContain("SELECT 'a string literal crossing a chunk';\n");
    expect(sql).toContain("SELECT WHERE a <> b;\n");
    expect(sql).toContain("SELECT price in €uro;\n");
    expect(verified.document.statements).toHaveLength(3);
  });

  it("reads only get PtahSchema, get PtahSchemaPlan and get of each chunk, in order", async () => {
    const { reader, current } = clusterState();
    await loadVerifiedPlan(reader, NS, SCHEMA, "current");
    expect(reader.requests).toEqual([
      `get PtahSchema ${NS}/${SCHEMA}`,
      `get PtahSchemaPlan ${NS}/${current.name}`,
      ...current.chunks.map((_, i) => `get PtahSchemaPlanChunk ${NS}/${current.name}-${String(i).padStart(3, "0")}`),
    ]);
  });

  it("keeps current and applied apart; only applied has a completion time", async () => {
    const { reader, current, applied } = clusterState();
    const c = await loadVerifiedPlan(reader, NS, SCHEMA, "current");
    const a = await loadVerifiedPlan(reader, NS, SCHEMA, "applied");
    expect(c.plan.object.metadata.name).toBe(current.name);
    expect(a.plan.object.metadata.name).toBe(applied.name);
    expect(c.record.completedAt).toBeUndefined();
    expect(a.record.completedAt).toBe("2026-09-13T08:04:24Z");
    expect(c.fingerprint).toBe(current.fingerprint);
    expect(a.fingerprint).toBe(applied.fingerprint);
  });

  it("records every check it made, in order", async () => {
    const { reader } = clusterState();
    const verified = await loadVerifiedPlan(reader, NS, SCHEMA, "current");
    expect(verified.checks.map((c) => c.check)).toEqual([
      "schema",
      "selection",
      "plan object",
      "contract",
      "fingerprint",
      "record bindings",
      "storage",
      "chunk manifest",
      "chunk 0",
      "content",
      "document",
      "cross-checks",
    ]);
    expect(verified.checks.every((c) => c.ok)).toBe(true);
  });

  it.each<{ name: string; state: () => FakeReader; selection: "current" | "applied"; status: number; message: string }>([
    { name: "no schema", state: () => new FakeReader([]), selection: "current", status: 3, message: `no such schema: ${NS}/${SCHEMA}` },
    {
      name: "nothing applied",
      state: () => clusterState({ applied: null }).reader,
      selection: "applied",
      status: 3,
      message: `no such plan: ${NS}/${SCHEMA} records no confirmed apply`,
    },
    { name: "no current plan", state: () => clusterState({ current: null }).reader, selection: "current", status: 3, message: `no such plan: ${NS}/${SCHEMA} has no current plan` },
    {
      name: "the applied plan deleted",
      state: () => {
        const s = clusterState();
        s.reader.remove("PtahSchemaPlan", NS, s.applied.name);
        return s.reader;
      },
      selection: "applied",
      status: 3,
      message: "no such plan: the stored plan ptah-plan-",
    },
    {
      name: "a record that names no plan",
      state: () => {
        const applied = publishApplied();
        return clusterState({ applied, appliedRecord: { ...appliedStatus(applied), planRef: { uid: "x" } } }).reader;
      },
      selection: "applied",
      status: 3,
      message: "no such plan: the record names no stored plan",
    },
    {
      name: "a record without a UID",
      state: () => {
        const applied = publishApplied();
        return clusterState({ applied, appliedRecord: { ...appliedStatus(applied), planRef: { name: applied.name } } }).reader;
      },
      selection: "applied",
      status: 1,
      message: "without a UID, so nothing says it is still the same object",
    },
  ])("refuses $name with status $status", async ({ state, selection, status, message }) => {
    const err = await refusal(loadVerifiedPlan(state(), NS, SCHEMA, selection));
    expect(err.exitStatus).toBe(status);
    expect(err.message).toContain(message);
  });

  it("keeps the reader's message for a failed schema read", async () => {
    const reader = clusterState().reader;
    reader.faults.set("get PtahSchema", new ReadError("the server is currently unable to handle the request", 503));
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current"));
    expect(err.exitStatus).toBe(1);
    expect(err.message).toBe(`read schema ${NS}/${SCHEMA}: the server is currently unable to handle the request`);
  });

  it("says which role rule is missing when chunks are forbidden", async () => {
    const { reader, current } = clusterState();
    const forbidden =
      `ptahschemaplanchunks.operator.ptah.run "${current.name}-000" is forbidden: User "reviewer" cannot get resource ` +
      `"ptahschemaplanchunks" in API group "operator.ptah.run" in the namespace "${NS}"`;
    reader.faults.set("get PtahSchemaPlanChunk", new ReadError(forbidden, 403));
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current"));
    expect(err).toBeInstanceOf(ReadError);
    expect(err.exitStatus).toBe(1);
    expect(err.message).toBe(
      `read the stored plan ${current.name}: plan chunk 0: ${forbidden}; reading a plan needs a role rule allowing get on ` +
        `ptahschemaplanchunks (apiGroup operator.ptah.run) in namespace ${NS}`,
    );
  });

  it("says which role rule is missing when plans are forbidden", async () => {
    const { reader } = clusterState();
    reader.faults.set("get PtahSchemaPlan", new ReadError("ptahschemaplans.operator.ptah.run is forbidden", 403));
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current"));
    expect(err.message).toContain("allowing get on ptahschemaplans (apiGroup operator.ptah.run)");
  });

  it("reports the failed check in the log it was given", async () => {
    const { reader, current } = clusterState();
    reader.remove("PtahSchemaPlanChunk", NS, `${current.name}-000`);
    const log = new CheckLog();
    await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current", { log }));
    const last = log.results[log.results.length - 1]!;
    expect(last).toMatchObject({ check: "chunk 0", ok: false });
    expect(last.detail).toContain("plan chunk 0 is missing");
    expect(log.results.slice(0, -1).every((r) => r.ok)).toBe(true);
  });

  it("refuses chunks that were replaced while the plan was being read", async () => {
    const { reader, current } = clusterState();
    const republished = publishCurrent({ uidSeed: "republished" });
    reader.onRequest = (request, r) => {
      if (request === `get PtahSchemaPlan ${NS}/${current.name}`) {
        for (const c of republished.chunks) r.put("PtahSchemaPlanChunk", c);
      }
    };
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current"));
    expect(err.exitStatus).toBe(1);
    expect(err.message).toBe(`read the stored plan ${current.name}: plan chunk 0 was replaced`);
  });

  it("says the plan is gone when it disappears between the schema read and the plan read", async () => {
    const { reader, current } = clusterState();
    reader.onRequest = (request, r) => {
      if (request.startsWith("get PtahSchemaPlan ")) r.remove("PtahSchemaPlan", NS, current.name);
    };
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "current"));
    expect(err.exitStatus).toBe(3);
    expect(err.message).toBe(`no such plan: the stored plan ${current.name} is gone`);
  });

  it("accepts contract version 3 plans of an earlier operator generation", async () => {
    const current = publishCurrent({ binding: { contractVersion: 3 } });
    const verified = await loadVerifiedPlan(clusterState({ current }).reader, NS, SCHEMA, "current");
    expect(verified.plan.object.spec.contractVersion).toBe(3);
  });
});

describe("loadVerifiedPlan on older installs", () => {
  it("reads chunks from immutable ConfigMaps with the same checks", async () => {
    const current = publishCurrent({ storage: "configmaps" });
    const { reader } = clusterState({ current });
    const verified = await loadVerifiedPlan(reader, NS, SCHEMA, "current");
    expect(Buffer.from(verified.documentBytes).equals(Buffer.from(current.documentBytes))).toBe(true);
    expect(reader.requests).toEqual([`get PtahSchema ${NS}/${SCHEMA}`, `get PtahSchemaPlan ${NS}/${current.name}`, `get ConfigMap ${NS}/${current.name}-000`]);
  });

  it("refuses a ConfigMap chunk that is not immutable", async () => {
    const current = publishCurrent({ storage: "configmaps" });
    (current.chunks[0] as { immutable?: boolean }).immutable = false;
    const err = await refusal(loadVerifiedPlan(clusterState({ current }).reader, NS, SCHEMA, "current"));
    expect(err.message).toBe(`read the stored plan ${current.name}: plan chunk 0 is not an immutable ConfigMap`);
  });

  it("refuses a ConfigMap chunk whose bytes were changed", async () => {
    const current = publishCurrent({ storage: "configmaps" });
    (current.chunks[0] as { binaryData: { chunk: string } }).binaryData.chunk = Buffer.from("{}\n").toString("base64");
    const err = await refusal(loadVerifiedPlan(clusterState({ current }).reader, NS, SCHEMA, "current"));
    expect(err.message).toBe(`read the stored plan ${current.name}: plan chunk 0 does not match the manifest`);
  });

  it("finds the plan of an applied record without planRef by listing plans and matching the fingerprint", async () => {
    const applied = publishApplied();
    const { reader } = clusterState({ applied, appliedRecord: appliedStatus(applied, undefined, { planRef: false }) });
    const verified = await loadVerifiedPlan(reader, NS, SCHEMA, "applied");
    expect(verified.plan.object.metadata.name).toBe(applied.name);
    expect(reader.requests.slice(0, 2)).toEqual([`get PtahSchema ${NS}/${SCHEMA}`, `list PtahSchemaPlan ${NS}`]);
    expect(reader.requests.some((r) => r.startsWith("get PtahSchemaPlan "))).toBe(false);
  });

  it("uses the list only for records without a reference", async () => {
    const { reader } = clusterState();
    await loadVerifiedPlan(reader, NS, SCHEMA, "applied");
    expect(reader.requests.some((r) => r.startsWith("list"))).toBe(false);
  });

  it("refuses two plans with one fingerprint, naming both", async () => {
    const applied = publishApplied();
    const twin = structuredClone(applied.plan) as { metadata: { name: string; uid: string } };
    twin.metadata.name = `${applied.name}-copy`;
    twin.metadata.uid = "twin-uid";
    const { reader } = clusterState({
      applied,
      appliedRecord: appliedStatus(applied, undefined, { planRef: false }),
      extra: [{ kind: "PtahSchemaPlan", raw: twin as unknown as Record<string, unknown> }],
    });
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "applied"));
    expect(err.exitStatus).toBe(1);
    expect(err.message).toContain(`${applied.name} and ${applied.name}-copy`);
  });

  it("says no such plan when no stored plan carries the applied fingerprint", async () => {
    const applied = publishApplied();
    const { reader } = clusterState({ applied, appliedRecord: appliedStatus(applied, undefined, { planRef: false }) });
    reader.remove("PtahSchemaPlan", NS, applied.name);
    const err = await refusal(loadVerifiedPlan(reader, NS, SCHEMA, "applied"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe(`no such plan: no stored plan carries the applied fingerprint ${applied.fingerprint}`);
  });

  it("still reads a plan published with chunk objects next to ConfigMap-era ones", async () => {
    const current = publishCurrent();
    const applied = publishApplied({ storage: "configmaps" });
    const state = clusterState({ current, applied });
    await expect(loadVerifiedPlan(state.reader, NS, SCHEMA, "applied")).resolves.toBeDefined();
    await expect(loadVerifiedPlan(state.reader, NS, SCHEMA, "current")).resolves.toBeDefined();
    expect(fakeObjectsOf(applied)[1]!.kind).toBe("ConfigMap");
  });
});
