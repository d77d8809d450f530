// What an export holds, read by `plan --verify -f FILE` (src/plan/export.ts): the objects, the
// schema it names, the plan, each chunk entry, the document bytes and the approvals — each refusal
// with its exact line and FAILED row through the real shell, on a copy changed and re-sealed as an
// export seals it, and what the report prints of a file it accepts. Exports of the other shapes a
// cluster serves: ConfigMap chunks, an applied record found by its fingerprint, approvals that could
// not be read.
import fs from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { exportDir, exportOf, expectRefused, rowsOf, stateWithApproval, UNDER_MUTATION, verifyBytes, verifyChanged, type Doc } from "./export-files.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, NS, publishApplied } from "./fixtures.ts";
import { appliedStatus } from "../support/publish-plan.ts";

const DIR = exportDir("export-contents");
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

let text = "";
let plan = "";
beforeAll(async () => {
  const state = stateWithApproval();
  plan = state.applied.name;
  text = await exportOf(DIR, state);
});

const F = "the export file";
const chunkEntry = "the export file holds a chunk entry that is not a chunk object";
const notReconstructed = "the export file holds document bytes that are not the ones its chunks reconstruct";
const chunkMissing = () => `read the stored plan ${plan}: plan chunk 0 is missing: ptahschemaplanchunk ${NS}/${plan}-000 is not in the export file`;

describe("plan --verify -f FILE: what the file holds, each refusal exactly", () => {
  it.each<[string, (doc: Doc) => void, string, () => string]>([
    ["objects null", (d) => (d.objects = null), "file", () => `${F} holds no objects`],
    ["objects a string", (d) => (d.objects = "objects"), "file", () => `${F} holds no objects`],
    ["objects a list", (d) => (d.objects = []), "file", () => `${F} holds no objects`],
    ["no schema", (d) => delete d.objects.schema, "file", () => `${F} holds no schema`],
    ["the schema a string", (d) => (d.objects.schema = "storefront"), "file", () => `${F} holds no schema`],
    ["another schema named", (d) => (d.schema = "other"), "file", () => `${F} names ${NS}/other but holds the schema ${NS}/storefront`],
    ["another namespace named", (d) => (d.namespace = "other"), "file", () => `${F} names other/storefront but holds the schema ${NS}/storefront`],
    ["a schema without a namespace", (d) => delete d.objects.schema.metadata.namespace, "file", () => `${F} names ${NS}/storefront but holds the schema /storefront`],
    ["no plan", (d) => delete d.objects.plan, "file", () => `${F} holds no plan`],
    ["the plan null", (d) => (d.objects.plan = null), "file", () => `${F} holds no plan`],
    ["the plan a list", (d) => (d.objects.plan = []), "file", () => `${F} holds no plan`],
    ["no chunks", (d) => delete d.objects.chunks, "chunk 0", chunkMissing],
    ["chunks a string", (d) => (d.objects.chunks = "chunks"), "chunk 0", chunkMissing],
    ["the chunk entered as a ConfigMap", (d) => (d.objects.chunks[0].kind = "ConfigMap"), "chunk 0", chunkMissing],
    ["a chunk entry a string", (d) => d.objects.chunks.push("chunk"), "file", () => chunkEntry],
    ["a chunk entry null", (d) => d.objects.chunks.push(null), "file", () => chunkEntry],
    ["a chunk entry of another kind", (d) => (d.objects.chunks[0].kind = "Secret"), "file", () => chunkEntry],
    ["a chunk entry without a kind", (d) => delete d.objects.chunks[0].kind, "file", () => chunkEntry],
    ["a chunk entry without its object", (d) => delete d.objects.chunks[0].object, "file", () => chunkEntry],
    ["a chunk entry whose object is a list", (d) => (d.objects.chunks[0].object = []), "file", () => chunkEntry],
    ["no document", (d) => delete d.document, "document bytes", () => notReconstructed],
    ["a document without bytes", (d) => delete d.document.base64, "document bytes", () => notReconstructed],
    ["document bytes that are a number", (d) => (d.document.base64 = 474), "document bytes", () => notReconstructed],
    [
      "the same bytes, base64 with a line break",
      (d) => (d.document.base64 = `${d.document.base64.slice(0, 8)}\n${d.document.base64.slice(8)}`),
      "document bytes",
      () => notReconstructed,
    ],
    ["the same bytes, base64 with padding after them", (d) => (d.document.base64 += "=="), "document bytes", () => notReconstructed],
    ["approvals that are a string", (d) => (d.objects.approvals = "storefront-v1"), "approvals", () => `${F} holds approvals that are not a list`],
    ["approvals that are an object", (d) => (d.objects.approvals = {}), "approvals", () => `${F} holds approvals that are not a list`],
    ["an approval that is a string", (d) => (d.objects.approvals = ["storefront-v1"]), "file", () => `${F} holds no approval`],
    [
      "an approval without a planRef",
      (d) => delete d.objects.approvals[0].spec.planRef,
      "approvals",
      () => `${F} holds the approval storefront-v1, which does not name this plan, its UID and fingerprint`,
    ],
  ])("%s", async (_name, change, check, message) => {
    expectRefused(await verifyChanged(DIR, text, change), check, message());
  });

  it("states a schema without a UID as UID none, then refuses the plan that names another", async () => {
    const r = await verifyChanged(DIR, text, (d) => delete d.objects.schema.metadata.uid);
    expect(r.status).toBe(1);
    expect(rowsOf(r.stdout)[1]).toEqual(["schema", "ok", `${NS}/storefront (UID none), as exported`]);
    expect(rowsOf(r.stdout).at(-1)?.slice(0, 2)).toEqual(["plan object", "FAILED"]);
  });
});

describe("plan --verify -f FILE: what it reads past, and what it prints", () => {
  const approvalsRow = (stdout: string) => rowsOf(stdout).find((row) => row[0] === "approvals");

  it.each<[string, (doc: Doc) => void]>([
    ["an entry of the chunk's kind with no metadata, before the chunk", (d) => d.objects.chunks.unshift({ kind: "PtahSchemaPlanChunk", object: {} })],
    [
      "the chunk's name in another namespace, with other bytes, before the chunk",
      (d) => {
        const copy = JSON.parse(JSON.stringify(d.objects.chunks[0])) as Doc;
        copy.object.metadata.namespace = "elsewhere";
        copy.object.spec.data = Buffer.from("other bytes").toString("base64");
        d.objects.chunks.unshift(copy);
      },
    ],
  ])("finds each object by kind, namespace and name: %s", async (_name, change) => {
    const r = await verifyChanged(DIR, text, change);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.each<[string, (doc: Doc) => void, string]>([
    ["as exported", () => {}, "storefront-v1 by alice@example.com at 2026-09-13T08:04:10Z"],
    ["without an approver", (d) => delete d.objects.approvals[0].spec.approver, "storefront-v1 by (no approver stamped) at 2026-09-13T08:04:10Z"],
    ["without a time", (d) => delete d.objects.approvals[0].spec.approvedAt, "storefront-v1 by alice@example.com at (no time stamped)"],
    ["with none", (d) => (d.objects.approvals = []), "none named this plan when it was exported"],
  ])("names the approvals %s", async (_name, change, detail) => {
    const r = await verifyChanged(DIR, text, change);
    expect(r.status, r.stderr).toBe(0);
    expect(approvalsRow(r.stdout)).toEqual(["approvals", "ok", detail]);
  });

  it("names two approvals of the plan, in the order exported", async () => {
    const base = clusterState();
    const extra = [
      approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE }),
      approvalOf(base.applied, { name: "storefront-v1b", created: "2026-09-13T08:05:00Z" }),
    ];
    const two = await exportOf(DIR, clusterState({ extra, current: base.current, applied: base.applied }));
    const r = await verifyBytes(DIR, two);
    expect(r.status, r.stderr).toBe(0);
    expect(approvalsRow(r.stdout)).toEqual([
      "approvals",
      "ok",
      "storefront-v1 by alice@example.com at 2026-09-13T08:04:10Z; storefront-v1b by alice@example.com at 2026-09-13T08:05:00Z",
    ]);
  });

  it("exports no approvals when they may not be listed, and says so when it verifies", async () => {
    const state = stateWithApproval();
    state.reader.faults.set("list PtahSchemaApproval", new ReadError(`ptahschemaapprovals.operator.ptah.run is forbidden: User "carol" cannot list resource`, 403));
    const none = await exportOf(DIR, state);
    expect((JSON.parse(none) as Doc).objects.approvals).toBeNull();
    const r = await verifyBytes(DIR, none);
    expect(r.status, r.stderr).toBe(0);
    expect(approvalsRow(r.stdout)).toEqual(["approvals", "ok", "not exported (they could not be read)"]);
  });

  it("exports a plan kept in immutable ConfigMaps (older installs) with its chunks, and verifies it", async () => {
    const applied = publishApplied({ storage: "configmaps" });
    const state = clusterState({ applied, current: clusterState().current });
    const cm = await exportOf(DIR, state);
    const doc = JSON.parse(cm) as Doc;
    expect(doc.objects.chunks.map((c: Doc) => [c.kind, c.object.metadata.name])).toEqual(applied.chunks.map((c) => ["ConfigMap", (c.metadata as Doc).name]));
    const r = await verifyBytes(DIR, cm);
    expect(r.status, r.stderr).toBe(0);
  });

  it("exports the applied plan an older record names by fingerprint alone (found by listing), and verifies it", async () => {
    const applied = publishApplied();
    const state = clusterState({ applied, appliedRecord: appliedStatus(applied, undefined, { planRef: false }) });
    const old = await exportOf(DIR, state, ["--applied"]);
    expect((JSON.parse(old) as Doc).plan).toBe(applied.name);
    const r = await verifyBytes(DIR, old);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe("plan --verify -f FILE: any value anywhere in a sealed export", () => {
  /** Every path to a value in the document, the root excluded. */
  const pathsOf = (v: unknown, at: (string | number)[] = []): (string | number)[][] =>
    v !== null && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => [[...at, Array.isArray(v) ? Number(k) : k], ...pathsOf(x, [...at, Array.isArray(v) ? Number(k) : k])])
      : [];

  it("is verified or refused in one line, never an internal error", async () => {
    const paths = pathsOf(JSON.parse(text)).filter((p) => p[0] !== "seal");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }), async (where, value) => {
        const r = await verifyChanged(DIR, text, (d) => {
          const parent = where.slice(0, -1).reduce<Doc>((o, k) => o[k], d);
          parent[where.at(-1)!] = value;
        });
        expect([0, 1, 3]).toContain(r.status);
        if (r.status !== 0) expect(r.stderr).toMatch(/^error: [^\n]+\n$/u);
        expect(r.stderr).not.toMatch(/internal|Cannot read|is not a function|undefined \(reading/u);
      }),
      { numRuns: UNDER_MUTATION ? 15 : 60 },
    );
  });
});
