import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { parseObject, PTAH_API_VERSION } from "../../../src/model/parse.ts";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { fakeDigest, fakeUID } from "../../support/publish-plan.ts";
import { runCliWith } from "../../support/cli.ts";
import { FIXTURES_NOW } from "../../plan/fixtures.ts";
import { expectGolden } from "../../support/golden.ts";

const NS = "application";
const NAME = "storefront-migrations";
const UID = fakeUID("migration");
const PLAN_FP = fakeDigest("migration-plan");
const PLAN = `ptah-mplan-${PLAN_FP.slice(7, 31)}`;
const PLAN_UID = fakeUID("migration-plan");

type Raw = Record<string, unknown>;

function cond(type: string, status: string, reason: string, message: string): Raw {
  return { type, status, reason, message, lastTransitionTime: "2026-09-13T08:00:00Z", observedGeneration: 3 };
}

function aMigration(status: Raw, spec: Raw = {}): Raw {
  const raw = {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigration",
    metadata: { name: NAME, namespace: NS, uid: UID, generation: 3, creationTimestamp: "2026-09-01T00:00:00Z" },
    spec: { artifact: { ociRef: "oci://registry.example/migrations/storefront:v3" }, policy: { apply: "OnApproval" }, ...spec },
    status: {
      observedGeneration: 3,
      artifact: {
        resolvedReference: "registry.example/migrations/storefront@sha256:" + "3".repeat(64),
        digest: "sha256:" + "3".repeat(64),
      },
      ...status,
    },
  };
  parseObject("PtahMigration", raw);
  return raw;
}

function aMigrationPlan(extra: Raw = {}): Raw {
  const raw = {
    apiVersion: PTAH_API_VERSION,
    kind: "PtahMigrationPlan",
    metadata: { name: PLAN, namespace: NS, uid: PLAN_UID, creationTimestamp: "2026-09-13T08:01:00Z", labels: { "operator.ptah.run/migration": NAME } },
    spec: {
      contractVersion: 1,
      migrationRef: { name: NAME, uid: UID },
      fingerprint: PLAN_FP,
      currentVersion: 0,
      historyFingerprint: fakeDigest("history"),
      createdAt: "2026-09-13T08:01:00Z",
      migrations: [
        { version: 1, versionKey: "1", description: "create customers", checksum: "c1", checkpoint: false, transactionMode: "" },
        { version: 2, versionKey: "2", description: "", checksum: "c2", checkpoint: true, transactionMode: "" },
        { version: 20260913080000, versionKey: "20260913080000", description: "backfill emails", checksum: "c3", checkpoint: false, transactionMode: "none" },
      ],
      ...extra,
    },
  };
  parseObject("PtahMigrationPlan", raw);
  return raw;
}

const AWAITING = aMigration({
  phase: "AwaitingApproval",
  history: {
    observedAt: "2026-09-13T08:00:30Z",
    contractVersion: 1,
    currentVersion: 0,
    checkpointVersion: 0,
    appliedCount: 0,
    pendingCount: 3,
    fingerprint: fakeDigest("history"),
    dirty: false,
  },
  plan: { name: PLAN, uid: PLAN_UID },
  conditions: [
    cond("Ready", "False", "AwaitingApproval", "The plan is waiting for the approval its policy requires"),
    cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval naming this plan"),
    cond("Progressing", "False", "AwaitingApproval", "Nothing runs until a person writes the approval"),
    cond("ArtifactVerified", "True", "PolicySatisfied", "Artifact type and policy checks succeeded"),
  ],
});

const UNRESOLVED = aMigration(
  {
    phase: "Blocked",
    history: {
      observedAt: "2026-09-13T09:10:00Z",
      contractVersion: 1,
      currentVersion: 4,
      checkpointVersion: 2,
      appliedCount: 4,
      pendingCount: 2,
      fingerprint: fakeDigest("history-2"),
      dirty: true,
      modifiedVersions: [3],
      outOfOrderVersions: [2, 4],
    },
    lastRun: {
      outcome: "Partial",
      jobName: "storefront-migrations-apply-7f3",
      startedAt: "2026-09-13T09:00:00Z",
      finishedAt: "2026-09-13T09:05:00Z",
      appliedVersions: [3, 4],
      message: "migration 5 failed after 3 and 4 committed",
    },
    unresolvedRun: {
      outcome: "Partial",
      operationID: "sha256:" + "7f".repeat(32),
      jobName: "storefront-migrations-apply-7f3",
      recordedAt: "2026-09-13T09:05:01Z",
    },
    conditions: [
      cond("Ready", "False", "ApplyOutcomeUnknown", "What the recorded run did is unknown until the database is read"),
      cond("Blocked", "True", "ApplyOutcomeUnknown", "A Partial run nobody accounted for is recorded against this database; establish what it did before another Apply"),
    ],
  },
  { suspend: true },
);

function reader(objects: FakeObject[]): FakeReader {
  return new FakeReader(objects);
}

/** `kubectl ptah migration NAME… [-o OUTPUT]` through the real shell, in the fixtures' namespace. */
async function migration(r: FakeReader, output?: string, positionals = [NAME]) {
  return runCliWith(["migration", ...positionals, ...(output ? ["-o", output] : [])], r, { namespace: NS, now: FIXTURES_NOW });
}

describe("migration", () => {
  it("prints history and the planned sequence as text", async () => {
    const r = reader([
      { kind: "PtahMigration", raw: AWAITING },
      { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
    ]);
    const result = await migration(r);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Migration:      ${NS}/${NAME}\n`);
    expect(result.stdout).toContain("Current version:0\n");
    expect(result.stdout).toContain(`Plan ${PLAN}, 3 migrations from version 0:\n`);
    expect(r.requests).toEqual([`get PtahMigration ${NS}/${NAME}`, `get PtahMigrationPlan ${NS}/${PLAN}`]);
    await expectGolden(result.stdout, "migration/awaiting.txt");
  });

  it("prints the same view as JSON", async () => {
    const r = reader([
      { kind: "PtahMigration", raw: AWAITING },
      { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
    ]);
    const result = await migration(r, "json");
    const view = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(view)).toEqual(["namespace", "migration", "phase", "suspended", "artifact", "history", "plan", "conditions"]);
    await expectGolden(result.stdout, "migration/awaiting.json");
  });

  it("shows an unresolved run and the acknowledgment to run next", async () => {
    const r = reader([{ kind: "PtahMigration", raw: UNRESOLVED }]);
    const result = await migration(r);
    expect(result.stdout).toContain("Unresolved run: Partial\n");
    expect(result.stdout).toContain(`Operation ID:   sha256:${"7f".repeat(32)}\n`);
    expect(result.stdout).toContain("Recorded:       2026-09-13T09:05:01Z\n");
    expect(result.stdout).toContain(`  kubectl ptah acknowledge ${NAME} -n ${NS}\n`);
    expect(result.stdout).toContain("Out of order:   2, 4\n");
    expect(result.stdout).toContain("Last run:       Partial at 2026-09-13T09:05:00Z\n");
    expect(r.requests).toEqual([`get PtahMigration ${NS}/${NAME}`]);
    await expectGolden(result.stdout, "migration/unresolved.txt");
  });

  it("carries the unresolved run and outOfOrderVersions in JSON", async () => {
    const result = await migration(reader([{ kind: "PtahMigration", raw: UNRESOLVED }]), "json");
    const view = JSON.parse(result.stdout) as { history: { outOfOrderVersions: number[] }; unresolvedRun: { nextCommand: string } };
    expect(view.history.outOfOrderVersions).toEqual([2, 4]);
    expect(view.unresolvedRun.nextCommand).toBe(`kubectl ptah acknowledge ${NAME} -n ${NS}`);
    await expectGolden(result.stdout, "migration/unresolved.json");
  });

  it.each<{ name: string; objects: () => FakeObject[] }>([
    { name: "the plan is gone", objects: () => [{ kind: "PtahMigration", raw: AWAITING }] },
    {
      name: "the plan was recreated with another UID",
      objects: () => {
        const plan = aMigrationPlan();
        (plan.metadata as Raw).uid = "another-uid";
        return [
          { kind: "PtahMigration", raw: AWAITING },
          { kind: "PtahMigrationPlan", raw: plan },
        ];
      },
    },
    {
      name: "the plan belongs to another migration",
      objects: () => [
        { kind: "PtahMigration", raw: AWAITING },
        { kind: "PtahMigrationPlan", raw: aMigrationPlan({ migrationRef: { name: "other", uid: "other-uid" } }) },
      ],
    },
  ])("omits the plan when $name, and still prints the rest", async ({ objects }) => {
    const result = await migration(reader(objects()));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("No plan is published.\n");
    expect(result.stdout).toContain("Phase:          AwaitingApproval\n");
  });

  it("never prints SQL, rows or checksums in text", async () => {
    const r = reader([
      { kind: "PtahMigration", raw: AWAITING },
      { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
    ]);
    const text = (await migration(r)).stdout;
    expect(text).not.toMatch(/\b(SELECT|INSERT|CREATE TABLE|ALTER)\b/);
    expect(text).not.toContain("c1");
  });

  it("exits 3 when the migration does not exist", async () => {
    const result = await migration(reader([]));
    expect(result).toMatchObject({ stdout: "", stderr: `error: no PtahMigration by that name: ${NS}/${NAME}\n`, status: 3 });
  });

  it("exits 1 when the migration cannot be read", async () => {
    const r = reader([{ kind: "PtahMigration", raw: AWAITING }]);
    r.faults.set("get PtahMigration", new ReadError('ptahmigrations.operator.ptah.run "x" is forbidden', 403));
    const result = await migration(r);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe('error: read the migration: ptahmigrations.operator.ptah.run "x" is forbidden\n');
  });

  it("exits 1 when the migration plan cannot be read", async () => {
    const r = reader([
      { kind: "PtahMigration", raw: AWAITING },
      { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
    ]);
    r.faults.set("get PtahMigrationPlan", new ReadError("connection refused"));
    const result = await migration(r);
    expect(result).toMatchObject({ stdout: "", stderr: "error: read the migration plan: connection refused\n", status: 1 });
  });

  it.each<{ name: string; positionals: string[]; output?: string; message: string }>([
    { name: "no name", positionals: [], message: "name one PtahMigration" },
    { name: "two names", positionals: ["a", "b"], message: "name one PtahMigration" },
    { name: "-o yaml", positionals: ["a"], output: "yaml", message: 'unknown output format "yaml"; it is one of [text json]' },
  ])("refuses $name with exit 2 and an empty stdout", async ({ positionals, output, message }) => {
    const result = await migration(reader([]), output, positionals);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  it("takes one name and prints text by default, in the connection's namespace unless -n says otherwise", async () => {
    const r = reader([
      { kind: "PtahMigration", raw: AWAITING },
      { kind: "PtahMigrationPlan", raw: aMigrationPlan() },
    ]);
    const byDefault = await migration(r);
    expect(byDefault.stdout).toBe((await migration(r, "text")).stdout);
    const elsewhere = await runCliWith(["migration", NAME, "-n", "other"], r, { namespace: NS });
    expect(elsewhere.status).toBe(3);
    expect(r.requests.at(-1)).toBe(`get PtahMigration other/${NAME}`);
  });
});
