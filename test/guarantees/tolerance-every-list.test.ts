// One rule for every command that reads a list or a watch (docs/output.md, "Tolerance"):
// with one object that does not fit the model among good ones, each command writes one warning
// line naming that object and what did not fit, shows the rest, and exits 0. Watches (status -w,
// history -w) are also handed a misfit by an event after their first list; on a terminal, status -w
// redraws the screen and writes every misfit's warning again after each redraw. The migration
// kinds (migrations, their approvals, run acknowledgments) are among the misfits of ledger and inbox.
import { describe, expect, it } from "vitest";
import { runCliWith, type CliRun } from "../support/cli.ts";
import { FakeReader, type FakeObject } from "../support/fake-reader.ts";
import { CONSUMED_AND_STALE, T0, aMigration, anApproval, awaitingSchema, cond, inSyncSchema } from "../support/builders.ts";
import { clusterState, NS, SCHEMA } from "../plan/fixtures.ts";

/** Fits the CRD (activeOperation keeps unknown fields) but not the model (a reference is an object). */
function oddSchema(name = "odd"): Record<string, unknown> {
  const raw = inSyncSchema({ name, uid: `schema-uid-${name}` });
  (raw.status as Record<string, unknown>).activeOperation = { type: "Apply", approvalRef: "storefront-v1" };
  return raw;
}

function brokenApproval(name = "broken", namespace?: string): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...anApproval({ name }), spec: { schemaRef: "storefront" } };
  if (namespace) (raw.metadata as Record<string, unknown>).namespace = namespace;
  return raw;
}

function objects(): FakeObject[] {
  return [
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: oddSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    { kind: "PtahSchemaApproval", raw: brokenApproval() },
  ];
}

/** A migration awaiting approval, and one that does not fit (a reference is a string). */
function migrations(): FakeObject[] {
  const waiting = { phase: "AwaitingApproval", conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval naming this plan")] };
  const odd = aMigration({ name: "odd-migration", ...waiting });
  (odd.status as Record<string, unknown>).activeOperation = { type: "Apply", approvalRef: "billing-v3" };
  return [
    { kind: "PtahMigration", raw: aMigration({ name: "billing", ...waiting }) },
    { kind: "PtahMigration", raw: odd },
  ];
}

/** A migration approval and a run acknowledgment of billing, each with a broken twin (migrationRef is a string). */
function migrationApprovals(): FakeObject[] {
  const head = (kind: string, name: string) => ({
    apiVersion: "operator.ptah.run/v1alpha1",
    kind,
    metadata: { name, namespace: "app", uid: `uid-${name}`, creationTimestamp: T0 },
  });
  const ref = { name: "billing", uid: "migration-uid-1" };
  const approval = (name: string, migrationRef: unknown) => ({
    ...head("PtahMigrationApproval", name),
    spec: { migrationRef, planRef: { name: "ptah-mplan-555555555555555555555555", uid: "mplan-uid-1" }, approver: { username: "alice" }, approvedAt: T0 },
  });
  const ack = (name: string, migrationRef: unknown) => ({ ...head("PtahMigrationRunAcknowledgment", name), spec: { migrationRef, operationID: "op-1", acknowledgedAt: T0 } });
  return [
    { kind: "PtahMigrationApproval", raw: approval("billing-v3", ref) },
    { kind: "PtahMigrationApproval", raw: approval("broken-mapproval", "billing") },
    { kind: "PtahMigrationRunAcknowledgment", raw: ack("billing-ack", ref) },
    { kind: "PtahMigrationRunAcknowledgment", raw: ack("broken-ack", "billing") },
  ];
}

const ODD_SCHEMA = /^Warning: not shown: ptahschema app\/odd does not fit the PtahSchema model: status\.activeOperation\.approvalRef: .+$/u;
const BROKEN_APPROVAL = /^Warning: not shown: ptahschemaapproval app\/broken does not fit the PtahSchemaApproval model: spec\.schemaRef: .+$/u;
const ODD_MIGRATION = /^Warning: not shown: ptahmigration app\/odd-migration does not fit the PtahMigration model: status\.activeOperation\.approvalRef: .+$/u;
const BROKEN_MAPPROVAL = /^Warning: not shown: ptahmigrationapproval app\/broken-mapproval does not fit the PtahMigrationApproval model: spec\.migrationRef: .+$/u;
const BROKEN_ACK = /^Warning: not shown: ptahmigrationrunacknowledgment app\/broken-ack does not fit the PtahMigrationRunAcknowledgment model: spec\.migrationRef: .+$/u;
const everyKind = (): FakeReader => new FakeReader([...objects(), ...migrations(), ...migrationApprovals()]);

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly cluster?: () => FakeReader;
  /** What the rest of the list shows. */
  readonly shown: readonly string[];
  /** The warning lines, each exactly once. */
  readonly warned: readonly RegExp[];
  /** A watch: how many watches list before `event` is sent, then the command is stopped. */
  readonly watch?: { readonly lists: number; readonly event?: (reader: FakeReader) => void };
}

const CASES: readonly Case[] = [
  { name: "status", argv: ["status", "-n", "app"], shown: ["storefront", "orders"], warned: [ODD_SCHEMA, BROKEN_APPROVAL] },
  { name: "status -A", argv: ["status", "-A"], shown: ["storefront", "orders"], warned: [ODD_SCHEMA, BROKEN_APPROVAL] },
  {
    name: "status -A --stuck (a stuck field that does not fit)",
    argv: ["status", "-A", "--stuck"],
    cluster: () => {
      const overdue = inSyncSchema({ name: "overdue", uid: "schema-uid-overdue" });
      (overdue.status as Record<string, unknown>).nextReconciliationTime = T0;
      const misfit = inSyncSchema({ name: "misfit", uid: "schema-uid-misfit" });
      (misfit.status as Record<string, unknown>).nextReconciliationTime = 1764500000;
      return new FakeReader([...objects(), { kind: "PtahSchema", raw: overdue }, { kind: "PtahSchema", raw: misfit }]);
    },
    shown: ["ptahschema/overdue"],
    warned: [ODD_SCHEMA, BROKEN_APPROVAL, /^Warning: not shown: ptahschema app\/misfit does not fit the PtahSchema model: status\.nextReconciliationTime: .+$/u],
  },
  {
    name: "status -w (first list and an event)",
    argv: ["status", "-w", "-n", "app"],
    shown: ["ADDED ptahschema/app/storefront", "ADDED ptahschema/app/orders"],
    warned: [ODD_SCHEMA, BROKEN_APPROVAL, /^Warning: not shown: ptahschema app\/late does not fit the PtahSchema model: status\.activeOperation\.approvalRef: .+$/u],
    watch: { lists: 3, event: (r) => r.event("PtahSchema", "ADDED", oddSchema("late")) },
  },
  {
    name: "status SCHEMA (its approvals)",
    argv: ["status", "storefront", "-n", "app"],
    // status SCHEMA parses only the approvals whose served schemaRef names it (ListOptions.select).
    cluster: () =>
      new FakeReader([...objects(), { kind: "PtahSchemaApproval", raw: { ...anApproval({ name: "bad-plan-ref" }), spec: { schemaRef: { name: "storefront" }, planRef: 7 } } }]),
    shown: ["app/storefront"],
    warned: [/^Warning: not shown: ptahschemaapproval app\/bad-plan-ref does not fit the PtahSchemaApproval model: spec\.planRef: .+$/u],
  },
  { name: "approvals", argv: ["approvals", "-n", "app"], shown: ["storefront-v1"], warned: [ODD_SCHEMA, BROKEN_APPROVAL] },
  { name: "history", argv: ["history", "storefront", "-n", "app"], shown: ["storefront-v1"], warned: [BROKEN_APPROVAL] },
  {
    name: "history -w (first read and an event)",
    argv: ["history", "storefront", "-w", "-n", "app"],
    shown: ["storefront-v1"],
    warned: [BROKEN_APPROVAL, /^Warning: not shown: ptahschemaapproval app\/broken-2 does not fit the PtahSchemaApproval model: spec\.schemaRef: .+$/u],
    watch: { lists: 4, event: (r) => r.event("PtahSchemaApproval", "ADDED", brokenApproval("broken-2")) },
  },
  { name: "ledger", argv: ["ledger", "-n", "app"], shown: ["storefront-v1"], warned: [ODD_SCHEMA, BROKEN_APPROVAL] },
  { name: "ledger SCHEMA", argv: ["ledger", "storefront", "-n", "app"], shown: ["storefront-v1"], warned: [BROKEN_APPROVAL] },
  { name: "ledger -A -o csv", argv: ["ledger", "-A", "-o", "csv"], shown: ["storefront-v1"], warned: [ODD_SCHEMA, BROKEN_APPROVAL] },
  {
    name: "ledger (the migration kinds)",
    argv: ["ledger", "-n", "app"],
    cluster: everyKind,
    shown: ["storefront-v1", "ptahmigrationapproval/billing-v3", "ptahmigrationrunacknowledgment/billing-ack"],
    warned: [ODD_SCHEMA, BROKEN_APPROVAL, ODD_MIGRATION, BROKEN_MAPPROVAL, BROKEN_ACK],
  },
  {
    name: "ledger migration MIGRATION",
    argv: ["ledger", "migration", "billing", "-n", "app"],
    cluster: everyKind,
    shown: ["ptahmigrationapproval/billing-v3", "ptahmigrationrunacknowledgment/billing-ack"],
    warned: [BROKEN_MAPPROVAL, BROKEN_ACK],
  },
  { name: "inbox", argv: ["inbox", "-n", "app"], shown: ["storefront"], warned: [ODD_SCHEMA] },
  { name: "inbox -A", argv: ["inbox", "-A"], shown: ["storefront"], warned: [ODD_SCHEMA] },
  { name: "inbox (a migration)", argv: ["inbox", "-n", "app"], cluster: everyKind, shown: ["ptahschema/storefront", "ptahmigration/billing"], warned: [ODD_SCHEMA, ODD_MIGRATION] },
  { name: "inbox -A (a migration)", argv: ["inbox", "-A"], cluster: everyKind, shown: ["ptahschema/storefront", "ptahmigration/billing"], warned: [ODD_SCHEMA, ODD_MIGRATION] },
  { name: "explain SCHEMA (its approvals)", argv: ["explain", "storefront", "-n", "app"], shown: ["storefront"], warned: [BROKEN_APPROVAL] },
  {
    name: "diff (the approvals it chooses --from among)",
    argv: ["diff", SCHEMA, "-n", NS, "--stat"],
    cluster: () => clusterState({ extra: [{ kind: "PtahSchemaApproval", raw: brokenApproval("broken", NS) }] }).reader,
    shown: ["statements:"],
    warned: [/^Warning: not shown: ptahschemaapproval application\/broken does not fit the PtahSchemaApproval model: spec\.schemaRef: .+$/u],
  },
];

async function drive(c: Case): Promise<CliRun> {
  const reader = c.cluster ? c.cluster() : new FakeReader(objects());
  if (!c.watch) return runCliWith(c.argv, reader);
  const controller = new AbortController();
  const running = runCliWith(c.argv, reader, { signal: controller.signal });
  const watch = c.watch;
  const deadline = Date.now() + 10_000;
  while (reader.watching < watch.lists && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  watch.event?.(reader);
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
  return running;
}

describe("every list-reading command, with one object that does not fit among good ones", () => {
  it.each(CASES)("$name: one warning line naming it, the rest shown, exit 0", async (c) => {
    const r = await drive(c);
    const lines = [...r.stderr.split("\n"), ...r.logged].filter((l) => l.startsWith("Warning: not shown:"));
    expect(r.status).toBe(0);
    for (const w of c.warned)
      expect(
        lines.filter((l) => w.test(l)),
        String(w),
      ).toHaveLength(1);
    expect(lines).toHaveLength(c.warned.length);
    const output = r.stdout + r.emitted;
    for (const s of c.shown) expect(output).toContain(s);
  });
});

describe("status -w on a terminal, where the view is redrawn (the warnings follow each redraw)", () => {
  const LATE = /^Warning: not shown: ptahschema app\/late does not fit the PtahSchema model: status\.activeOperation\.approvalRef: .+$/u;
  const CLEAR = "\u001b[H\u001b[2J";

  it("after every redraw, one warning line per object that does not fit, the late one from its redraw on", async () => {
    const reader = new FakeReader(objects());
    const controller = new AbortController();
    let frames = 0;
    const until = async (done: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const running = runCliWith(["status", "-w", "-n", "app"], reader, { tty: true, signal: controller.signal, onEmit: (t) => (frames += t.split(CLEAR).length - 1) });
    await until(() => reader.watching === 3 && frames === 1);
    reader.event("PtahSchema", "ADDED", oddSchema("late"));
    await until(() => frames === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const r = await running;
    expect(r.status, r.stderr).toBe(0);
    expect(frames).toBe(2);
    const count = (w: RegExp): number => r.logged.filter((l) => w.test(l)).length;
    expect([count(ODD_SCHEMA), count(BROKEN_APPROVAL), count(LATE)]).toEqual([2, 2, 1]);
    expect(r.logged.filter((l) => l.startsWith("Warning: not shown:"))).toHaveLength(5);
    expect(r.stderr).toBe("");
    const last = r.emitted.split(CLEAR).at(-1)!;
    for (const s of ["storefront", "orders"]) expect(last).toContain(s);
    for (const s of ["odd", "late"]) expect(last).not.toContain(s);
  });
});
