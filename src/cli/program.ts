// The command line: global flags plus the chosen command's flags, parsed by pflag's grammar
// (cli/pflag.ts). Commands run outside the parser, so a network error never prints usage.
import { UsageError } from "../errors.ts";
import type { AnyCommand as Command, FlagSpec } from "../commands/command-types.ts";
import { GLOBAL_FLAGS } from "./global-flags.ts";
import { findCommandWord as findWord, parseFlags } from "./pflag.ts";

export interface ParsedLine {
  readonly positionals: string[];
  readonly values: Record<string, unknown>;
}

/** The first word that is not a (global) flag or a flag's value: the command name. */
export function findCommandWord(argv: readonly string[]): { word: string | undefined; index: number } {
  return findWord(argv, GLOBAL_FLAGS);
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
  const flags: readonly FlagSpec[] = [...GLOBAL_FLAGS, ...(command?.flags ?? [])];
  try {
    const parsed = parseFlags(argv, flags);
    return { positionals: parsed.positionals, values: parsed.values };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(err.message, command?.name);
    throw err;
  }
}
