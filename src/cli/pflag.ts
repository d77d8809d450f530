// kubectl's command-line grammar (spf13/pflag, as cobra uses it), restated: long flags as
// `--name=value` or `--name value`, booleans as `--name` or `--name=false`; shorthand groups
// (`-Ao wide`, `-ojson`, `-o=json`, `-nshop`, `-lapp=x`), where a value flag takes the rest of
// the group or, if nothing is left, the next word; `--` ends the flags; positionals may sit
// anywhere; a single-valued flag given twice keeps the last value, a repeatable one collects
// every value. Errors are pflag's words, one line each.
import { UsageError } from "../errors.ts";
import type { FlagSpec } from "../commands/command-types.ts";

export type FlagValue = string | boolean | readonly string[];

export interface ParsedFlags {
  readonly positionals: string[];
  /** By long name: string for value flags, boolean for booleans, string[] for repeatable flags. */
  readonly values: Record<string, FlagValue>;
}

/** strconv.ParseBool's spellings. */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

function describeFlag(f: FlagSpec): string {
  return f.alias ? `-${f.alias}, --${f.name}` : `--${f.name}`;
}

function parseBool(f: FlagSpec, text: string): boolean {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new UsageError(`invalid argument "${text}" for "${describeFlag(f)}" flag: strconv.ParseBool: parsing "${text}": invalid syntax`);
}

interface Table {
  readonly long: ReadonlyMap<string, FlagSpec>;
  readonly short: ReadonlyMap<string, FlagSpec>;
}

function table(specs: readonly FlagSpec[]): Table {
  const long = new Map<string, FlagSpec>();
  const short = new Map<string, FlagSpec>();
  for (const f of specs) {
    long.set(f.name, f);
    if (f.alias) short.set(f.alias, f);
  }
  return { long, short };
}

/** Parses `argv` against `specs`; an unknown flag is pflag's one-line error. */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const t = table(specs);
  const positionals: string[] = [];
  const values: Record<string, FlagValue> = {};
  const set = (f: FlagSpec, value: string | true): void => {
    if (f.type === "boolean") values[f.name] = value === true ? true : parseBool(f, value);
    else if (f.repeatable) values[f.name] = [...((values[f.name] as readonly string[] | undefined) ?? []), value as string];
    else values[f.name] = value as string;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      // pflag's parseLongArg: a name may not start with "-" or "=".
      if (a[2] === "-" || a[2] === "=") throw new UsageError(`bad flag syntax: ${a}`);
      const eq = a.indexOf("=");
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const f = t.long.get(name);
      if (!f) throw new UsageError(`unknown flag: --${name}`);
      if (eq >= 0) set(f, a.slice(eq + 1));
      else if (f.type === "boolean") set(f, true);
      else if (i + 1 < argv.length) set(f, argv[++i]!);
      else throw new UsageError(`flag needs an argument: --${name}`);
      continue;
    }
    if (a.startsWith("-") && a !== "-") {
      // A shorthand group: booleans until a value flag, which takes what is left.
      let rest = a.slice(1);
      while (rest !== "") {
        const c = rest[0]!;
        const f = t.short.get(c);
        if (!f) throw new UsageError(`unknown shorthand flag: '${c}' in -${rest}`);
        if (rest.length > 2 && rest[1] === "=") {
          set(f, rest.slice(2));
          rest = "";
        } else if (f.type === "boolean") {
          set(f, true);
          rest = rest.slice(1);
        } else if (rest.length > 1) {
          set(f, rest.slice(1));
          rest = "";
        } else if (i + 1 < argv.length) {
          set(f, argv[++i]!);
          rest = "";
        } else {
          throw new UsageError(`flag needs an argument: '${c}' in -${rest}`);
        }
      }
      continue;
    }
    positionals.push(a);
  }
  return { positionals, values };
}

/**
 * The command word and its index, found as cobra finds a subcommand (Command.Find's stripFlags)
 * knowing only `specs` (the root's flags): `--` ends the search with no command (what follows it
 * is arguments); a flag the root does not know is taken to have a value, as cobra takes it
 * (`-L app status` finds status; `--watch status` finds none, as `kubectl --watch get pods`
 * does); `--name` or `-x` whose value would be the last word leaves no command (cobra's `-n get`).
 * A shorthand group ending in a value flag (`-An shop status`) is walked as parseFlags reads it,
 * where cobra would take `shop` for the command (docs/decisions.md).
 */
export function findCommandWord(argv: readonly string[], specs: readonly FlagSpec[]): { word: string | undefined; index: number } {
  const t = table(specs);
  const takesValue = (f: FlagSpec | undefined): boolean => f?.type !== "boolean";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    let skip = false;
    if (a.startsWith("--")) skip = !a.includes("=") && takesValue(t.long.get(a.slice(2)));
    else if (a.startsWith("-") && a.length === 2) skip = takesValue(t.short.get(a[1]!));
    else if (a.startsWith("-") && a.length > 2 && !a.includes("=")) {
      // Walk a known group: the value flag that ends it takes the next word only when nothing
      // of the group is left.
      for (let j = 1; j < a.length; j++) {
        const f = t.short.get(a[j]!);
        if (!f) break;
        if (f.type !== "boolean") {
          skip = j === a.length - 1;
          break;
        }
      }
    } else if (a !== "" && !a.startsWith("-")) return { word: a, index: i };
    if (skip) {
      if (argv.length - i - 1 <= 1) break;
      i++;
    }
  }
  return { word: undefined, index: -1 };
}
