// -o, parsed in one place (commands/shared/output-flag.ts): every command × every format word
// through the real shell. A declared format reaches the command's run; any other word is the one
// refusal, whatever the command: stdout empty, one `error:` line naming the word and the
// command's formats, exit 2 (a usage error, upstream's status for an unknown -o). Each command
// runs with its own declaration and a stubbed run, so the table needs no cluster.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALL_COMMANDS } from "../../src/commands/all-commands.ts";
import type { AnyCommand } from "../../src/commands/command-types.ts";
import { runCliWith } from "../support/cli.ts";

/** The stubbed command: its declaration as it is, a run that only says it ran. */
function stubbed(command: AnyCommand): AnyCommand {
  return { ...command, run: async () => ({ kind: "printed", stdout: "ran\n" }) };
}

/** A line of the command that its toOptions takes: the first permission form with a command line. */
function lineOf(command: AnyCommand): readonly string[] {
  return command.permissions.find((p) => p.argv !== undefined)?.argv ?? [command.name];
}

/** A value for a declared format: the placeholder after "=" filled in. */
const ARGUMENTS: Readonly<Record<string, string>> = { jsonpath: "{.metadata.name}", "custom-columns": "NAME:.metadata.name", "custom-columns-file": "columns.txt" };
function valueOf(format: string): string {
  const eq = format.indexOf("=");
  return eq < 0 ? format : `${format.slice(0, eq)}=${ARGUMENTS[format.slice(0, eq)]}`;
}

// Every word any command declares, kubectl's printer names (`kubectl get -o bogus` lists them),
// the default views' names (`text`, `table`) and a word nobody knows.
const KUBECTL_PRINTERS = [
  "custom-columns",
  "custom-columns-file",
  "go-template",
  "go-template-file",
  "json",
  "jsonpath",
  "jsonpath-as-json",
  "jsonpath-file",
  "name",
  "template",
  "templatefile",
  "wide",
  "yaml",
];
const DECLARED = ALL_COMMANDS.flatMap((c) => c.outputs.map(valueOf));
// A printer that some command declares with an argument is given a valid one above; "=x" is for the rest.
const TAKES_ARGUMENT = new Set(ALL_COMMANDS.flatMap((c) => c.outputs.filter((f) => f.includes("=")).map((f) => f.slice(0, f.indexOf("=")))));
const WORDS = [
  ...new Set([...DECLARED, ...KUBECTL_PRINTERS, ...KUBECTL_PRINTERS.filter((w) => !TAKES_ARGUMENT.has(w)).map((w) => `${w}=x`), "text", "table", "csv", "bogus"]),
].sort();

function refusal(command: AnyCommand, value: string): string {
  return `error: unknown output format "${value}"; it is one of [${command.outputs.join(" ")}] (see 'kubectl ptah ${command.name} -h' for help and examples)\n`;
}

const CASES = ALL_COMMANDS.flatMap((command) => WORDS.map((value) => ({ name: command.name, value, declared: command.outputs.map(valueOf).includes(value), command })));

describe("-o against every command's declared formats", () => {
  it.each(CASES)("$name -o $value (declared: $declared)", async ({ command, value, declared }) => {
    const r = await runCliWith([...lineOf(command), "-o", value], undefined, { commands: [stubbed(command)] });
    if (declared) expect(r).toMatchObject({ status: 0, stdout: "ran\n", stderr: "" });
    // A declared format that takes an argument, given without one: the command says what is missing.
    else if (command.outputs.includes(`${value}=${value === "jsonpath" ? "TEMPLATE" : value === "custom-columns" ? "SPEC" : "FILE"}`)) {
      expect(r).toMatchObject({ status: 2, stdout: "" });
      expect(r.stderr).toMatch(/^error: (template|custom-columns|custom-columns-file) format specified but no [a-z ]+ given \(see /u);
    } else expect(r).toMatchObject({ status: 2, stdout: "", stderr: refusal(command, value) });
  });

  it("runs every command's line without -o, and with an empty -o as without", async () => {
    for (const command of ALL_COMMANDS) {
      for (const extra of [[], ["-o", ""]]) {
        const r = await runCliWith([...lineOf(command), ...extra], undefined, { commands: [stubbed(command)] });
        expect({ name: command.name, ...r }).toMatchObject({ name: command.name, status: 0, stdout: "ran\n" });
      }
    }
  });

  // The upstream-shaped views' `text` is declared where upstream's plugin has it, and nowhere else.
  it("declares -o text exactly on plan, schema, migration and diff", () => {
    expect(ALL_COMMANDS.filter((c) => c.outputs.includes("text")).map((c) => c.name)).toEqual(["schema", "plan", "diff", "migration"]);
  });

  // An independent reading of the rule: a value is accepted when it is a declared format, or
  // starts with the word of a declared format that takes an argument followed by "=" (or is
  // that word alone: the command then says what is missing).
  it("accepts exactly what the declaration names, for any value typed", async () => {
    const status = ALL_COMMANDS.find((c) => c.name === "status")!;
    const words = ["json", "yaml", "wide", "name", "jsonpath", "custom-columns", "custom-columns-file", "text", "go-template", ""];
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.tuple(fc.constantFrom(...words), fc.constantFrom("", "="), fc.string({ maxLength: 6 })).map(([w, eq, rest]) => w + eq + rest),
    );
    await fc.assert(
      fc.asyncProperty(value, async (o) => {
        const withArgument = ["jsonpath", "custom-columns", "custom-columns-file"];
        const word = o.split("=")[0]!;
        const accepted = ["wide", "json", "yaml", "name"].includes(o) || withArgument.includes(word);
        const r = await runCliWith(["status", `--output=${o}`], undefined, { commands: [stubbed(status)] });
        if (o === "") expect(r.status).toBe(0);
        else if (accepted) expect(r.stderr).not.toContain("unknown output format");
        else expect(r).toMatchObject({ status: 2, stdout: "", stderr: refusal(status, o) });
      }),
      { numRuns: 200 },
    );
  });
});
