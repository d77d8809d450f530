// The export's own checks (src/plan/export.ts checkExtras), each met by a file only it refuses:
// the file is changed and then re-sealed exactly as an export seals it (anyone can recompute the
// seal), so the seal holds, every check of `plan` holds (the objects are untouched), and the one
// check under test is the FAILED row of `plan --verify -f FILE`, through the real shell.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_DEPTH } from "../../src/model/depth.ts";
import { MAX_EXPORT_DEPTH } from "../../src/plan/export.ts";
import { runCliWith } from "../support/cli.ts";
import { approvalOf, clusterState, CONSUMED_THEN_STALE, FIXTURES_NOW, NS, SCHEMA } from "./fixtures.ts";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-export-checks-"));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

type Doc = Record<string, any>;

let exported: string | undefined;

/** One export of the applied plan with its approval, written once; each case changes a copy. */
async function exportedText(): Promise<string> {
  if (exported !== undefined) return exported;
  const base = clusterState();
  const state = clusterState({ extra: [approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE })], current: base.current, applied: base.applied });
  const file = path.join(DIR, "export.json");
  const r = await runCliWith(["plan", SCHEMA, "--plan", state.applied.name, "--export", file], state.reader, { namespace: NS, now: FIXTURES_NOW });
  expect(r.status, r.stderr).toBe(0);
  exported = fs.readFileSync(file, "utf8");
  return exported;
}

/** The seal as an export computes it: sha256 over the pretty JSON of everything but the seal. */
function reseal(doc: Doc): string {
  const { seal: _old, ...body } = doc;
  const seal = `sha256:${createHash("sha256")
    .update(JSON.stringify(body, null, 2))
    .digest("hex")}`;
  return JSON.stringify({ ...body, seal }, null, 2) + "\n";
}

const sha256 = (bytes: Buffer): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let n = 0;

/** Changes a copy of the export, re-seals it, and verifies it offline. */
async function verifyChanged(change: (doc: Doc) => void) {
  const doc = JSON.parse(await exportedText()) as Doc;
  change(doc);
  const file = path.join(DIR, `changed-${++n}.json`);
  fs.writeFileSync(file, reseal(doc));
  return runCliWith(["plan", "--verify", "-f", file], undefined);
}

/** Refused by `check` alone: exit 1, its one error line, its FAILED row last, every row before it ok. */
function expectRefusedBy(r: Awaited<ReturnType<typeof verifyChanged>>, check: string, message: string): void {
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toBe(`error: the export file ${message}\n`);
  const rows = r.stdout.split("\n").filter((l) => / (ok|FAILED) /u.test(l));
  expect(rows.at(-1)).toMatch(new RegExp(`^${check} +FAILED +the export file `, "u"));
  expect(rows.slice(0, -1).every((l) => / ok /u.test(l))).toBe(true);
  expect(rows.map((l) => l.split(/ {2,}/u)[0])).toContain("cross-checks");
  expect(r.stdout).toContain("did not verify; nothing from it was printed.");
  expect(r.connects).toBe(0);
}

describe("plan --export FILE: the approvals it holds", () => {
  it("holds only the approvals naming this plan by name and UID, and so verifies", async () => {
    const base = clusterState();
    const plan = base.applied.plan.metadata as { uid: string };
    const other = { name: base.applied.name, uid: "another-plan-uid", fingerprint: base.applied.fingerprint };
    const extra = [
      approvalOf(base.applied, { name: "storefront-v1", conditions: CONSUMED_THEN_STALE }),
      approvalOf(base.current, { name: "storefront-v2" }),
      approvalOf(undefined, { name: "same-name-other-uid", record: other }),
    ];
    const state = clusterState({ extra, current: base.current, applied: base.applied });
    const file = path.join(DIR, "approvals.json");
    const r = await runCliWith(["plan", SCHEMA, "--plan", state.applied.name, "--export", file], state.reader, { namespace: NS, now: FIXTURES_NOW });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(", 1 approval)");
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as Doc;
    expect(doc.objects.approvals.map((a: Doc) => [a.metadata.name, a.spec.planRef.uid])).toEqual([["storefront-v1", plan.uid]]);
    const v = await runCliWith(["plan", "--verify", "-f", file], undefined);
    expect(v.status, v.stderr).toBe(0);
  });
});

describe("plan --verify -f FILE: the export's own checks, each alone", () => {
  it("the unchanged export, re-sealed, verifies (the re-seal is the export's own)", async () => {
    const text = await exportedText();
    expect(reseal(JSON.parse(text) as Doc)).toBe(text);
    const r = await verifyChanged(() => {});
    expect(r.status, r.stderr).toBe(0);
  });

  it("document bytes: other bytes than the chunks reconstruct, with a size and digest that fit them", async () => {
    const r = await verifyChanged((doc) => {
      const bytes = Buffer.from(doc.document.base64, "base64");
      bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0x01;
      doc.document = { size: bytes.length, digest: sha256(bytes), base64: bytes.toString("base64") };
    });
    expectRefusedBy(r, "document bytes", "holds document bytes that are not the ones its chunks reconstruct");
  });

  it.each<[string, (doc: Doc) => void]>([
    ["a size one byte longer", (doc) => (doc.document.size += 1)],
    ["another digest", (doc) => (doc.document.digest = sha256(Buffer.from("another document")))],
  ])("document bytes: the chunks' own bytes, stated with %s", async (_name, change) => {
    const r = await verifyChanged(change);
    expectRefusedBy(r, "document bytes", "states a size or digest its document bytes do not have");
  });

  it.each<[string, (doc: Doc) => void]>([
    ["an input the plan does not have", (doc) => (doc.fingerprintInputs.schemaUID = "another-schema-uid")],
    ["an input more", (doc) => (doc.fingerprintInputs.extra = "x")],
    ["another stated fingerprint", (doc) => (doc.fingerprint = `sha256:${"0".repeat(64)}`)],
  ])("fingerprint inputs: %s", async (_name, change) => {
    const r = await verifyChanged(change);
    expectRefusedBy(r, "fingerprint inputs", "states fingerprint inputs or a fingerprint its plan does not have");
  });

  it.each<[string, (spec: Doc) => void]>([
    ["another plan's name", (spec) => (spec.planRef.name = "ptah-plan-000000000000000000000000")],
    ["another UID", (spec) => (spec.planRef.uid = "another-plan-uid")],
    ["another fingerprint", (spec) => (spec.planFingerprint = `sha256:${"0".repeat(64)}`)],
  ])("approvals: an approval naming %s", async (_name, change) => {
    const r = await verifyChanged((doc) => change(doc.objects.approvals[0].spec));
    expectRefusedBy(r, "approvals", "holds the approval storefront-v1, which does not name this plan, its UID and fingerprint");
  });
});

describe("plan --verify -f FILE: how deep the file nests", () => {
  /** `levels` objects, each the only value of the one before. */
  const deep = (levels: number): Doc => {
    let v: Doc = {};
    for (let i = 1; i < levels; i++) v = { a: v };
    return v;
  };
  const fileRow = (stdout: string): string => stdout.split("\n").find((l) => l.startsWith("file "))!;

  it(`reads a file ${MAX_EXPORT_DEPTH} levels deep (a chunk object at the bound), refuses one level more in one line`, async () => {
    // The file, objects, chunks, the chunk's entry, the chunk: five levels above the chunk's own fields.
    const atBound = await verifyChanged((doc) => (doc.objects.chunks[0].object.extra = deep(MAX_DEPTH - 1)));
    expect(fileRow(atBound.stdout)).toMatch(/^file +ok /u);
    const past = await verifyChanged((doc) => (doc.objects.chunks[0].object.extra = deep(MAX_DEPTH)));
    expect(past.status).toBe(1);
    expect(past.stderr).toBe(`error: the export file nests deeper than ${MAX_EXPORT_DEPTH} levels, which no export does (each object in it at most ${MAX_DEPTH})\n`);
    expect(fileRow(past.stdout)).toMatch(/^file +FAILED /u);
  });

  it("refuses an export-shaped file nested 5,000 deep in one line (it ended in Maximum call stack size exceeded)", async () => {
    const file = path.join(DIR, "deep.json");
    const doc = JSON.parse(await exportedText()) as Doc;
    const head = JSON.stringify(doc, null, 2).replace(/\n\}\n?$/u, ',\n  "extra": ');
    fs.writeFileSync(file, `${head}${"[".repeat(5000)}${"]".repeat(5000)}\n}\n`);
    const r = await runCliWith(["plan", "--verify", "-f", file], undefined);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`error: the export file nests deeper than ${MAX_EXPORT_DEPTH} levels, which no export does (each object in it at most ${MAX_DEPTH})\n`);
    expect(r.stdout).toContain("did not verify; nothing from it was printed.");
  });
});
