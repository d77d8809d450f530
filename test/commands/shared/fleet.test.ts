// `inbox`, `status` and `ledger` with `--contexts a,b,c` / `--all-contexts` through the real shell: one table
// with a CONTEXT column, each context read through its own connection (the kubeconfig's context
// by name), each failing context one stderr line naming it while the others print; exit 0 when at
// least one context answered, 1 when none did; -o json carries the context.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ReadError } from "../../../src/errors.ts";
import { aimAt } from "../../../src/commands/shared/fleet.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { expectGolden } from "../../support/golden.ts";
import { CONSUMED_AND_STALE, aMigration, anApproval, awaitingSchema, cond, inSyncSchema, T2 } from "../../support/builders.ts";

/** A kubeconfig naming the contexts (never connected to: the test injects each context's reader). */
function kubeconfig(contexts: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fleet-"));
  const file = path.join(dir, "config");
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: contexts.map((c) => ({ name: c, cluster: { server: `https://${c}.invalid` } })),
    users: [{ name: "u", user: { token: "t" } }],
    contexts: contexts.map((c) => ({ name: c, context: { cluster: c, user: "u", namespace: "app" } })),
    "current-context": contexts[0],
  };
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

const billing = aMigration({
  name: "billing",
  phase: "AwaitingApproval",
  conditions: [cond("ApprovalRequired", "True", "AwaitingApproval", "3 planned migrations need an approval", T2)],
});
const readers = () => ({
  east: new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]),
  west: new FakeReader([{ kind: "PtahMigration", raw: billing }]),
  quiet: new FakeReader([]),
  down: new ReadError('Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host'),
});

function runCommand(command: string, argv: readonly string[], r: Record<string, FakeReader | ReadError>, contexts: readonly string[]) {
  return runCliWith([command, "-n", "app", ...argv], undefined, { readers: r as never, env: { NO_COLOR: "1", KUBECONFIG: kubeconfig(contexts) } });
}

function run(argv: readonly string[], r: ReturnType<typeof readers> = readers(), contexts = ["east", "west", "quiet", "down"]) {
  return runCommand("inbox", argv, r, contexts);
}

describe("inbox across contexts", () => {
  it("--contexts: one table with a CONTEXT column, in the order named; NEXT aimed at each context", async () => {
    const r = await run(["--contexts", "west,east"]);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "inbox/fleet.txt");
    expect(r.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAMESPACE +OBJECT /u);
    expect(r.stdout).toMatch(/^east +app +ptahschema\/storefront .* kubectl ptah --context east approve storefront -n app \| kubectl --context east create -f -$/mu);
    expect(r.stdout).toMatch(/^west +app +ptahmigration\/billing .* kubectl ptah --context west approve migration billing -n app \| kubectl --context west create -f -$/mu);
    expect(r.stdout.indexOf("west ")).toBeLessThan(r.stdout.indexOf("east "));
  });

  it("--all-contexts: every context of the kubeconfig; a failing one is one stderr line naming it, the rest print, exit 0", async () => {
    const r = await run(["--all-contexts"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('error: context "down": Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host\n');
    expect(r.stdout).toMatch(/^east +app +ptahschema\/storefront /mu);
    expect(r.stdout).toMatch(/^west +app +ptahmigration\/billing /mu);
    expect(r.stdout).not.toMatch(/^(quiet|down) /mu);
  });

  it("exit 1 and an empty stdout when no context answered, one line per context", async () => {
    const r = await run(["--contexts", "down,gone"], { ...readers(), gone: new ReadError("the server has asked for the client to provide credentials") } as never);
    expect(r).toMatchObject({ status: 1, stdout: "" });
    expect(r.stderr).toBe(
      'error: context "down": Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host\nerror: context "gone": the server has asked for the client to provide credentials\n',
    );
  });

  it("says nothing waits when every context answered empty", async () => {
    const r = await run(["--contexts", "quiet"]);
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "Nothing is waiting for approval in the context read.\n" });
  });

  it("-o json carries each row's context", async () => {
    const r = await run(["--contexts", "east,west,down", "-o", "json"]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { items: { context: string; name: string; next: string }[] };
    expect(doc.items.map((i) => [i.context, i.name])).toEqual([
      ["east", "storefront"],
      ["west", "billing"],
    ]);
    expect(r.stderr).toMatch(/^error: context "down": /u);
  });

  it.each([
    [["--contexts", "a", "--all-contexts"], "--contexts and --all-contexts both name the contexts to read; give one"],
    [["--contexts", "a", "--context", "b"], "--context names one context; with --contexts or --all-contexts, name them there"],
    [["--contexts", "a,,b"], "--contexts is a comma-separated list of context names"],
  ])("refuses %j (exit 2)", async (argv, message) => {
    const r = await run(argv);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain(message);
  });

  it("aims a command at a context, quoting a name that is not a plain shell word", () => {
    expect(aimAt("kubectl ptah approve s -n app | kubectl create -f -", "prod eu")).toBe(
      "kubectl ptah --context 'prod eu' approve s -n app | kubectl --context 'prod eu' create -f -",
    );
  });
});

/** east: storefront waiting, with an approval that was consumed; west: storefront in sync and billing; down: no answer. */
const statusReaders = (): Record<string, FakeReader | ReadError> => ({
  east: new FakeReader([
    { kind: "PtahSchema", raw: awaitingSchema() },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-v1", conditions: CONSUMED_AND_STALE }) },
  ]),
  west: new FakeReader([
    { kind: "PtahSchema", raw: inSyncSchema() },
    { kind: "PtahMigration", raw: billing },
    { kind: "PtahSchemaApproval", raw: anApproval({ name: "storefront-w1", created: T2 }) },
  ]),
  quiet: new FakeReader([]),
  down: new ReadError('Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host'),
});

describe("status and ledger across contexts", () => {
  const contexts = ["east", "west", "quiet", "down"];
  const status = (argv: readonly string[]) => runCommand("status", argv, statusReaders(), contexts);
  const ledger = (argv: readonly string[]) => runCommand("ledger", argv, statusReaders(), contexts);

  it("status --contexts: one table per kind with a CONTEXT column, contexts in the order named", async () => {
    const r = await status(["--contexts", "west,east"]);
    expect(r).toMatchObject({ status: 0, stderr: "" });
    await expectGolden(r.stdout, "status/fleet.txt");
    const [schemas, migrations] = r.stdout.split("\n\n");
    expect(schemas!.split("\n")[0]).toMatch(/^CONTEXT +NAME +PHASE +READY /u);
    expect(schemas).toMatch(/^west +ptahschema\/storefront +InSync /mu);
    expect(schemas).toMatch(/^east +ptahschema\/storefront +AwaitingApproval /mu);
    expect(schemas!.indexOf("west ")).toBeLessThan(schemas!.indexOf("east "));
    expect(migrations).toMatch(/^CONTEXT +NAME +PHASE /u);
    expect(migrations).toMatch(/^west +ptahmigration\/billing +AwaitingApproval /mu);
  });

  it("status --all-contexts: a failing context is one stderr line naming it, the rest print, exit 0; -A adds NAMESPACE after CONTEXT", async () => {
    const r = await status(["--all-contexts", "-A"].filter((a) => a !== "-n"));
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('error: context "down": Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host\n');
    expect(r.stdout.split("\n")[0]).toMatch(/^CONTEXT +NAMESPACE +NAME /u);
    expect(r.stdout).toMatch(/^east +app +ptahschema\/storefront /mu);
  });

  it("status -o json: a List of {context, object}, the objects as served", async () => {
    const r = await status(["--contexts", "east,west,down", "-o", "json"]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { kind: string; items: { context: string; object: { kind: string; metadata: { name: string } } }[] };
    expect(doc.kind).toBe("List");
    expect(doc.items.map((i) => [i.context, i.object.kind, i.object.metadata.name])).toEqual([
      ["east", "PtahSchema", "storefront"],
      ["west", "PtahSchema", "storefront"],
      ["west", "PtahMigration", "billing"],
    ]);
    expect(r.stderr).toMatch(/^error: context "down": /u);
  });

  it("status: exit 1 and an empty stdout when no context answered; no resources when every one answered empty", async () => {
    expect(await status(["--contexts", "down"])).toMatchObject({ status: 1, stdout: "" });
    expect(await status(["--contexts", "quiet"])).toMatchObject({ status: 0, stdout: "", stderr: "No resources found in the context read.\n" });
  });

  it.each([
    [["storefront", "--contexts", "east"], "a schema name cannot be combined with --contexts or --all-contexts"],
    [["--watch", "--all-contexts"], "--watch cannot be combined with --contexts or --all-contexts"],
    [["-o", "name", "--contexts", "east"], "--contexts and --all-contexts print a table, -o wide, -o json or -o yaml"],
    [["--contexts", "a", "--context", "b"], "--context names one context; with --contexts or --all-contexts, name them there"],
  ])("status refuses %j (exit 2)", async (argv, message) => {
    const r = await status(argv);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain(message);
  });

  it("ledger --contexts: a CONTEXT column first, each context's approvals oldest first, contexts in the order named", async () => {
    const r = await ledger(["--contexts", "west,east,down"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('error: context "down": Get "https://down.invalid/apis": dial tcp: lookup down.invalid: no such host\n');
    await expectGolden(r.stdout, "ledger/fleet.txt");
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^CONTEXT +APPROVAL +OBJECT /u);
    expect(lines[1]).toMatch(/^west +storefront-w1 +storefront /u);
    expect(lines[2]).toMatch(/^east +storefront-v1 +storefront /u);
  });

  it("ledger -o json and -o csv carry each entry's context", async () => {
    const json = await ledger(["--all-contexts", "-o", "json"]);
    expect((JSON.parse(json.stdout) as { items: { context: string; name: string }[] }).items.map((i) => [i.context, i.name])).toEqual([
      ["east", "storefront-v1"],
      ["west", "storefront-w1"],
    ]);
    const csv = await ledger(["--all-contexts", "-o", "csv"]);
    expect(csv.stdout.split("\n")[0]).toMatch(/^context,namespace,kind,name,/u);
    expect(csv.stdout.split("\n")[1]).toMatch(/^east,app,PtahSchemaApproval,storefront-v1,/u);
  });

  it("ledger: no resources in the contexts read, exit 0; exit 1 when none answered", async () => {
    expect(await ledger(["--contexts", "quiet"])).toMatchObject({ status: 0, stdout: "", stderr: "No resources found in the context read.\n" });
    expect(await ledger(["--contexts", "down"])).toMatchObject({ status: 1, stdout: "" });
  });
});
