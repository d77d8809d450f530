// `--version`, answered in one place: upstream's rule (the first argument alone, whatever
// follows) and cobra's root flag (`kubectl ptah -n x --version`: a line with no
// command whose root flags include it). main.ts asks before the rest of the CLI loads (a start
// that only prints the version should not pay for every command); runCli asks the same.
import { GLOBAL_FLAGS, VERSION_FLAG } from "./global-flags.ts";
import { findCommandWord, parseFlags } from "./pflag.ts";

/** `kubectl-ptah <version>\n` when the line asks for the version, else undefined. */
export function versionAnswer(argv: readonly string[], version: string): string | undefined {
  if (argv[0] !== "--version") {
    if (!argv.includes("--version") || findCommandWord(argv, GLOBAL_FLAGS).word !== undefined) return undefined;
    try {
      if (parseFlags(argv, [...GLOBAL_FLAGS, VERSION_FLAG]).values.version !== true) return undefined;
    } catch {
      return undefined; // the line's own error is runCli's to report
    }
  }
  return `kubectl-ptah ${version}\n`;
}
