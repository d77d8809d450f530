// The hidden `__complete` command: Cobra's completion protocol, which kubectl (>= 1.26) speaks
// with plugins through `kubectl_complete-ptah` and our own bash/zsh/fish scripts speak with the
// plugin directly. Input: the words typed after "kubectl ptah", the last one being the word under
// the cursor ("" for a new word). Output: one candidate per line, optionally "value\tdescription",
// then ":<directive>" (Cobra's ShellCompDirective bits, below). Completion never fails loudly:
// whatever goes wrong the answer is just ":4", nothing on stderr, exit 0.
//
// What to offer is not decided here: each command's declaration names its positionals, flags
// and -o formats with their completion sources (commands/shared/candidates.ts); this module reads the
// line, finds the slot under the cursor and asks that slot's source, in the shell's context.
import type { CommandSet } from "../commands/registry.ts";
import { COMPLETION_REQUEST_TIMEOUT_MS, namesOf, outputFormats, startingWith, words } from "../commands/shared/candidates.ts";
import type { AnyCommand, Candidate, Candidates, CompletionQuery, CompletionSource, FlagSpec } from "../commands/command-types.ts";
import { completionContext, type Environment } from "./context.ts";
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from "./global-flags.ts";

export { COMPLETION_REQUEST_TIMEOUT_MS, outputFormats };

/** Cobra's ShellCompDirective bits. */
export const Directive = { default: 0, error: 1, noSpace: 2, noFileComp: 4, filterFileExt: 8, filterDirs: 16, keepOrder: 32 } as const;

export interface Completion {
  readonly candidates: readonly Candidate[];
  readonly directive: number;
}

/** The protocol's text: candidates, then the directive line. */
export function formatCompletion(completion: Completion): string {
  const lines = completion.candidates.map((c) => {
    const value = oneLine(c.value);
    return c.description ? `${value}\t${oneLine(c.description)}` : value;
  });
  lines.push(`:${completion.directive}`);
  return `${lines.join("\n")}\n`;
}

function oneLine(text: string): string {
  // A candidate is one line; a tab would start the description early.
  return text.replace(/[\t\r\n]+/gu, " ").trim();
}

/** `kubectl ptah __complete WORD… TO_COMPLETE` → protocol text. Never throws. */
export async function runComplete(args: readonly string[], environment: Environment, commands: CommandSet): Promise<string> {
  try {
    return formatCompletion(await complete(args, environment, commands));
  } catch {
    return formatCompletion({ candidates: [], directive: Directive.noFileComp });
  }
}

// ---------------------------------------------------------------------------------------------
// What the line says so far

interface Line {
  /** The command word, when one was typed (it may name no command). */
  readonly word: string | undefined;
  readonly command: AnyCommand | undefined;
  readonly positionals: readonly string[];
  /** Flag values by long name (the last one typed); booleans as "true". */
  readonly flags: ReadonlyMap<string, string>;
  /** A flag typed as the previous word that still waits for its value. */
  readonly pendingFlag: FlagSpec | undefined;
  /** `--` was typed: everything after it is positional. */
  readonly afterDashDash: boolean;
}

function flagsFor(command: AnyCommand | undefined): FlagSpec[] {
  const hidden = new Set(command?.hiddenGlobals ?? []);
  const globals = GLOBAL_FLAGS.filter((f) => !hidden.has(f.name));
  return command ? [...command.flags, ...globals, HELP_FLAG] : [...globals, VERSION_FLAG, HELP_FLAG];
}

function findFlag(token: string, command: AnyCommand | undefined): FlagSpec | undefined {
  // Global flags keep working even where help hides them, so look them all up.
  const all: FlagSpec[] = [...(command?.flags ?? []), ...GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG];
  if (token.startsWith("--")) return all.find((f) => f.name === token.slice(2));
  return all.find((f) => f.alias !== undefined && f.alias === token.slice(1));
}

/**
 * A tolerant scan: the line is unfinished, so nothing here may throw or be strict. `command` is
 * the declaration of the command word, once loaded (the words before it are read with the global
 * flags alone, so a first scan without it finds the same word).
 */
function scanLine(words: readonly string[], known?: AnyCommand): Line {
  let word: string | undefined;
  let command: AnyCommand | undefined;
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  let pendingFlag: FlagSpec | undefined;
  let afterDashDash = false;
  for (const w of words) {
    if (pendingFlag) {
      flags.set(pendingFlag.name, w);
      pendingFlag = undefined;
    } else if (!afterDashDash && w === "--") {
      afterDashDash = true;
    } else if (!afterDashDash && w.startsWith("-") && w !== "-") {
      // pflag's attached shorthand value: -nshop is -n shop.
      const attached = !w.startsWith("--") && w.length > 2 && w[2] !== "=" ? findFlag(w.slice(0, 2), command) : undefined;
      if (attached && attached.type !== "boolean") {
        flags.set(attached.name, w.slice(2));
        continue;
      }
      const eq = w.indexOf("=");
      const spec = findFlag(eq >= 0 ? w.slice(0, eq) : w, command);
      if (!spec) continue;
      if (eq >= 0) flags.set(spec.name, w.slice(eq + 1));
      else if (spec.type === "boolean") flags.set(spec.name, "true");
      else pendingFlag = spec;
    } else if (word === undefined) {
      word = w;
      command = known?.name === w ? known : undefined;
    } else {
      positionals.push(w);
    }
  }
  return { word, command, positionals, flags, pendingFlag, afterDashDash };
}

// ---------------------------------------------------------------------------------------------
// Completing

async function complete(args: readonly string[], environment: Environment, commands: CommandSet): Promise<Completion> {
  const toComplete = args.length > 0 ? args[args.length - 1]! : "";
  const typed = args.slice(0, -1);
  const word = scanLine(typed).word;
  const line = scanLine(typed, word === undefined ? undefined : await commands.load(word));
  // One context for the whole line, the shell's own: it connects at most once, never prompts.
  const ctx = completionContext(environment, line.flags);
  const ask = async (source: CompletionSource | undefined, word: string): Promise<Completion> => {
    const query: CompletionQuery = { toComplete: word, before: line.positionals, command: line.command, ctx, env: environment.env };
    return answer(source ? await source(query) : []);
  };

  if (line.pendingFlag) return ask(valueSource(line.pendingFlag), toComplete);
  const named = kindAfterValueWord(typed, line.command);
  if (named) return ask(named, toComplete);
  if (!line.afterDashDash && toComplete.startsWith("-")) {
    const eq = toComplete.indexOf("=");
    if (eq < 0) return answer(flagNames(toComplete, line));
    // `--output=ya`: Cobra completes the value alone; the shell keeps the "--output=" part.
    const spec = findFlag(toComplete.slice(0, eq), line.command);
    return ask(spec && spec.type !== "boolean" ? valueSource(spec) : undefined, toComplete.slice(eq + 1));
  }
  const commandNames = (q: CompletionQuery): Candidate[] =>
    startingWith(
      commands.headers.map((c) => ({ value: c.name, description: c.summary })),
      q.toComplete,
    );
  if (line.word === undefined) return ask(commandNames, toComplete);
  if (line.word === "help") return ask(line.positionals.length === 0 ? commandNames : undefined, toComplete);
  const slots = line.command?.positionals ?? [];
  const last = slots[slots.length - 1];
  const slot = slots[line.positionals.length] ?? (last?.variadic ? last : undefined);
  return ask(slot?.complete, toComplete);
}

/** Candidates as the protocol answers them: no file completion, no space after "x=". */
function answer(candidates: Candidates): Completion {
  if (candidates === "files") return { candidates: [], directive: Directive.default };
  const noSpace = candidates.some((c) => c.value.endsWith("="));
  return { candidates, directive: Directive.noFileComp | (noSpace ? Directive.noSpace : 0) };
}

/** A flag value's source: its own, else the words it declares (or whose names follow, --from approval). */
function valueSource(flag: FlagSpec): CompletionSource | undefined {
  if (flag.complete) return flag.complete;
  const list = flag.values ?? (flag.valueWords ? Object.keys(flag.valueWords) : undefined);
  return list ? words(list) : undefined;
}

function flagNames(toComplete: string, line: Line): Candidate[] {
  const out: Candidate[] = [];
  for (const f of flagsFor(line.command)) {
    // A flag already given is not offered again (Cobra does the same for non-repeatable flags).
    if (line.flags.has(f.name)) continue;
    const long = `--${f.name}`;
    if (long.startsWith(toComplete)) out.push({ value: long, description: f.describe });
    // Shorthands only for a bare "-", as Cobra does; "--x" asks for long names.
    if (toComplete === "-" && f.alias) out.push({ value: `-${f.alias}`, description: f.describe });
  }
  return out;
}

/** `--from approval <TAB>`: names of the kind the value word just typed stands for, if any. */
function kindAfterValueWord(typed: readonly string[], command: AnyCommand | undefined): CompletionSource | undefined {
  const last = typed[typed.length - 1];
  const fromEq = last?.startsWith("--") && last.includes("=") ? last : undefined;
  const [flagWord, value] = fromEq ? [fromEq.slice(0, fromEq.indexOf("=")), fromEq.slice(fromEq.indexOf("=") + 1)] : [typed[typed.length - 2], last];
  if (!flagWord || value === undefined) return undefined;
  const valueWords = findFlag(flagWord, command)?.valueWords;
  const kind = valueWords && Object.hasOwn(valueWords, value) ? valueWords[value] : undefined;
  return kind ? namesOf(kind) : undefined;
}
