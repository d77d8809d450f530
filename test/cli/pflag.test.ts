// pflag's grammar (cli/pflag.ts): a table of kubectl's forms with their meaning, pflag's error
// lines, and a property: every spelling of the same flags parses to the same values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import type { FlagSpec } from "../../src/commands/types.ts";
import { findCommandWord, parseFlags } from "../../src/cli/pflag.ts";
import { runs } from "../properties/runs.ts";

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
    { argv: ["--unknown", "status"], word: "status", index: 1 },
    { argv: ["--", "status"], word: "status", index: 1 },
    { argv: ["-A"], word: undefined, index: -1 },
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
