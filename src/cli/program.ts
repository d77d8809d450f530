// The command line: global flags plus the chosen command's flags, parsed by pflag's grammar
// (cli/pflag.ts). Commands run outside the parser, so a network error never prints usage.
import { UsageError } from "../errors.ts";
import type { AnyCommand as Command, FlagSpec } from "../commands/types.ts";
import { GLOBAL_FLAGS } from "./global-flags.ts";
import { findCommandWord as findWord, parseFlags } from "./pflag.ts";

export interface ParsedLine {
  readonly positionals: string[];
  readonly values: Record<string, unknown>;
  readonly help: boolean;
}

/** The first word that is not a (global) flag or a flag's value: the command name. */
export function findCommandWord(argv: readonly string[]): { word: string | undefined; index: number } {
  return findWord(argv, GLOBAL_FLAGS);
}

/** Parses one command line against the global flags and `command`'s flags. */
export function parseCommandLine(argv: readonly string[], command: Command | undefined): ParsedLine {
  const flags: readonly FlagSpec[] = [...GLOBAL_FLAGS, ...(command?.flags ?? [])];
  try {
    const parsed = parseFlags(argv, flags);
    return { positionals: parsed.positionals, values: parsed.values, help: false };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(err.message, command?.name);
    throw err;
  }
}
