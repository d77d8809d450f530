// pflag's grammar (cli/pflag.ts): a table of kubectl's forms with their meaning, pflag's error
// lines, and a property: every spelling of the same flags parses to the same values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import type { FlagSpec } from "../../src/commands/command-types.ts";
import { findCommandWord, parseFlags } from "../../src/cli/pflag.ts";
import { runs } from "../properties/runs.ts";
import { awaitingSchema } from "../support/builders.ts";
import { runCliWith } from "../support/cli.ts";
import { FakeReader } from "../support/fake-reader.ts";

const SPECS: readonly FlagSpec[] = [
  { name: "namespace", alias: "n", type: "string", describe: "" },
  { name: "output", alias: "o", type: "string", describe: "" },
  { name: "selector", alias: "l", type: "string", describe: "" },
  { name: "all-namespaces", alias: "A", type: "boolean", describe: "" },
  { name: "watch", alias: "w", type: "boolean", describe: "" },
  { name: "no-headers", type: "boolean", describe: "" },
  { name: "as-group", type: "string", describe: "", repeatable: true },
  { name: "v", alias: "v", type: "string", describe: "" },
];

describe("pflag grammar", () => {
  it.each<{ argv: string[]; positionals?: string[]; values: Record<string, unknown> }>([
    { argv: ["-ojson"], values: { output: "json" } },
    { argv: ["-o=json"], values: { output: "json" } },
    { argv: ["-o", "json"], values: { output: "json" } },
    { argv: ["--output=json"], values: { output: "json" } },
    { argv: ["--output", "json"], values: { output: "json" } },
    { argv: ["-ojsonpath={.a=b}"], values: { output: "jsonpath={.a=b}" } },
    { argv: ["-o=jsonpath={.a}"], values: { output: "jsonpath={.a}" } },
    { argv: ["-nshop"], values: { namespace: "shop" } },
    { argv: ["-Ao", "wide"], values: { "all-namespaces": true, output: "wide" } },
    { argv: ["-Aowide"], values: { "all-namespaces": true, output: "wide" } },
    { argv: ["-wA"], values: { watch: true, "all-namespaces": true } },
    { argv: ["-lapp=x"], values: { selector: "app=x" } },
    { argv: ["-l", "app=x,tier in (a,b)"], values: { selector: "app=x,tier in (a,b)" } },
    { argv: ["-l=app=x"], values: { selector: "app=x" } },
    { argv: ["-A=false"], values: { "all-namespaces": false } },
    { argv: ["--all-namespaces=false"], values: { "all-namespaces": false } },
    { argv: ["--all-namespaces=T"], values: { "all-namespaces": true } },
    { argv: ["--all-namespaces", "false"], positionals: ["false"], values: { "all-namespaces": true } },
    { argv: ["-n", "a", "-n", "b"], values: { namespace: "b" } },
    { argv: ["--as-group=a", "--as-group", "b"], values: { "as-group": ["a", "b"] } },
    { argv: ["-n", "-A"], values: { namespace: "-A" } },
    { argv: ["-v=6"], values: { v: "6" } },
    { argv: ["-v6"], values: { v: "6" } },
    { argv: ["--v", "6"], values: { v: "6" } },
    { argv: ["x", "-nshop", "y"], positionals: ["x", "y"], values: { namespace: "shop" } },
    { argv: ["x", "--", "-n", "--foo"], positionals: ["x", "-n", "--foo"], values: {} },
    { argv: ["-"], positionals: ["-"], values: {} },
    { argv: ["--output="], values: { output: "" } },
    // klog's -v is an int32 (kubectl 1.33 takes -v=-1 and -v=+2); the value word may start with "-".
    { argv: ["-v=-1"], values: { v: "-1" } },
    { argv: ["-v", "-1"], values: { v: "-1" } },
    { argv: ["--v=+2"], values: { v: "+2" } },
  ])("$argv", ({ argv, positionals, values }) => {
    expect(parseFlags(argv, SPECS)).toEqual({ positionals: positionals ?? [], values });
  });

  it.each([
    { argv: ["--colour"], message: "unknown flag: --colour" },
    { argv: ["--colour=always"], message: "unknown flag: --colour" },
    { argv: ["-x"], message: "unknown shorthand flag: 'x' in -x" },
    { argv: ["-Ax"], message: "unknown shorthand flag: 'x' in -x" },
    { argv: ["-n"], message: "flag needs an argument: 'n' in -n" },
    { argv: ["-An"], message: "flag needs an argument: 'n' in -n" },
    { argv: ["--namespace"], message: "flag needs an argument: --namespace" },
    { argv: ["--all-namespaces=maybe"], message: 'invalid argument "maybe" for "-A, --all-namespaces" flag: strconv.ParseBool: parsing "maybe": invalid syntax' },
    { argv: ["--no-headers=yes"], message: 'invalid argument "yes" for "--no-headers" flag: strconv.ParseBool: parsing "yes": invalid syntax' },
    // pflag's parseLongArg: a long name may not start with "-" or "=" (kubectl 1.33: `error: bad flag syntax: ---x`).
    { argv: ["---x"], message: "bad flag syntax: ---x" },
    { argv: ["---output=json"], message: "bad flag syntax: ---output=json" },
    { argv: ["--=x"], message: "bad flag syntax: --=x" },
    { argv: ["x", "--=json"], message: "bad flag syntax: --=json" },
  ])("refuses $argv with pflag's line", ({ argv, message }) => {
    expect(() => parseFlags(argv, SPECS)).toThrow(UsageError);
    expect(() => parseFlags(argv, SPECS)).toThrow(message);
  });

  it.each<{ argv: string[]; word: string | undefined; index: number }>([
    { argv: ["status"], word: "status", index: 0 },
    { argv: ["-n", "shop", "status"], word: "status", index: 2 },
    { argv: ["-nshop", "status"], word: "status", index: 1 },
    { argv: ["-An", "shop", "status"], word: "status", index: 2 },
    { argv: ["-A", "status"], word: "status", index: 1 },
    { argv: ["--namespace=shop", "status"], word: "status", index: 1 },
    { argv: ["-A"], word: undefined, index: -1 },
    // cobra's Command.Find (stripFlags), each seen with kubectl 1.33 where kubectl has the form:
    // a flag the root does not know takes the next word as its value (`kubectl -L app get pods`
    // runs get; `kubectl --watch get pods` takes get for --watch's value and finds no command).
    { argv: ["-L", "app", "status"], word: "status", index: 2 },
    { argv: ["--label-columns", "app", "status"], word: "status", index: 2 },
    { argv: ["--unknown", "status"], word: undefined, index: -1 },
    { argv: ["--unknown", "x", "status"], word: "status", index: 2 },
    { argv: ["--watch=true", "status"], word: "status", index: 1 },
    { argv: ["-w=true", "status"], word: "status", index: 1 },
    // `--` ends the search: what follows is arguments (`kubectl -- get` prints the root's help).
    { argv: ["--", "status"], word: undefined, index: -1 },
    { argv: ["-n", "x", "--", "status"], word: undefined, index: -1 },
    // A value flag whose value would be the last word leaves no command (`kubectl -n get`: root help).
    { argv: ["-n", "status"], word: undefined, index: -1 },
    { argv: ["--namespace", "status"], word: undefined, index: -1 },
    // `---x status` is searched as an unknown flag with a value (kubectl: the root's "bad flag
    // syntax"); `--=x status` finds status, whose flags then refuse it (kubectl: get's).
    { argv: ["---x", "status"], word: undefined, index: -1 },
    { argv: ["--=x", "status"], word: "status", index: 1 },
    // "-" and "" are never the command.
    { argv: ["-", "status"], word: "status", index: 1 },
    { argv: ["", "status"], word: "status", index: 1 },
  ])("finds the command word in $argv", ({ argv, word, index }) => {
    expect(findCommandWord(argv, SPECS)).toEqual({ word, index });
  });
});

describe("pflag grammar (property)", () => {
  const value = fc.stringMatching(/^[a-z0-9=.,{}-]{1,8}$/u).filter((v) => !v.startsWith("-") && !v.startsWith("="));
  /** Every spelling pflag accepts for one value flag with a shorthand. */
  const spell = (long: string, short: string, v: string): fc.Arbitrary<string[]> =>
    fc.constantFrom([`--${long}=${v}`], [`--${long}`, v], [`-${short}`, v], [`-${short}${v}`], [`-${short}=${v}`]);

  it("every spelling of -n, -o, -l and -A means the same", () => {
    let cases = 0;
    fc.assert(
      fc.property(fc.record({ n: value, o: value, l: value, A: fc.boolean() }), fc.gen(), ({ n, o, l, A }, gen) => {
        cases++;
        const words = [...gen(() => spell("namespace", "n", n)), ...gen(() => spell("output", "o", o)), ...gen(() => spell("selector", "l", l))];
        if (A) words.push(...gen(() => fc.constantFrom(["-A"], ["--all-namespaces"], ["--all-namespaces=true"], ["-A=true"])));
        const parsed = parseFlags(["status", ...words, "name"], SPECS);
        expect(parsed.positionals).toEqual(["status", "name"]);
        expect(parsed.values).toEqual({ namespace: n, output: o, selector: l, ...(A ? { "all-namespaces": true } : {}) });
      }),
      { numRuns: runs(1000), endOnFailure: true },
    );
    expect(cases).toBeGreaterThan(0);
  });
});

// The forms through the real CLI, each compared with kubectl 1.33 where kubectl has one (the
// plugin is a cobra root whose flags are kubectl's globals; each command adds its own).
describe("cobra's and pflag's forms through the CLI", () => {
  const cluster = () => new FakeReader([{ kind: "PtahSchema", raw: awaitingSchema() }]);

  it.each<{ name: string; argv: string[]; status: number; stdout?: RegExp; stderr: string | RegExp }>([
    // `kubectl -L app get pods` runs get with -L: a command's flag may come before the command.
    { name: "a command's flag and its value before the command", argv: ["-L", "app", "status", "-n", "app"], status: 0, stdout: /^NAME +PHASE .* APP\n/u, stderr: "" },
    { name: "--request-timeout=.5s (kubectl sends timeout=500ms)", argv: ["--request-timeout=.5s", "status", "-n", "app"], status: 0, stdout: /^NAME /u, stderr: "" },
    { name: "-v=-1 (klog's level -1 logs nothing, as kubectl)", argv: ["-v=-1", "status", "-n", "app"], status: 0, stdout: /^NAME /u, stderr: "" },
    {
      name: "---x (kubectl: error: bad flag syntax: ---x)",
      argv: ["---x", "status"],
      status: 2,
      stderr: "error: bad flag syntax: ---x (see 'kubectl ptah -h' for help and examples)\n",
    },
    {
      name: "--=x after the command (kubectl: get's bad flag syntax)",
      argv: ["status", "--=x"],
      status: 2,
      stderr: "error: bad flag syntax: --=x (see 'kubectl ptah status -h' for help and examples)\n",
    },
    // `kubectl -- get` finds no command (it prints the root's help): the words after -- are arguments.
    {
      name: "-- before the command",
      argv: ["--", "status"],
      status: 2,
      stderr: "error: name a command before \"--\": the words after it are arguments, never a command (see 'kubectl ptah -h' for help and examples)\n",
    },
    // `kubectl --watch get pods`: cobra takes get for --watch's value, and the root has no --watch.
    {
      name: "a command's boolean flag before the command",
      argv: ["--watch", "status"],
      status: 2,
      stderr: "error: unknown flag: --watch (see 'kubectl ptah -h' for help and examples)\n",
    },
    {
      name: "-v beyond int32 (kubectl's line)",
      argv: ["-v=99999999999", "status"],
      status: 2,
      stderr: /^error: invalid argument "99999999999" for "-v, --v" flag: strconv\.ParseInt: parsing "99999999999": value out of range /u,
    },
  ])("$name", async ({ argv, status, stdout, stderr }) => {
    const reader = cluster();
    const r = await runCliWith(argv, reader);
    expect(r.status, r.stderr).toBe(status);
    if (stdout) expect(r.stdout).toMatch(stdout);
    else expect(r.stdout).toBe("");
    if (typeof stderr === "string") expect(r.stderr).toBe(stderr);
    else expect(r.stderr).toMatch(stderr);
    if (status !== 0) expect(reader.requests).toEqual([]);
  });

  it("reads --request-timeout=.5s as 500 ms and -v=-1 as level -1", async () => {
    let seen: { requestTimeoutMs: number; verbosity: number } | undefined;
    await runCliWith(["--request-timeout=.5s", "-v=-1", "status", "-n", "app"], cluster(), { onConnect: (g) => (seen = g) });
    expect(seen).toMatchObject({ requestTimeoutMs: 500, verbosity: -1 });
  });

  it.each([["--version"], ["--version", "status"], ["-n", "x", "--version"], ["-A", "--version"]])(
    "%j prints the version (upstream's first word; cobra's root flag)",
    async (...argv) => {
      const r = await runCliWith(argv, undefined);
      expect(r).toMatchObject({ status: 0, stdout: "kubectl-ptah v0.0.0-test\n", stderr: "" });
    },
  );
});
