// One rule for every command that reads a list or a watch (issue 28 item 1, README "Tolerance"):
// with one object that does not fit the model among good ones, each command writes one warning
// line naming that object and what did not fit, shows the rest, and exits 0. Watches (status -w,
// history -w) are also handed a misfit by an event after their first list.
import { describe, expect, it } from "vitest";
import { runCliWith, type CliRun } from "../support/cli.ts";
import { FakeReader, type FakeObject } from "../support/fake-reader.ts";
import { CONSUMED_AND_STALE, anApproval, awaitingSchema, inSyncSchema } from "../support/builders.ts";
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

const ODD_SCHEMA = /^Warning: not shown: ptahschema app\/odd does not fit the PtahSchema model: status\.activeOperation\.approvalRef: .+$/u;
const BROKEN_APPROVAL = /^Warning: not shown: ptahschemaapproval app\/broken does not fit the PtahSchemaApproval model: spec\.schemaRef: .+$/u;

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
  { name: "inbox", argv: ["inbox", "-n", "app"], shown: ["storefront"], warned: [ODD_SCHEMA] },
  { name: "inbox -A", argv: ["inbox", "-A"], shown: ["storefront"], warned: [ODD_SCHEMA] },
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
