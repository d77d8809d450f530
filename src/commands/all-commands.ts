// Every command's declaration, loaded at once, in the root help's order: tests and the reference
// docs' generator import it. The shell never does: it loads one command at a time, and the single
// binary's startup-snapshot form (krew/build-binary.mjs --snapshot) loads them all through the same registry (cli/run.ts's loadAllCommands).
import { LAZY_COMMANDS } from "./registry.ts";
import type { AnyCommand, Registry } from "./command-types.ts";

/** Every command, declaration and header, in the registry's order. */
export const ALL_COMMANDS: Registry = await LAZY_COMMANDS.all();

export function findCommand(word: string, commands: Registry = ALL_COMMANDS): AnyCommand | undefined {
  return commands.find((c) => c.name === word);
}
