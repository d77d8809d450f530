// A command's usage line, written from its declaration and nothing else: its positionals, the
// scope flags it does not hide (-n, -A, -l), its -o formats and every flag of its own, in the
// order it declares them. Help and the reference pages print this line, so a flag or format added
// to a declaration is in its usage at once.
import type { AnyCommand, FlagSpec, Positional } from "../commands/command-types.ts";
import { GLOBAL_FLAGS } from "./global-flags.ts";

type GlobalName = (typeof GLOBAL_FLAGS)[number]["name"];

function globalFlag(name: GlobalName): FlagSpec {
  return GLOBAL_FLAGS.find((f) => f.name === name)!;
}

/** `-n NAME`, `--watch`, `--window SPEC`: the short form where the flag has one. */
function flagWords(f: FlagSpec): string {
  const name = f.alias ? `-${f.alias}` : `--${f.name}`;
  return f.type === "boolean" ? name : `${name} ${f.value ?? f.type.toUpperCase()}`;
}

function optional(words: string, f: Pick<FlagSpec, "repeatable" | "required">): string {
  const shown = f.required ? words : `[${words}]`;
  return f.repeatable ? `${shown}…` : shown;
}

/** SCHEMA, [SCHEMA], (SCHEMA | migration MIGRATION), [TOPIC]…: each positional, an alternative joined to the one before it. */
function positionalWords(positionals: readonly Positional[]): string[] {
  const groups: Positional[][] = [];
  for (const p of positionals) {
    if (p.keyword !== undefined && groups.length > 0) groups.at(-1)!.push(p);
    else groups.push([p]);
  }
  return groups.map((group) => {
    const [first] = group;
    const text = group.map((p) => (p.keyword !== undefined ? `${p.keyword} ${p.name}` : p.name)).join(" | ");
    const shown = first!.optional ? `[${text}]` : group.length > 1 ? `(${text})` : text;
    return group.some((p) => p.variadic) ? `${shown}…` : shown;
  });
}

/** The scope flags a command does not hide: `[-n NAME | -A]`, `[-l SELECTOR]`. */
function scopeWords(command: AnyCommand): string[] {
  const hidden = new Set(command.hiddenGlobals ?? []);
  const scope = (["namespace", "all-namespaces"] as const).filter((n) => !hidden.has(n)).map((n) => flagWords(globalFlag(n)));
  const words = scope.length > 0 ? [`[${scope.join(" | ")}]`] : [];
  if (!hidden.has("selector")) words.push(`[${flagWords(globalFlag("selector"))}]`);
  return words;
}

export function usageLine(command: AnyCommand): string {
  return [
    `kubectl ptah ${command.name}`,
    ...positionalWords(command.positionals),
    ...scopeWords(command),
    ...(command.outputs.length > 0 ? [`[-o ${command.outputs.join("|")}]`] : []),
    ...command.flags.map((f) => optional(flagWords(f), f)),
    // --timeout is this command's own deadline (wait), not the request timeout every line has.
    ...(command.ownsTimeout ? [optional(flagWords(globalFlag("timeout")), {})] : []),
  ].join(" ");
}
