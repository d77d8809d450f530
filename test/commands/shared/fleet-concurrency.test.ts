// How many contexts a fleet (`--contexts`, `--all-contexts`) reads at once, through the real shell:
// never more than --max-concurrent-contexts (default FLEET_CONCURRENCY, which holds a fleet of 50 in
// one round), every context read, the output in the contexts' order whatever order they answer in;
// the flag read as kubectl reads an int flag (pflag's strconv.ParseInt(s, 0, 64)) and refused below 1.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FLEET_CONCURRENCY, parseIntFlag } from "../../../src/commands/shared/fleet.ts";
import type { ListOptions, ListResult } from "../../../src/kube/types.ts";
import type { KindName, ObjectOf } from "../../../src/model/parse.ts";
import { FakeReader } from "../../support/fake-reader.ts";
import { runCliWith } from "../../support/cli.ts";
import { awaitingSchema } from "../../support/builders.ts";

/** A kubeconfig naming the contexts (never connected to: the test injects each context's reader). */
function kubeconfig(contexts: readonly string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ptah-fleet-")), "config");
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

const contextNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `c${String(i).padStart(2, "0")}`);

function inbox(argv: readonly string[], readers: Record<string, FakeReader>, names: readonly string[]) {
  return runCliWith(["inbox", "-n", "app", ...argv], undefined, { readers, env: { NO_COLOR: "1", KUBECONFIG: kubeconfig(names) } });
}

/**
 * Counts the contexts whose schema list is in flight. The first `bound` lists wait until `bound` of
 * them have started (so the bound is reached, not merely not exceeded); later ones answer at once.
 * With the bound removed every context starts before any answers and `most` exceeds it.
 */
function gatedFleet(names: readonly string[], bound: number) {
  const seen = { inFlight: 0, most: 0, started: 0 };
  let open!: () => void;
  const full = new Promise<void>((r) => (open = r));
  class Gated extends FakeReader {
    override async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
      if (kind !== "PtahSchema") return super.list(kind, options);
      seen.most = Math.max(seen.most, ++seen.inFlight);
      if (++seen.started >= Math.min(bound, names.length)) open();
      await full;
      await new Promise((r) => setImmediate(r));
      seen.inFlight--;
      return super.list(kind, options);
    }
  }
  const readers: Record<string, FakeReader> = {};
  for (const n of names) readers[n] = new Gated([{ kind: "PtahSchema", raw: awaitingSchema({ name: `s-${n}`, uid: `uid-${n}` }) }]);
  return { readers, seen };
}

const contextsOf = (stdout: string): string[] => (JSON.parse(stdout) as { items: { context: string }[] }).items.map((i) => i.context);

describe("a fleet's concurrency", () => {
  it("reads at most --max-concurrent-contexts contexts at once, reaches that many, and reads every one", async () => {
    const names = contextNames(10);
    const { readers, seen } = gatedFleet(names, 3);
    const r = await inbox(["--all-contexts", "--max-concurrent-contexts", "3", "-o", "json"], readers, names);
    expect(r.status, r.stderr).toBe(0);
    expect(contextsOf(r.stdout)).toEqual(names);
    expect(seen.most).toBe(3);
  });

  it(`by default reads ${FLEET_CONCURRENCY} contexts at once: a fleet of 50 is one round, a larger one never more`, async () => {
    expect(FLEET_CONCURRENCY).toBeGreaterThanOrEqual(50);
    const fifty = contextNames(50);
    const one = gatedFleet(fifty, 50);
    const r = await inbox(["--all-contexts", "-o", "json"], one.readers, fifty);
    expect(r.status, r.stderr).toBe(0);
    expect(one.seen.most).toBe(50);
    const more = contextNames(FLEET_CONCURRENCY + 7);
    const many = gatedFleet(more, FLEET_CONCURRENCY);
    const m = await inbox(["--contexts", more.join(","), "-o", "json"], many.readers, more);
    expect(contextsOf(m.stdout)).toEqual(more);
    expect(many.seen.most).toBe(FLEET_CONCURRENCY);
  });

  it("prints the contexts in their order when they answer in the reverse order, a failing one named in its place", async () => {
    const names = contextNames(8);
    const answered: string[] = [];
    const done = new Map<string, () => void>();
    const finished = new Map(names.map((n) => [n, new Promise<void>((r) => done.set(n, r))]));
    /** Each context answers only after the one after it has: the last answers first. */
    class Reversed extends FakeReader {
      private readonly name: string;
      constructor(name: string) {
        super([{ kind: "PtahSchema", raw: awaitingSchema({ name: `s-${name}`, uid: `uid-${name}` }) }]);
        this.name = name;
      }
      override async list<K extends KindName>(kind: K, options: ListOptions): Promise<ListResult<ObjectOf<K>>> {
        if (kind !== "PtahSchema") return super.list(kind, options);
        const after = names[names.indexOf(this.name) + 1];
        if (after) await finished.get(after);
        answered.push(this.name);
        done.get(this.name)!();
        if (this.name === "c03") throw new Error("the connection to the server c03.invalid was reset");
        return super.list(kind, options);
      }
    }
    const readers = Object.fromEntries(names.map((n) => [n, new Reversed(n)]));
    const r = await inbox(["--all-contexts", "-o", "json"], readers, names);
    expect(answered).toEqual([...names].reverse());
    expect(r.status).toBe(0);
    expect(contextsOf(r.stdout)).toEqual(names.filter((n) => n !== "c03"));
    expect(r.stderr).toBe('error: context "c03": the connection to the server c03.invalid was reset\n');
  });

  it.each([
    ["x", 'invalid argument "x" for "--max-concurrent-contexts" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [" 5", 'invalid argument " 5" for "--max-concurrent-contexts" flag: strconv.ParseInt: parsing " 5": invalid syntax'],
    ["1__0", 'parsing "1__0": invalid syntax'],
    ["_1", 'parsing "_1": invalid syntax'],
    ["08", 'parsing "08": invalid syntax'],
    ["1.5", 'parsing "1.5": invalid syntax'],
    ["", 'invalid argument "" for "--max-concurrent-contexts" flag: strconv.ParseInt: parsing "": invalid syntax'],
    ["99999999999999999999", 'parsing "99999999999999999999": value out of range'],
    ["0", "--max-concurrent-contexts must be greater than 0"],
    ["-3", "--max-concurrent-contexts must be greater than 0"],
  ])("refuses --max-concurrent-contexts=%j (exit 2), as kubectl refuses an int flag", async (value, message) => {
    const names = contextNames(2);
    const r = await inbox(["--all-contexts", `--max-concurrent-contexts=${value}`], gatedFleet(names, 1).readers, names);
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain(message);
  });

  it.each(["status", "ledger"])("%s takes the flag too", async (command) => {
    const names = contextNames(2);
    const r = await runCliWith([command, "--all-contexts", "--max-concurrent-contexts", "zero"], undefined, {
      readers: gatedFleet(names, 1).readers,
      env: { KUBECONFIG: kubeconfig(names) },
    });
    expect(r).toMatchObject({ status: 2, stdout: "" });
    expect(r.stderr).toContain('invalid argument "zero" for "--max-concurrent-contexts" flag');
  });

  it("reads ints as pflag does: a sign, 0x, 0o, 0b, a leading 0 for octal, _ between digits", () => {
    const cases: [string, number][] = [
      ["7", 7],
      ["+7", 7],
      ["-7", -7],
      ["0x10", 16],
      ["0X1_f", 31],
      ["0o17", 15],
      ["017", 15],
      ["0b101", 5],
      ["1_000", 1000],
      ["0", 0],
      ["0x_1", 1],
    ];
    for (const [text, value] of cases) expect(parseIntFlag(text, "f"), text).toBe(value);
    for (const bad of ["0x", "1_", "0b2", "٣", "1e3", "0x1g"]) expect(() => parseIntFlag(bad, "f"), bad).toThrow(/invalid syntax/u);
    expect(() => parseIntFlag("9223372036854775808", "f")).toThrow(/value out of range/u);
    expect(parseIntFlag("-9223372036854775808", "f")).toBe(-9223372036854775808);
  });
});
