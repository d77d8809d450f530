// kubectl's command-line grammar (spf13/pflag, as cobra uses it), restated: long flags as
// `--name=value` or `--name value`, booleans as `--name` or `--name=false`; shorthand groups
// (`-Ao wide`, `-ojson`, `-o=json`, `-nshop`, `-lapp=x`), where a value flag takes the rest of
// the group or, if nothing is left, the next word; `--` ends the flags; positionals may sit
// anywhere; a single-valued flag given twice keeps the last value, a repeatable one collects
// every value. Errors are pflag's words, one line each.
import { UsageError } from "../errors.ts";
import type { FlagSpec } from "../commands/types.ts";

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
 * The first word that is neither a flag nor a flag's value (the command name) and its index,
 * knowing only `specs` (the global flags): an unknown flag is taken to stand alone.
 */
export function findCommandWord(argv: readonly string[], specs: readonly FlagSpec[]): { word: string | undefined; index: number } {
  const t = table(specs);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return { word: argv[i + 1], index: i + 1 };
    if (a.startsWith("--")) {
      const f = t.long.get(a.slice(2));
      if (f && f.type !== "boolean" && !a.includes("=")) i++;
      continue;
    }
    if (a.startsWith("-") && a !== "-") {
      // Walk the group as parseFlags does: the value flag that ends it takes the next word
      // only when nothing of the group is left.
      for (let j = 1; j < a.length; j++) {
        const f = t.short.get(a[j]!);
        if (!f) break;
        if (f.type !== "boolean") {
          if (j === a.length - 1) i++;
          break;
        }
      }
      continue;
    }
    return { word: a, index: i };
  }
  return { word: undefined, index: -1 };
}
