// yargs only parses: global flags plus the chosen command's flags, strict, no exit, no help
// of its own. Commands run outside yargs so a network error never prints usage
// (yargs issues #2394 and #2084).
import yargs from "yargs";
import { UsageError } from "../errors.ts";
import type { AnyCommand as Command, FlagSpec } from "../commands/types.ts";
import { GLOBAL_FLAGS } from "./global-flags.ts";

export interface ParsedLine {
  readonly positionals: string[];
  readonly values: Record<string, unknown>;
  readonly help: boolean;
}

const VALUE_FLAGS = new Set<string>();
for (const f of GLOBAL_FLAGS) {
  if (f.type !== "boolean") {
    VALUE_FLAGS.add(`--${f.name}`);
    if ("alias" in f) VALUE_FLAGS.add(`-${f.alias}`);
  }
}

/** The first word that is not a (global) flag or a flag's value: the command name. */
export function findCommandWord(argv: readonly string[]): { word: string | undefined; index: number } {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return { word: argv[i + 1], index: i + 1 };
    if (a.startsWith("-") && a !== "-") {
      if (!a.includes("=") && VALUE_FLAGS.has(a)) i++;
      continue;
    }
    return { word: a, index: i };
  }
  return { word: undefined, index: -1 };
}

function yargsOption(f: FlagSpec): { type: "string" | "boolean" | "number"; alias?: string; requiresArg?: boolean } {
  return { type: f.type, ...(f.alias ? { alias: f.alias } : {}), ...(f.type === "boolean" ? {} : { requiresArg: true }) };
}

/**
 * `--from approval NAME` → `--from=approval/NAME` for a flag whose value word names a kind
 * (FlagSpec.valueWords), so that NAME is not read as a positional.
 */
export function joinValueWords(argv: readonly string[], flags: readonly FlagSpec[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") ? flags.find((f) => f.valueWords && f.name === (eq < 0 ? a.slice(2) : a.slice(2, eq))) : undefined;
    const word = flag ? (eq < 0 ? argv[i + 1] : a.slice(eq + 1)) : undefined;
    const next = eq < 0 ? argv[i + 2] : argv[i + 1];
    if (flag && word !== undefined && Object.hasOwn(flag.valueWords!, word) && flag.valueWords![word] !== undefined && next !== undefined && !next.startsWith("-")) {
      out.push(`--${flag.name}=${word}/${next}`);
      i += eq < 0 ? 2 : 1;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Parses one command line against the global flags and `command`'s flags. */
export function parseCommandLine(argvIn: readonly string[], command: Command | undefined): ParsedLine {
  const argv = joinValueWords(argvIn, command?.flags ?? []);
  const options: Record<string, ReturnType<typeof yargsOption>> = {};
  const flags: readonly FlagSpec[] = [...GLOBAL_FLAGS, ...(command?.flags ?? [])];
  for (const f of flags) options[f.name] = yargsOption(f);
  let parsed: Record<string, unknown>;
  try {
    parsed = yargs([...argv])
      .parserConfiguration({
        "camel-case-expansion": false,
        "boolean-negation": false,
        "dot-notation": false,
        "duplicate-arguments-array": true,
        "strip-aliased": true,
        "parse-numbers": false,
        "parse-positional-numbers": false,
        "short-option-groups": false,
      })
      .options(options)
      .strictOptions()
      .help(false)
      .version(false)
      .exitProcess(false)
      .fail((msg: string | null | undefined, err: Error | undefined) => {
        throw new UsageError(cleanYargsMessage(msg ?? err?.message ?? "invalid command line"), command?.name);
      })
      .parseSync() as Record<string, unknown>;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(cleanYargsMessage((err as Error).message), command?.name);
  }
  const positionals = ((parsed._ as unknown[]) ?? []).map(String);
  const values: Record<string, unknown> = {};
  for (const f of flags) if (parsed[f.name] !== undefined) values[f.name] = parsed[f.name];
  return { positionals, values, help: false };
}

function cleanYargsMessage(message: string): string {
  const unknown = /^Unknown arguments?: (.*)$/u.exec(message);
  if (unknown) return `unknown flag: ${unknown[1]!.split(", ").map((a) => (a.length === 1 ? `-${a}` : `--${a}`)).join(", ")}`;
  const missing = /^Not enough arguments following: (.*)$/u.exec(message);
  if (missing) return `flag needs an argument: ${missing[1]!.length === 1 ? "-" : "--"}${missing[1]}`;
  return message.charAt(0).toLowerCase() + message.slice(1);
}
