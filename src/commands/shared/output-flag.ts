// -o, parsed in one place: the shell checks every line's -o against the formats its command
// declares (Command.outputs) before toOptions, so an undeclared format has one refusal whatever
// the command; a command then reads the checked value as its own type (declaredOutput). Kept
// free of the renderers: the shell imports it on every start.
import { UsageError } from "../../errors.ts";
import type { ParsedArgs } from "../command-types.ts";

/** The word that names a format: "jsonpath=TEMPLATE" → "jsonpath". */
function formatWord(format: string): string {
  const eq = format.indexOf("=");
  return eq < 0 ? format : format.slice(0, eq);
}

/**
 * -o against the formats a command declares, as kubectl's printer flags read it: a declared word
 * taking an argument ("jsonpath=TEMPLATE") matches that word alone or followed by "=" (what follows
 * is the command's to read); any other declared word only itself. Empty or absent: none given.
 * Anything else is the one refusal: the word typed and the formats the command has.
 */
export function checkOutput(output: string | undefined, outputs: readonly string[], command: string): string | undefined {
  if (output === undefined || output === "") return undefined;
  const accepted = outputs.some((f) => (f.includes("=") ? formatWord(f) === formatWord(output) : f === output));
  if (accepted) return output;
  throw new UsageError(`unknown output format "${output}"; it is one of [${outputs.join(" ")}]`, command);
}

/** The -o formats of printed manifests (approve, acknowledge, endorse): YAML by default. */
export const MANIFEST_OUTPUTS = ["yaml", "json"] as const;

/** A command's checked -o as its own type (formats without an argument); undefined when none was given. */
export function declaredOutput<F extends string>(args: Pick<ParsedArgs, "global">, outputs: readonly F[], command: string): F | undefined {
  return checkOutput(args.global.output, outputs, command) as F | undefined;
}
