// A served object nested far deeper than any the model reads (10,000 levels of objects, 5,000 of
// arrays: a namespace writer can store one in a kind that keeps unknown fields) is one misfit like
// any other: every list warns once naming it and shows the rest (exit 0), machine output leaves it
// out with the same warning instead of failing to print it, and the object a command is about is
// a one-line refusal (exit 1). Before the bound, each of these ended in
// `error: internal: Maximum call stack size exceeded`, exit 1.
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { runCliWith } from "../support/cli.ts";
import { FakeReader, type FakeObject } from "../support/fake-reader.ts";
import { CONSUMED_AND_STALE, aMigration, anApproval, awaitingSchema, inSyncSchema } from "../support/builders.ts";
import { clusterState, NS } from "../plan/fixtures.ts";
import type { KindName } from "../../src/model/parse.ts";

/** `levels` objects, each the only value of the one before. */
export function deepObject(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

/** `levels` arrays, each the only element of the one before. */
export function deepArray(levels: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
}

const FORMS = [
  { form: "10,000 levels of objects", nested: () => deepObject(10_000) },
  { form: "5,000 levels of arrays", nested: () => deepArray(5_000) },
] as const;

/** A served object of `kind` named deep, with the nesting under a field the model does not read. */
function deep(kind: KindName, nested: unknown, namespace = "app"): FakeObject {
  const base =
    kind === "PtahMigration"
      ? aMigration({ name: "deep", namespace, phase: "Ready", conditions: [] })
      : kind === "PtahSchema"
        ? awaitingSchema({ name: "deep", uid: "schema-uid-deep" })
        : anApproval({ name: "deep", namespace });
  (base.metadata as Record<string, unknown>).namespace = namespace;
  (base.spec as Record<string, unknown>).extra = nested;
  return { kind, raw: base };
}

function world(extra: FakeObject): FakeReader {
  return new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchema", raw: inSyncSchema({ name: "orders", uid: "schema-uid-3" }) },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
    { kind: "PtahMigration", raw: aMigration({ name: "billing", phase: "Ready", conditions: [] }) },
    extra,
  ]);
}

/** The deep copy of the applied plan of the plan fixtures, under another name. */
function plansWorld(nested: unknown): FakeReader {
  const base = clusterState();
  const plan = structuredClone(base.applied.plan);
  (plan.metadata as Record<string, unknown>).name = "deep";
  (plan.metadata as Record<string, unknown>).uid = "plan-uid-deep";
  (plan.spec as Record<string, unknown>).extra = nested;
  base.reader.put("PtahSchemaPlan", plan);
  return base.reader;
}

const TOO_DEEP = (kind: string, ns: string) => new RegExp(`^Warning: not shown: ${kind} ${ns}/deep is nested deeper than 128 levels[^\\n]*$`, "u");

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly cluster: (nested: unknown) => FakeReader;
  readonly warned: RegExp;
  readonly shown: readonly string[];
  /** Machine output: what the printed List holds (parsed back), in order. */
  readonly listed?: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: "status",
    argv: ["status", "-n", "app"],
    cluster: (n) => world(deep("PtahMigration", n)),
    warned: TOO_DEEP("ptahmigration", "app"),
    shown: ["storefront", "orders", "billing"],
  },
  {
    name: "status -A",
    argv: ["status", "-A"],
    cluster: (n) => world(deep("PtahMigration", n, "other")),
    warned: TOO_DEEP("ptahmigration", "other"),
    shown: ["storefront", "orders", "billing"],
  },
  { name: "inbox -A", argv: ["inbox", "-A"], cluster: (n) => world(deep("PtahMigration", n, "other")), warned: TOO_DEEP("ptahmigration", "other"), shown: ["storefront"] },
  {
    name: "ledger -A",
    argv: ["ledger", "-A"],
    cluster: (n) => world(deep("PtahSchemaApproval", n, "other")),
    warned: TOO_DEEP("ptahschemaapproval", "other"),
    shown: ["storefront-v1"],
  },
  {
    name: "approvals -A",
    argv: ["approvals", "-A"],
    cluster: (n) => world(deep("PtahSchemaApproval", n, "other")),
    warned: TOO_DEEP("ptahschemaapproval", "other"),
    shown: ["storefront-v1"],
  },
  {
    name: "history",
    argv: ["history", "storefront", "-n", "app"],
    cluster: (n) => world(deep("PtahSchemaApproval", n)),
    warned: TOO_DEEP("ptahschemaapproval", "app"),
    shown: ["storefront-v1"],
  },
  { name: "plans", argv: ["plans", "-n", NS], cluster: plansWorld, warned: TOO_DEEP("ptahschemaplan", NS), shown: ["ptah-plan-"] },
  {
    name: "status -o json",
    argv: ["status", "-n", "app", "-o", "json"],
    cluster: (n) => world(deep("PtahMigration", n)),
    warned: TOO_DEEP("ptahmigration", "app"),
    shown: [],
    listed: ["storefront", "orders", "billing"],
  },
  {
    name: "status -A -o yaml",
    argv: ["status", "-A", "-o", "yaml"],
    cluster: (n) => world(deep("PtahMigration", n, "other")),
    warned: TOO_DEEP("ptahmigration", "other"),
    shown: [],
    listed: ["storefront", "orders", "billing"],
  },
  {
    name: "approvals -A -o json",
    argv: ["approvals", "-A", "-o", "json"],
    cluster: (n) => world(deep("PtahSchemaApproval", n, "other")),
    warned: TOO_DEEP("ptahschemaapproval", "other"),
    shown: [],
    listed: ["storefront-v1"],
  },
];

describe.each(FORMS)("a served object nested $form", ({ nested }) => {
  it.each(CASES)("$name: one warning naming it, the others shown, exit 0", async (c) => {
    const r = await runCliWith(c.argv, c.cluster(nested()));
    expect(r.stderr).not.toContain("internal");
    expect(r.status, r.stderr).toBe(0);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(c.warned);
    for (const s of c.shown) expect(r.stdout).toContain(s);
    if (c.listed) {
      const doc = (c.argv.includes("yaml") ? yaml.load(r.stdout) : JSON.parse(r.stdout)) as { items: { metadata: { name: string } }[] };
      expect(doc.items.map((i) => i.metadata.name)).toEqual(c.listed);
    }
  });

  it.each([
    ["schema", ["schema", "deep", "-n", "app"]],
    ["status SCHEMA", ["status", "deep", "-n", "app"]],
    ["status SCHEMA -o json", ["status", "deep", "-n", "app", "-o", "json"]],
  ])("%s, the object the command is about: one error line naming it, exit 1", async (_name, argv) => {
    const r = await runCliWith(argv, world(deep("PtahSchema", nested())));
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 1, stdout: "" });
    expect(r.stderr).toMatch(/^error: ptahschema app\/deep is nested deeper than 128 levels[^\n]*\n$/u);
  });
});

describe("status -w -o json with a deep object in its first list and in an event", () => {
  it.each(FORMS)("$form: one warning each, never printed, the watch goes on (exit 0)", async ({ nested }) => {
    const reader = world(deep("PtahMigration", nested()));
    const controller = new AbortController();
    const running = runCliWith(["status", "-w", "-n", "app", "-o", "json"], reader, { signal: controller.signal });
    const deadline = Date.now() + 10_000;
    while (reader.watching < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const late = deep("PtahMigration", nested());
    (late.raw.metadata as Record<string, unknown>).name = "late";
    reader.event("PtahMigration", "ADDED", late.raw);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const r = await running;
    expect(r.status, r.stderr).toBe(0);
    const warnings = [...r.stderr.split("\n"), ...r.logged].filter((l) => l.startsWith("Warning:"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(TOO_DEEP("ptahmigration", "app"));
    expect(warnings[1]).toMatch(/^Warning: not shown: ptahmigration app\/late is nested deeper than 128 levels/u);
    const printed = r.emitted
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name);
    expect(printed.sort()).toEqual(["billing", "orders", "storefront"]);
  });
});
