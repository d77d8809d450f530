// The advice lines over every fixture and generated object states, through the one shell: no
// `Next:` (nor any command a line names) repeats the command that printed it; nothing says approve
// while an approval is in use; a condition that still reports the wait for an approval the object
// is past, or one observed at another generation than the phase, is named as the older or newer.
// The oracle below is written from the contract (operator-api.md §3.3, §3.4), not from the code.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeReader, type FakeObject } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { T0, T1, T2, aMigration, aSchema, anApproval, awaitingSchema, blockedSchema, cond, inSyncSchema, planStatus } from "../../support/builders.ts";

type Raw = Record<string, unknown>;

const SCHEMA_PHASES = ["Pending", "Observing", "Planning", "ReadyToApply", "AwaitingApproval", "Blocked", "Applying", "VerifyingConvergence", "InSync", "Failed"];
const MIGRATION_PHASES = ["Pending", "Reading", "Planning", "AwaitingApproval", "Blocked", "Applying", "VerifyingHistory", "InSync", "Failed"];
const READY_REASONS = ["AwaitingApproval", "ApprovedPlan", "InSync", "HistoryMatched", "ProtectedTable", "DestructiveChangesDisabled", "Observing", "ApplyOutcomeUnknown"];
const MIGRATION_APPROVAL = "billing-v1";
const SCHEMA_APPROVAL = "storefront-v1";

/** The words of every `kubectl ptah …` command a text names, without `-n NS`, as argv. */
function namedCommands(text: string): string[][] {
  return [...text.matchAll(/kubectl ptah ([^|;,)\n]+)/gu)].map((m) => withoutNamespace(m[1]!.trim().replace(/\.$/u, "").split(/\s+/u)));
}

function withoutNamespace(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "-n") i++;
    else out.push(argv[i]!);
  }
  return out;
}

/** The approval the operator uses, read from the contract's fields. */
function inUse(kind: "PtahSchema" | "PtahMigration", raw: Raw): string | undefined {
  const status = raw.status as { phase?: string; plan?: { approval?: { name?: string } }; activeOperation?: { approvalRef?: { name?: string } } };
  if (kind === "PtahMigration") return status.activeOperation?.approvalRef?.name;
  return status.phase === "InSync" ? undefined : status.plan?.approval?.name;
}

const conditionArb = (type: string, statuses: readonly string[], reasons: readonly string[]) =>
  fc.option(
    fc
      .record({ status: fc.constantFrom(...statuses), reason: fc.constantFrom(...reasons), at: fc.constantFrom(T0, T1, T2), gen: fc.constantFrom(1, 2, 3) })
      .map((c) => cond(type, c.status, c.reason, `${type} says ${c.reason}`, c.at, c.gen)),
    { nil: undefined },
  );

const common = {
  ready: conditionArb("Ready", ["True", "False", "Unknown"], READY_REASONS),
  approvalRequired: conditionArb("ApprovalRequired", ["True", "False"], ["Waiting", "AwaitingApproval", "Satisfied", "NotRequired"]),
  progressing: conditionArb("Progressing", ["True", "False"], ["ApprovedPlan", "AwaitingApproval"]),
  statusGen: fc.constantFrom(1, 2),
  specGen: fc.constantFrom(1, 2, 3),
};

const schemaArb = fc.record({ ...common, phase: fc.constantFrom(...SCHEMA_PHASES), reserved: fc.boolean(), plan: fc.boolean() }).map((g) => {
  const conditions = [g.ready, g.approvalRequired, g.progressing].filter((c): c is Raw => c !== undefined);
  const plan =
    g.plan || g.reserved ? planStatus(undefined, undefined, g.reserved ? { approval: { name: SCHEMA_APPROVAL, approver: { username: "alice" }, approvedAt: T2 } } : {}) : undefined;
  const raw = aSchema({ phase: g.phase, conditions, ...(plan ? { plan } : {}) });
  (raw.metadata as Raw).generation = g.specGen;
  (raw.status as Raw).observedGeneration = g.statusGen;
  return raw;
});

const migrationArb = fc.record({ ...common, phase: fc.constantFrom(...MIGRATION_PHASES), claimed: fc.boolean(), unresolved: fc.boolean() }).map((g) => {
  const conditions = [g.ready, g.approvalRequired, g.progressing].filter((c): c is Raw => c !== undefined);
  const status: Raw = {};
  if (g.claimed)
    status.activeOperation = { type: "Apply", id: "op-1", jobName: "billing-apply", startedAt: T2, attempt: 1, approvalRef: { name: MIGRATION_APPROVAL, uid: "ma-uid-1" } };
  if (g.unresolved) status.unresolvedRun = { outcome: "Partial", operationID: `sha256:${"6".repeat(64)}`, recordedAt: T2 };
  const raw = aMigration({ phase: g.phase, conditions, status });
  (raw.metadata as Raw).generation = g.specGen;
  (raw.status as Raw).observedGeneration = g.statusGen;
  return raw;
});

function migrationApproval(): Raw {
  return {
    apiVersion: "operator.ptah.run/v1alpha1",
    kind: "PtahMigrationApproval",
    metadata: { name: MIGRATION_APPROVAL, namespace: "app", uid: "ma-uid-1", generation: 1, creationTimestamp: T1 },
    spec: {
      migrationRef: { name: "billing", uid: "migration-uid-1" },
      planRef: { name: "ptah-mplan-555555555555555555555555", uid: "mplan-uid-1" },
      planFingerprint: `sha256:${"5".repeat(64)}`,
      approver: { username: "alice", uid: "u-1", groups: [] },
      approvedAt: T1,
      mutationRequestUID: "m-1",
    },
    status: { conditions: [cond("Consumed", "True", "DispatchCommitted", "The approved plan was dispatched", T2)] },
  };
}

/** The contract's mid-Apply migration: Apply claimed, Ready not yet updated from the wait. */
export function midApplyMigration(): Raw {
  return aMigration({
    phase: "Applying",
    conditions: [
      cond("Ready", "False", "AwaitingApproval", "The plan is waiting for the approval its policy requires", T1),
      cond("Progressing", "True", "ApprovedPlan", "Applying 3 planned migrations", T2),
      cond("ApprovalRequired", "False", "Satisfied", "The plan's approval requirements are satisfied", T2),
    ],
    status: { activeOperation: { type: "Apply", id: "op-1", jobName: "billing-apply", startedAt: T2, attempt: 1, approvalRef: { name: MIGRATION_APPROVAL, uid: "ma-uid-1" } } },
  });
}

const FIXTURES: { schema: Raw; migration: Raw }[] = [
  { schema: awaitingSchema(), migration: midApplyMigration() },
  {
    schema: inSyncSchema(),
    migration: aMigration({
      phase: "AwaitingApproval",
      conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval naming this plan")],
    }),
  },
  {
    schema: { ...blockedSchema(), metadata: { ...(blockedSchema().metadata as Raw), name: "storefront" } },
    migration: aMigration({ phase: "InSync", conditions: [cond("Ready", "True", "HistoryMatched", "nothing is pending")] }),
  },
  {
    schema: awaitingSchema({ plan: planStatus(undefined, undefined, { approval: { name: SCHEMA_APPROVAL, approver: { username: "alice" }, approvedAt: T2 } }) }),
    migration: midApplyMigration(),
  },
];

const LINES = [
  ["status", "storefront", "-n", "app"],
  ["explain", "storefront", "-n", "app"],
  ["explain", "migration", "billing", "-n", "app"],
  ["explain", "approval", SCHEMA_APPROVAL, "-n", "app"],
  ["status", "-n", "app"],
  ["status", "-n", "app", "--stuck"],
  ["inbox", "-n", "app"],
];

async function check(schema: Raw, migration: Raw): Promise<void> {
  const objects: FakeObject[] = [
    { kind: "PtahSchema", raw: schema },
    { kind: "PtahMigration", raw: migration },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: SCHEMA_APPROVAL }) },
    { kind: "PtahMigrationApproval", raw: migrationApproval() },
  ];
  const outputs = new Map<string, string>();
  for (const argv of LINES) {
    const r = await runCliWith(argv, new FakeReader(objects));
    expect(r.status, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
    outputs.set(argv.join(" "), r.stdout);
    const self = withoutNamespace(argv);
    for (const named of namedCommands(r.stdout)) expect(named, `${argv.join(" ")} names itself:\n${r.stdout}`).not.toEqual(self);
  }
  // Advice to approve: the command, or the knowledge base's "…, then approve it" and "create an approval".
  const APPROVE = /kubectl ptah approve|approve it|create an approval/iu;
  const advice = (text: string): string =>
    text
      .split("\n")
      .filter((l) => /^(To do|Next):|^\s+kubectl ptah approve/u.test(l))
      .join("\n");
  const schemaInUse = inUse("PtahSchema", schema);
  if (schemaInUse) {
    for (const line of ["status storefront -n app", "explain storefront -n app"]) expect(advice(outputs.get(line)!), line).not.toMatch(APPROVE);
    expect(outputs.get("inbox -n app")).not.toMatch(/approve storefront/u);
  }
  if (inUse("PtahMigration", migration)) {
    expect(advice(outputs.get("explain migration billing -n app")!)).not.toMatch(APPROVE);
    expect(outputs.get("inbox -n app")).not.toMatch(/approve migration billing/u);
  }
  // Which is newer, where they disagree.
  const explained = outputs.get("explain migration billing -n app")!;
  const status = migration.status as { phase: string; observedGeneration: number; conditions: { type: string; status: string; reason: string; observedGeneration: number }[] };
  const pastWait = inUse("PtahMigration", migration) !== undefined || ["Applying", "VerifyingHistory"].includes(status.phase);
  for (const c of status.conditions) {
    const words = `${c.type}=${c.status} ${c.reason}`;
    const waits = (c.type === "Ready" && c.status !== "True" && c.reason === "AwaitingApproval") || (c.type === "ApprovalRequired" && c.status === "True");
    if (waits && pastWait) expect(explained).toMatch(new RegExp(`Newer: +${words} \\(set [^)]*\\) is older than phase ${status.phase}`, "u"));
    if (c.observedGeneration < status.observedGeneration)
      expect(explained).toMatch(new RegExp(`Newer: +.*${words}.* observed at an older generation than phase ${status.phase}`, "u"));
    if (c.observedGeneration > status.observedGeneration)
      expect(explained).toMatch(new RegExp(`Newer: +.*${words}.* observed at a newer generation than phase ${status.phase}`, "u"));
  }
  if (!pastWait && status.conditions.every((c) => c.observedGeneration === status.observedGeneration)) expect(explained).not.toContain("Newer:");
  // The list's READY cell: Ready's own lag, named in its parentheses.
  const table = outputs.get("status -n app")!;
  expectReadyCell(table, "ptahmigration/billing", status, pastWait);
  const schemaStatus = schema.status as typeof status;
  expectReadyCell(
    table,
    "ptahschema/storefront",
    schemaStatus,
    inUse("PtahSchema", schema) !== undefined || ["ReadyToApply", "Applying", "VerifyingConvergence"].includes(schemaStatus.phase),
  );
}

type Status = { phase: string; observedGeneration: number; conditions: { type: string; status: string; reason: string; observedGeneration: number }[] };

/** `status -n NS`'s READY cell of `row`: Ready's reason, then "older/newer than phase" where it lags. */
function expectReadyCell(table: string, row: string, status: Status, pastWait: boolean): void {
  const listed = table.split("\n").find((l) => l.startsWith(`${row} `)) ?? "";
  const ready = status.conditions.find((c) => c.type === "Ready");
  if (!ready) return;
  const waits = ready.status !== "True" && ready.reason === "AwaitingApproval";
  const note =
    (waits && pastWait) || ready.observedGeneration < status.observedGeneration
      ? "older than phase"
      : ready.observedGeneration > status.observedGeneration
        ? "newer than phase"
        : undefined;
  expect(listed, `status -n app:\n${table}`).toContain(`${ready.status} (${ready.reason}${note ? `, ${note}` : ""})`);
}

describe("advice follows the phase and the approval, and never repeats its own command", () => {
  it("the contract's mid-Apply migration is not told to approve, and is told Ready is older", async () => {
    const r = await runCliWith(
      ["explain", "migration", "billing", "-n", "app"],
      new FakeReader([
        { kind: "PtahMigration", raw: midApplyMigration() },
        { kind: "PtahMigrationApproval", raw: migrationApproval() },
      ]),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("ptahmigration app/billing is Applying.\n");
    expect(r.stdout).toContain(
      "Newer:      Ready=False AwaitingApproval (set 30m ago) is older than phase Applying with approval billing-v1 in use (taken 5m ago); the wait it reports is over.",
    );
    expect(r.stdout).toContain("To do:      Nothing to approve: approval billing-v1 is in use.");
    expect(r.stdout).toContain("Next:       the approved run is in progress; follow it with: kubectl ptah wait migration billing -n app --for=phase=InSync");
    expect(r.stdout).not.toContain("Read the plan, then approve it");
    await expectGolden(r.stdout, "explain-live/migration-mid-apply.txt");
  });

  it("status names the condition a schema's Apply has overtaken, and follows the Apply", async () => {
    const applying = aSchema({
      phase: "Applying",
      conditions: [
        cond("ApprovalRequired", "True", "Waiting", "Create an approval bound to the current plan fingerprint", T1),
        cond("Applying", "True", "ApprovedPlan", "The approved plan is being applied", T2),
        cond("Ready", "False", "ApprovedPlan", "The approved plan is being applied", T2),
      ],
      plan: planStatus(undefined, undefined, { approval: { name: SCHEMA_APPROVAL, approver: { username: "alice" }, approvedAt: T2 } }),
    });
    const r = await runCliWith(["status", "storefront", "-n", "app"], new FakeReader([{ kind: "PtahSchema", raw: applying }]));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Newer:         ApprovalRequired=True Waiting (set 30m ago) is older than phase Applying with approval storefront-v1 in use (taken 5m ago)");
    expect(r.stdout).toContain("Next: the approved plan is being applied; follow it with: kubectl ptah wait storefront -n app --for=phase=InSync");
    await expectGolden(r.stdout, "status/detail-applying-lag.txt");
  });

  it("holds for every fixture", async () => {
    for (const f of FIXTURES) await check(f.schema, f.migration);
  });

  it("holds for generated object states", async () => {
    await fc.assert(
      fc.asyncProperty(schemaArb, migrationArb, async (schema, migration) => check(schema, migration)),
      { numRuns: 120 },
    );
  }, 120_000);
});
