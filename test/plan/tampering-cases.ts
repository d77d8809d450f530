// The tampering cases, shared by `plan` and `diff`: each one tampers with a published
// plan (or builds a whole state) and names the message the refusal must carry.
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { CHUNK_SIZE, MAX_PLAN_BYTES } from "../../src/plan/verify.ts";
import { appliedStatus, currentPlanStatus, fakeObjectsOf, publishSchemaPlan, type PublishedPlan } from "../support/publish-plan.ts";
import { clusterState, CURRENT_STATEMENTS, NS, publishCurrent } from "./fixtures.ts";

export type Raw = Record<string, any>;

/** A current plan of three chunks (the last one short). */
export function threeChunkPlan(extra: Parameters<typeof publishCurrent>[0] = {}): PublishedPlan {
  const big = { sql: `-- ${"x".repeat(2 * CHUNK_SIZE + CHUNK_SIZE / 2)}\nSELECT 1;`, severity: "safe", reason: "padding" };
  return publishCurrent({ statements: [...CURRENT_STATEMENTS, big], ...extra });
}

export const spec = (p: PublishedPlan): Raw => p.plan.spec as Raw;
const status = (p: PublishedPlan): Raw => p.plan.status as Raw;
const chunk = (p: PublishedPlan, i: number): Raw => p.chunks[i] as Raw;

export function flipByte(p: PublishedPlan, i: number, position: number): void {
  const bytes = Buffer.from(chunk(p, i).spec.data, "base64");
  bytes[position] = bytes[position]! ^ 0x01;
  chunk(p, i).spec.data = bytes.toString("base64");
}

export interface Case {
  readonly name: string;
  /** Changes the published current plan (before the cluster state is built). */
  readonly tamper?: (p: PublishedPlan) => void;
  /** Builds the whole state when a case needs more than a changed plan. */
  readonly state?: () => ReturnType<typeof clusterState>;
  readonly applied?: boolean;
  /**
   * The tampering is in a binding copy of the schema's own record (status.plan, or status.applied
   * with `applied`), so only a command that reads that record meets it: diff's side that does.
   */
  readonly recordCopy?: boolean;
  readonly message: string | ((p: PublishedPlan) => string);
}

const plan = threeChunkPlan();
const sizes = [CHUNK_SIZE, CHUNK_SIZE, plan.documentBytes.length - 2 * CHUNK_SIZE];

const flipped: Case[] = [0, 1, 2].flatMap((i) =>
  [0, 1, Math.floor(sizes[i]! / 2), sizes[i]! - 1].map((position) => ({
    name: `one flipped byte at ${position} of chunk ${i}`,
    tamper: (p: PublishedPlan) => flipByte(p, i, position),
    message: (p: PublishedPlan) => `read the stored plan ${p.name}: plan chunk ${i} does not match the manifest`,
  })),
);

export const CASES: Case[] = [
  ...flipped,
  {
    name: "a chunk replaced by an object with a new UID",
    tamper: (p) => (chunk(p, 1).metadata.uid = "0b7e1d2c-0000-4000-8000-000000000001"),
    message: (p) => `read the stored plan ${p.name}: plan chunk 1 was replaced`,
  },
  {
    name: "the bytes of two chunks swapped",
    tamper: (p) => ([chunk(p, 0).spec.data, chunk(p, 1).spec.data] = [chunk(p, 1).spec.data, chunk(p, 0).spec.data]),
    message: (p) => `read the stored plan ${p.name}: plan chunk 0 does not match the manifest`,
  },
  {
    name: "two chunk objects swapped under each other's names",
    tamper: (p) => {
      const [a, b] = [chunk(p, 0), chunk(p, 1)];
      [a.spec, b.spec, a.metadata.uid, b.metadata.uid] = [b.spec, a.spec, b.metadata.uid, a.metadata.uid];
    },
    message: (p) => `read the stored plan ${p.name}: plan chunk 0 was replaced`,
  },
  {
    name: "two manifest entries swapped",
    tamper: (p) => {
      const c = spec(p).chunks;
      [c[0], c[1]] = [c[1], c[0]];
    },
    message: (p) => `read the stored plan ${p.name}: plan chunk 0 has an invalid ordering or commit binding`,
  },
  {
    name: "a committed entry naming another chunk",
    tamper: (p) => (status(p).publishedChunks[2].name = `${p.name}-001`),
    message: (p) => `read the stored plan ${p.name}: plan chunk 2 has an invalid ordering or commit binding`,
  },
  {
    name: "a committed entry without a UID",
    tamper: (p) => delete status(p).publishedChunks[1].uid,
    message: (p) => `read the stored plan ${p.name}: plan chunk 1 has an invalid ordering or commit binding`,
  },
  {
    name: "an owner reference naming another plan",
    tamper: (p) => (chunk(p, 2).metadata.ownerReferences[0].name = "ptah-plan-000000000000000000000000"),
    message: (p) => `read the stored plan ${p.name}: plan chunk 2 does not belong to this plan: its owner reference names PtahSchemaPlan ptah-plan-000000000000000000000000`,
  },
  {
    name: "an owner reference with another plan's UID",
    tamper: (p) => (chunk(p, 0).metadata.ownerReferences[0].uid = "someone-else"),
    message: "plan chunk 0 does not belong to this plan: its owner reference names PtahSchemaPlan",
  },
  {
    name: "an owner reference that is not the controller",
    tamper: (p) => (chunk(p, 0).metadata.ownerReferences[0].controller = false),
    message: "plan chunk 0 does not belong to this plan",
  },
  {
    name: "a second owner reference",
    tamper: (p) => chunk(p, 0).metadata.ownerReferences.push({ ...chunk(p, 0).metadata.ownerReferences[0], name: "x" }),
    message: "plan chunk 0 does not belong to this plan: it has 2 owner references, not exactly one",
  },
  {
    name: "a plan label naming another plan",
    tamper: (p) => (chunk(p, 1).metadata.labels["operator.ptah.run/plan"] = "ptah-plan-000000000000000000000000"),
    message: (p) => `read the stored plan ${p.name}: plan chunk 1 does not belong to this plan: label operator.ptah.run/plan is "ptah-plan-000000000000000000000000"`,
  },
  {
    name: "a schema label naming another schema",
    tamper: (p) => (chunk(p, 1).metadata.labels["operator.ptah.run/schema"] = "inventory"),
    message: 'plan chunk 1 does not belong to this plan: label operator.ptah.run/schema is "inventory"',
  },
  {
    name: "a chunk size one byte too large",
    tamper: (p) => (spec(p).chunks[2].size += 1),
    message: (p) => `read the stored plan ${p.name}: plan chunk 2 does not match the manifest`,
  },
  {
    name: "a chunk size one byte too small",
    tamper: (p) => (spec(p).chunks[2].size -= 1),
    message: (p) => `read the stored plan ${p.name}: plan chunk 2 does not match the manifest`,
  },
  {
    name: "a chunk with one byte cut off (and its manifest entry adjusted)",
    tamper: (p) => {
      const bytes = Buffer.from(chunk(p, 2).spec.data, "base64").subarray(0, -1);
      chunk(p, 2).spec.data = bytes.toString("base64");
      spec(p).chunks[2].size -= 1;
    },
    message: (p) => `read the stored plan ${p.name}: plan chunk 2 does not match the manifest`,
  },
  {
    name: "a plan size off by one",
    tamper: (p) => (spec(p).size += 1),
    message: (p) => `read the stored plan ${p.name}: reconstructed plan does not match its content binding`,
  },
  {
    // Each chunk still matches its manifest entry (the manifest is not fingerprinted): only the
    // whole document's digest, which the fingerprint binds, tells the bytes apart.
    name: "a chunk rewritten together with its manifest digest",
    tamper: (p) => {
      flipByte(p, 1, 7);
      spec(p).chunks[1].digest = `sha256:${createHash("sha256")
        .update(Buffer.from(chunk(p, 1).spec.data, "base64"))
        .digest("hex")}`;
    },
    message: (p) => `read the stored plan ${p.name}: reconstructed plan does not match its content binding`,
  },
  {
    name: "chunk data that is not base64",
    tamper: (p) => (chunk(p, 0).spec.data = "not base64!"),
    message: "plan chunk 0 does not match the manifest",
  },
  {
    name: "a missing chunk",
    state: () => {
      const p = threeChunkPlan();
      const s = clusterState({ current: p });
      s.reader.remove("PtahSchemaPlanChunk", NS, `${p.name}-001`);
      return s;
    },
    message: (p) => `read the stored plan ${p.name}: plan chunk 1 is missing`,
  },
  {
    name: "a manifest shorter than the committed status",
    tamper: (p) => spec(p).chunks.pop(),
    message: (p) => `read the stored plan ${p.name}: plan chunk manifest and committed status do not match`,
  },
  {
    name: "an empty manifest",
    tamper: (p) => (spec(p).chunks = []),
    message: "plan chunk manifest and committed status do not match",
  },
  {
    name: "the plan recreated under the same name",
    state: () => {
      const original = threeChunkPlan();
      const recreated = threeChunkPlan({ uidSeed: "second publication" });
      expect(recreated.name).toBe(original.name);
      return clusterState({ current: recreated, currentRecord: currentPlanStatus(original) });
    },
    message: (p) => `the stored plan ${p.name} has UID`,
  },
  {
    name: "a record whose fingerprint is not the plan's",
    state: () => {
      const p = threeChunkPlan();
      return clusterState({ current: p, currentRecord: { ...currentPlanStatus(p), fingerprint: `sha256:${"9".repeat(64)}` } });
    },
    message: (p) => `the stored plan ${p.name} carries the fingerprint ${p.fingerprint} and the record names sha256:${"9".repeat(64)}`,
  },
  {
    name: "a record whose binding copy is not the plan's (status.plan.artifactDigest)",
    recordCopy: true,
    state: () => {
      const p = threeChunkPlan();
      return clusterState({ current: p, currentRecord: { ...currentPlanStatus(p), artifactDigest: `sha256:${"ab".repeat(32)}` } });
    },
    message: (p) => `the stored plan ${p.name} carries artifactDigest "${spec(p).artifactDigest}" and the record names "sha256:${"ab".repeat(32)}" in status.plan.artifactDigest`,
  },
  {
    name: "an applied record whose binding copy is not the plan's (status.applied.executionBindingID)",
    applied: true,
    recordCopy: true,
    state: () => {
      const p = threeChunkPlan();
      return clusterState({ applied: p, appliedRecord: { ...appliedStatus(p), executionBindingID: `v1-${"0".repeat(32)}` } });
    },
    message: (p) =>
      `the stored plan ${p.name} carries executionBindingID "${spec(p).executionBindingID}" and the record names "v1-${"0".repeat(32)}" in status.applied.executionBindingID`,
  },
  {
    name: "a binding field changed after fingerprinting (artifact digest)",
    tamper: (p) => (spec(p).artifactDigest = `sha256:${"ab".repeat(32)}`),
    message: (p) => `the stored plan ${p.name} carries the fingerprint ${p.fingerprint}, but its spec recomputes to sha256:`,
  },
  {
    name: "a destructive flag cleared after fingerprinting",
    state: () => {
      const p = threeChunkPlan({ statements: [{ sql: 'DROP TABLE "old";', severity: "destructive" }] });
      spec(p).destructive = false;
      return clusterState({ current: p });
    },
    message: "but its spec recomputes to",
  },
  {
    name: "privilege kinds removed after fingerprinting",
    tamper: (p) => delete spec(p).privilegeChanges,
    message: "but its spec recomputes to",
  },
  {
    name: "a fingerprint rewritten in the plan and the record alike",
    state: () => {
      const p = threeChunkPlan();
      spec(p).fingerprint = `sha256:${"1".repeat(64)}`;
      return clusterState({ current: p, currentRecord: { ...currentPlanStatus(p), fingerprint: `sha256:${"1".repeat(64)}` } });
    },
    message: "but its spec recomputes to",
  },
  {
    name: "a record naming another schema's plan by exact name and UID",
    state: () => {
      const other = publishSchemaPlan({
        schema: { name: "inventory", namespace: NS, uid: "inventory-uid" },
        statements: [{ sql: "CREATE TABLE items (id bigint);" }],
      });
      return clusterState({ currentRecord: currentPlanStatus(other), extra: fakeObjectsOf(other) });
    },
    message: `belongs to ${NS}/inventory, not to this schema`,
  },
  {
    name: "an applied record naming another schema's plan",
    applied: true,
    state: () => {
      const other = publishSchemaPlan({
        schema: { name: "inventory", namespace: NS, uid: "inventory-uid" },
        statements: [{ sql: "CREATE TABLE items (id bigint);" }],
      });
      return clusterState({ appliedRecord: appliedStatus(other), extra: fakeObjectsOf(other) });
    },
    message: `belongs to ${NS}/inventory, not to this schema`,
  },
  {
    name: "storage whose Ready condition was removed",
    tamper: (p) => (status(p).conditions = []),
    message: (p) => `read the stored plan ${p.name}: plan storage is not committed`,
  },
  {
    name: "storage whose Ready condition is False",
    tamper: (p) => (status(p).conditions[0].status = "False"),
    message: "plan storage is not committed",
  },
  {
    name: "storage observed at an older generation",
    tamper: (p) => ((p.plan.metadata as Raw).generation = 2),
    message: "plan storage is not committed",
  },
  {
    name: "storage ready for another number of chunks",
    tamper: (p) => (status(p).conditions[0].message = "Verified 2 immutable plan chunks"),
    message: "plan storage is not committed",
  },
  {
    name: "a future format_version",
    state: () => clusterState({ current: threeChunkPlan({ transformDocument: (d) => d.replace('{"format_version":1,', '{"format_version":2,') }) }),
    message: (p) => `unsupported plan format: ${p.name}: format_version 2 is not supported`,
  },
  {
    name: "an unknown document field",
    state: () => clusterState({ current: publishCurrent({ transformDocument: (d) => d.replace('"destructive":', '"run_as":"root","destructive":') }) }),
    message: 'unknown field "run_as"',
  },
  {
    name: "a duplicated statements key",
    state: () =>
      clusterState({
        current: publishCurrent({ transformDocument: (d) => d.replace('"statements":', '"statements":[{"sql":"SELECT 1","severity":"safe","reason":""}],"statements":') }),
      }),
    message: 'duplicate key "statements"',
  },
  {
    name: "a statement carrying a password",
    state: () => clusterState({ current: publishCurrent({ statements: [{ sql: "CREATE ROLE app LOGIN PASSWORD 'hunter2';" }] }) }),
    message: "statement 1: carries credentials",
  },
  {
    name: "a statement with an unknown severity",
    state: () => clusterState({ current: publishCurrent({ statements: [{ sql: "SELECT 1;", severity: "harmless" }] }) }),
    message: 'statement 1: unknown severity "harmless"',
  },
  {
    name: "a document for another dialect",
    state: () => clusterState({ current: publishCurrent({ transformDocument: (d) => d.replace('"dialect":"postgres"', '"dialect":"mysql"') }) }),
    message: 'the document\'s dialect "mysql" is not the plan\'s "postgres"',
  },
  {
    name: "a document planned from another state",
    state: () => clusterState({ current: publishCurrent({ transformDocument: (d) => d.replace(/"from_fingerprint":"[^"]+"/, `"from_fingerprint":"sha256:${"c".repeat(64)}"`) }) }),
    message: "the plan document does not match the stored plan",
  },
  {
    name: "a plan contract version from the future",
    tamper: (p) => (spec(p).contractVersion = 9),
    message: "plan contract version 9 is not supported",
  },
  {
    name: "a controller image that is not pinned by digest",
    tamper: (p) => (spec(p).controllerImage = "ghcr.io/stokaro/ptah-operator:latest"),
    message: "is not pinned by a sha256 digest",
  },
  {
    name: "an oversized plan",
    state: () => {
      const filler = "y".repeat(Math.floor(MAX_PLAN_BYTES / 5));
      const statements = [1, 2, 3, 4, 5].map((i) => ({ sql: `-- ${filler}\nSELECT ${i};` }));
      const p = publishCurrent({ statements, privilegeChanges: [] });
      expect(p.chunks.length).toBe(17);
      return clusterState({ current: p });
    },
    message: (p) => `read the stored plan ${p.name}: reconstructed plan exceeds 8388608 bytes`,
  },
];

export function stateOf(c: Case): ReturnType<typeof clusterState> {
  if (c.state) return c.state();
  const p = threeChunkPlan();
  c.tamper!(p);
  return clusterState({ current: p });
}
