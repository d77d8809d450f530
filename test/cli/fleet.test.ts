// `inbox --contexts a,b,c` / `--all-contexts` (issue 31 part 3) through the real shell: one table
// with a CONTEXT column, each context read through its own connection (the kubeconfig's context
// by name), each failing context one stderr line naming it while the others print; exit 0 when at
// least one context answered, 1 when none did; -o json carries the context.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ReadError } from "../../src/errors.ts";
import { FLEET_CONCURRENCY, aimAt } from "../../src/commands/options/fleet.ts";
import type { ListOptions, ListResult } from "../../src/kube/types.ts";
import type { KindName, ObjectOf } from "../../src/model/parse.ts";
import { FakeReader } from "../support/fake-reader.ts";
import { runCliWith } from "../support/cli.ts";
import { expectGolden } from "../support/golden.ts";
import { aMigration, awaitingSchema, cond, T2 } from "../support/builders.ts";

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

function run(argv: readonly string[], r: ReturnType<typeof readers> = readers(), contexts = ["east", "west", "quiet", "down"]) {
  return runCliWith(["inbox", "-n", "app", ...argv], undefined, { readers: r, env: { NO_COLOR: "1", KUBECONFIG: kubeconfig(contexts) } });
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

  it("reads at most FLEET_CONCURRENCY contexts at once, and every one of them", async () => {
    const names = Array.from({ length: 10 }, (_, i) => `c${i}`);
    let inFlight = 0;
    let most = 0;
    /** Holds each schema list a moment, counting how many contexts are being read at once. */
    class Gated extends FakeReader {
      override async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
        if (kind !== "PtahSchema") return super.list(kind, options);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return super.list(kind, options);
      }
    }
    const all: Record<string, FakeReader> = {};
    for (const n of names) all[n] = new Gated([{ kind: "PtahSchema", raw: awaitingSchema({ name: `s-${n}`, uid: `uid-${n}` }) }]);
    const r = await run(["--all-contexts", "-o", "json"], all as never, names);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { items: { context: string }[] }).items.map((i) => i.context)).toEqual(names);
    expect(most).toBeLessThanOrEqual(FLEET_CONCURRENCY);
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
