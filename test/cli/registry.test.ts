// Adding a command is one declaration plus one registry entry: a throwaway command, registered
// through the same Registry type as commands/all-commands.ts, is listed and explained by help, refused
// with pflag's usage errors, and completed, with no edit anywhere else.
import { describe, expect, it } from "vitest";
import { words } from "../../src/commands/shared/candidates.ts";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import { COMMAND_HEADERS, LAZY_COMMANDS } from "../../src/commands/registry.ts";
import type { Command, Registry } from "../../src/commands/command-types.ts";
import { UsageError } from "../../src/errors.ts";
import { usageLine } from "../../src/cli/usage.ts";
import { runCliWith } from "../support/cli.ts";

const greet: Command<{ name: string; shout: boolean; tone: string }> = {
  name: "greet",
  summary: "Greet someone by name, to prove the registry",
  positionals: [{ name: "NAME", complete: words(["alice", "bob"]) }],
  outputs: ["json"],
  examples: [{ comment: "A loud greeting", command: "kubectl ptah greet alice --shout" }],
  permissions: [],
  flags: [
    { name: "shout", alias: "S", type: "boolean", describe: "Greet in capitals" },
    { name: "tone", type: "string", value: "TONE", describe: "How the greeting sounds", default: "warm", values: ["warm", "cold"] },
  ],
  hiddenGlobals: ["all-namespaces"],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one person", "greet");
    return { name: args.positionals[0]!, shout: args.flags.shout === true, tone: typeof args.flags.tone === "string" ? args.flags.tone : "warm" };
  },
  async run(o) {
    const text = `${o.tone === "cold" ? "Hello" : "Hello there"}, ${o.name}`;
    return { kind: "printed", stdout: `${o.shout ? text.toUpperCase() : text}\n` };
  },
};

const commands: Registry = [...ALL_COMMANDS, greet];
const run = (argv: readonly string[]) => runCliWith(argv, undefined, { commands });
const completed = async (...args: string[]) => (await run(["__complete", ...args])).stdout.trimEnd().split("\n");

describe("a command added to the registry, and nowhere else", () => {
  it("is unknown without its registry entry", async () => {
    expect((await runCliWith(["greet", "alice"], undefined)).stderr).toMatch(/^error: unknown command "greet"/u);
  });

  it("runs through the shell", async () => {
    expect(await run(["greet", "alice", "-S", "--tone=cold"])).toMatchObject({ stdout: "HELLO, ALICE\n", stderr: "", status: 0 });
  });

  it("is listed by the root help and has its own help from its declaration", async () => {
    expect((await run(["--help"])).stdout).toMatch(/^ {2}greet +Greet someone by name, to prove the registry$/mu);
    const help = await run(["greet", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Greet someone by name, to prove the registry.\n\nUsage:\n  kubectl ptah greet NAME [-n NAME] [-l SELECTOR] [-o json] [-S] [--tone TONE]\n");
    expect(help.stdout).toContain("  # A loud greeting\n  kubectl ptah greet alice --shout\n");
    expect(help.stdout).toMatch(/^ {2}-S, --shout +Greet in capitals$/mu);
    expect(help.stdout).toMatch(/^ {6}--tone=TONE +How the greeting sounds \(default warm\)$/mu);
    expect(help.stdout).not.toContain("--all-namespaces");
    expect((await run(["help", "greet"])).stdout).toBe(help.stdout);
  });

  it("refuses what its declaration does not allow with pflag's usage errors naming it", async () => {
    const hint = "(see 'kubectl ptah greet -h' for help and examples)\n";
    expect(await run(["greet", "alice", "--loud"])).toMatchObject({ stdout: "", stderr: `error: unknown flag: --loud ${hint}`, status: 2 });
    expect(await run(["greet", "alice", "--tone"])).toMatchObject({ stdout: "", stderr: `error: flag needs an argument: --tone ${hint}`, status: 2 });
    expect(await run(["greet", "alice", "-Sx"])).toMatchObject({ stderr: `error: unknown shorthand flag: 'x' in -x ${hint}`, status: 2 });
    expect(await run(["greet"])).toMatchObject({ stderr: `error: name one person ${hint}`, status: 2 });
  });

  it("is completed: its name, its positional's words, its flags, their values and its -o formats", async () => {
    expect(await completed("gr")).toEqual(["greet\tGreet someone by name, to prove the registry", ":4"]);
    expect(await completed("greet", "")).toEqual(["alice", "bob", ":4"]);
    expect(await completed("greet", "alice", "")).toEqual([":4"]);
    expect(await completed("greet", "--")).toEqual(
      expect.arrayContaining(["--shout\tGreet in capitals", "--tone\tHow the greeting sounds", "--namespace\tThe namespace; default: the context's namespace, else default"]),
    );
    expect(await completed("greet", "--")).not.toContain("--all-namespaces\tList across all namespaces (list views)");
    expect(await completed("greet", "--tone", "")).toEqual(["warm", "cold", ":4"]);
    expect(await completed("greet", "--tone=c")).toEqual(["cold", ":4"]);
    expect(await completed("greet", "-o", "")).toEqual(["json", ":4"]);
    expect(await completed("help", "gr")).toEqual(["greet\tGreet someone by name, to prove the registry", ":4"]);
  });
});

describe.each(ALL_COMMANDS.map((c) => [c.name, c] as const))("the declaration of %s", (_name, c) => {
  it("has a usage line written from its declaration: every positional, flag and -o format, nothing else", () => {
    const usage = usageLine(c);
    const shown = /[[\s]-o ([^\]\s]+)/u.exec(usage)?.[1];
    if (c.outputs.length > 0) expect(shown?.split("|")).toEqual(c.outputs);
    else expect(usage).not.toMatch(/[[\s]-o /u);
    for (const p of c.positionals) expect(usage).toContain(p.name);
    const flags = [...usage.matchAll(/(?<=[[( ])--?([a-zA-Z][\w-]*)/gu)].map((m) => m[1]);
    const declared = c.flags.map((f) => f.alias ?? f.name);
    const scope = ["n", "A", "l"].filter((f) => flags.includes(f));
    expect(flags).toEqual([...scope, ...(c.outputs.length > 0 ? ["o"] : []), ...declared, ...(c.ownsTimeout ? ["timeout"] : [])]);
  });

  it("has at most its last positional variadic, and a flag's words only on a value flag", () => {
    expect(c.positionals.slice(0, -1).some((p) => p.variadic)).toBe(false);
    for (const f of c.flags) if (f.values) expect(f.type).toBe("string");
  });
});

describe("the shell's lazy registry and the eager list", () => {
  it("name the same commands, in the same order, with the same declarations", async () => {
    const names = ALL_COMMANDS.map((c) => c.name);
    expect(COMMAND_HEADERS.map((h) => h.name)).toEqual(names);
    const lazy = await LAZY_COMMANDS.all();
    expect(lazy.map((c) => c.name)).toEqual(names);
    // Functions differ (explain's live diagnosis is loaded on use): the declarations' data agree.
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(ALL_COMMANDS)));
    for (const [i, c] of lazy.entries()) expect(c.summary).toBe(COMMAND_HEADERS[i]!.summary);
  });

  it("loads a command once, and no command for a word that names none", async () => {
    expect(await LAZY_COMMANDS.load("status")).toBe(await LAZY_COMMANDS.load("status"));
    expect(await LAZY_COMMANDS.load("nope")).toBeUndefined();
    expect(await LAZY_COMMANDS.load("toString")).toBeUndefined();
  });
});
