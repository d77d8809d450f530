// The hidden `__complete` command: Cobra's completion protocol, which kubectl (>= 1.26) speaks
// with plugins through `kubectl_complete-ptah` and our own bash/zsh/fish scripts speak with the
// plugin directly. Input: the words typed after "kubectl ptah", the last one being the word under
// the cursor ("" for a new word). Output: one candidate per line, optionally "value\tdescription",
// then ":<directive>" (Cobra's ShellCompDirective bits, below). Completion never fails loudly:
// whatever goes wrong (no kubeconfig, an unreachable or slow cluster, Forbidden) the answer is
// just ":4", nothing on stderr, exit 0. Names come from the cluster with a short timeout and
// honour -n/--namespace, --context and --kubeconfig typed on the line.
import { COMMANDS, findCommand } from "../commands/index.ts";
import type { AnyCommand, Connection, FlagSpec, GlobalOptions } from "../commands/types.ts";
import { shellContext, type Environment } from "./context.ts";
import { GLOBAL_FLAGS } from "./global-flags.ts";

type KindName = Parameters<Connection["reader"]["list"]>[0];

/** Cobra's ShellCompDirective bits. */
export const Directive = {
  default: 0,
  error: 1,
  noSpace: 2,
  noFileComp: 4,
  filterFileExt: 8,
  filterDirs: 16,
  keepOrder: 32,
} as const;

/** Per-request timeout for names from the cluster, and the ceiling for the whole lookup. */
export const COMPLETION_REQUEST_TIMEOUT_MS = 2000;
export const COMPLETION_DEADLINE_MS = 3000;

export interface Candidate {
  readonly value: string;
  readonly description?: string;
}

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
export async function runComplete(args: readonly string[], environment: Environment): Promise<string> {
  try {
    return formatCompletion(await complete(args, environment));
  } catch {
    return formatCompletion({ candidates: [], directive: Directive.noFileComp });
  }
}

// ---------------------------------------------------------------------------------------------
// What the line says so far

const HELP_FLAG: FlagSpec = { name: "help", alias: "h", type: "boolean", describe: "Show help" };
const VERSION_FLAG: FlagSpec = { name: "version", type: "boolean", describe: "Print the plugin's version" };

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

/** A tolerant scan: the line is unfinished, so nothing here may throw or be strict. */
export function scanLine(words: readonly string[]): Line {
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
      continue;
    }
    if (!afterDashDash && w === "--") {
      afterDashDash = true;
      continue;
    }
    if (!afterDashDash && w.startsWith("-") && w !== "-") {
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
      continue;
    }
    if (word === undefined) {
      word = w;
      command = findCommand(w);
    } else {
      positionals.push(w);
    }
  }
  return { word, command, positionals, flags, pendingFlag, afterDashDash };
}

// ---------------------------------------------------------------------------------------------
// Completing

async function complete(args: readonly string[], environment: Environment): Promise<Completion> {
  const toComplete = args.length > 0 ? args[args.length - 1]! : "";
  const line = scanLine(args.slice(0, -1));

  if (line.pendingFlag) return completeFlagValue(line.pendingFlag, toComplete, line, environment);
  const named = kindAfterValueWord(args.slice(0, -1), line.command);
  if (named) return offline(filter((await clusterNames(named, line, environment)).map((value) => ({ value })), toComplete));
  if (!line.afterDashDash && toComplete.startsWith("-")) {
    const eq = toComplete.indexOf("=");
    if (eq >= 0) {
      // `--output=ya`: Cobra completes the value alone; the shell keeps the "--output=" part.
      const spec = findFlag(toComplete.slice(0, eq), line.command);
      if (!spec || spec.type === "boolean") return none();
      return completeFlagValue(spec, toComplete.slice(eq + 1), line, environment);
    }
    return completeFlagNames(toComplete, line);
  }
  if (line.word === undefined) return offline(filter(commandCandidates(), toComplete));
  if (line.word === "help") return offline(line.positionals.length === 0 ? filter(commandCandidates(), toComplete) : []);
  if (!line.command) return none();
  return completePositional(line.command, line, toComplete, environment);
}

function none(): Completion {
  return { candidates: [], directive: Directive.noFileComp };
}

function offline(candidates: readonly Candidate[], directive: number = Directive.noFileComp): Completion {
  return { candidates, directive };
}

function filter(candidates: readonly Candidate[], prefix: string): Candidate[] {
  return candidates.filter((c) => c.value.startsWith(prefix));
}

function commandCandidates(): Candidate[] {
  return COMMANDS.map((c) => ({ value: c.name, description: c.summary }));
}

function completeFlagNames(toComplete: string, line: Line): Completion {
  const out: Candidate[] = [];
  for (const f of flagsFor(line.command)) {
    // A flag already given is not offered again (Cobra does the same for non-repeatable flags).
    if (line.flags.has(f.name)) continue;
    const long = `--${f.name}`;
    if (long.startsWith(toComplete)) out.push({ value: long, description: f.describe });
    // Shorthands only for a bare "-", as Cobra does; "--x" asks for long names.
    if (toComplete === "-" && f.alias) out.push({ value: `-${f.alias}`, description: f.describe });
  }
  return offline(out);
}

// --------------------------------------------------------------------------------- flag values

/** The -o values a command accepts, read from its usage line ("-o wide|json|jsonpath=TEMPLATE"). */
export function outputFormats(command: AnyCommand | undefined): string[] {
  if (command?.name === "explain") return ["json", "name"];
  const usage = command?.usage ?? "";
  const match = /-o\s+([A-Za-z|=-]+)/u.exec(usage);
  if (!match) return [];
  return match[1]!.split("|").map((f) => (f.includes("=") ? f.slice(0, f.indexOf("=") + 1) : f));
}

const DRY_RUN: Readonly<Record<string, readonly string[]>> = { approve: ["none", "client", "server"], acknowledge: ["server"] };
const WAIT_FOR = ["condition=", "phase=", "approval=consumed", "approval=reserved"];

async function completeFlagValue(flag: FlagSpec, toComplete: string, line: Line, environment: Environment): Promise<Completion> {
  const values = (list: readonly string[]): Completion => {
    const found = list.filter((v) => v.startsWith(toComplete));
    // "jsonpath=" and "condition=" need more typing: no space after them.
    const noSpace = found.some((v) => v.endsWith("="));
    return offline(
      found.map((value) => ({ value })),
      Directive.noFileComp | (noSpace ? Directive.noSpace : 0),
    );
  };
  switch (flag.name) {
    case "output":
      return values(outputFormats(line.command));
    case "color":
      return values(["auto", "always", "never"]);
    case "dry-run":
      return values(DRY_RUN[line.command?.name ?? ""] ?? []);
    case "for":
      return values(WAIT_FOR);
    case "probe":
      // doctor --probe SCHEMA: schema names of the namespace on the line.
      return offline(filter((await clusterNames("PtahSchema", line, environment)).map((value) => ({ value })), toComplete));
    case "kubeconfig":
      // A path: let the shell complete files.
      return { candidates: [], directive: Directive.default };
    case "context":
      return offline(filter(await contextNames(line, environment), toComplete));
    default:
      return flag.valueWords ? values(Object.keys(flag.valueWords)) : none();
  }
}

/** `--from approval <TAB>`: the kind whose names follow the value word just typed, if any. */
function kindAfterValueWord(words: readonly string[], command: AnyCommand | undefined): KindName | undefined {
  const last = words[words.length - 1];
  const before = words[words.length - 2];
  const fromEq = last?.startsWith("--") && last.includes("=") ? last : undefined;
  const [flagWord, value] = fromEq ? [fromEq.slice(0, fromEq.indexOf("=")), fromEq.slice(fromEq.indexOf("=") + 1)] : [before, last];
  if (!flagWord || value === undefined) return undefined;
  const flag = findFlag(flagWord, command);
  return flag?.valueWords && Object.hasOwn(flag.valueWords, value) ? flag.valueWords[value] : undefined;
}

async function contextNames(line: Line, environment: Environment): Promise<Candidate[]> {
  try {
    const { loadKubeconfig } = await import("../kube/connect.ts");
    const doc = loadKubeconfig({ kubeconfig: line.flags.get("kubeconfig") || undefined }, environment.env);
    return (doc.contexts ?? []).map((c) => ({ value: String(c.name) }));
  } catch {
    return [];
  }
}

// --------------------------------------------------------------------------------- positionals

type Slot = { readonly kind: "names"; readonly of: KindName; readonly keyword?: "migration" } | { readonly kind: "words"; readonly words: readonly string[] };

/**
 * What the next positional of each command is. Commands that take "SCHEMA | migration
 * MIGRATION" offer schema names and the keyword "migration" first, then migration names.
 */
function slotFor(command: AnyCommand, positionals: readonly string[]): Slot | "topics" | undefined {
  const n = positionals.length;
  switch (command.name) {
    case "status":
    case "schema":
    case "plan":
    case "diff":
      return n === 0 ? { kind: "names", of: "PtahSchema" } : undefined;
    case "migration":
    case "acknowledge":
      return n === 0 ? { kind: "names", of: "PtahMigration" } : undefined;
    case "approve":
    case "approvals":
    case "ledger":
    case "history":
    case "wait":
      if (n === 0) return { kind: "names", of: "PtahSchema", keyword: "migration" };
      if (n === 1 && positionals[0] === "migration") return { kind: "names", of: "PtahMigration" };
      return undefined;
    case "completion":
      return n === 0 ? { kind: "words", words: ["bash", "zsh", "fish", "kubectl"] } : undefined;
    case "explain":
      return "topics";
    default:
      return undefined;
  }
}

async function completePositional(command: AnyCommand, line: Line, toComplete: string, environment: Environment): Promise<Completion> {
  const slot = slotFor(command, line.positionals);
  if (slot === undefined) return none();
  if (slot === "topics") {
    // `explain approval NAME` and `explain migration NAME` diagnose that object; the same words
    // also narrow topics (`explain approval stale`): offer both.
    const first = line.positionals[0];
    if (line.positionals.length === 1 && (first === "approval" || first === "migration")) {
      const [names, topics] = await Promise.all([
        clusterNames(first === "approval" ? "PtahSchemaApproval" : "PtahMigration", line, environment),
        topicCandidates(environment, toComplete, first === "approval" ? ["PtahSchemaApproval", "PtahMigrationApproval"] : ["PtahMigration"]),
      ]);
      return offline([...filter(names.map((value) => ({ value })), toComplete), ...topics]);
    }
    return offline(await topicCandidates(environment, toComplete));
  }
  if (slot.kind === "words") return offline(filter(slot.words.map((value) => ({ value })), toComplete));
  const keyword: Candidate[] = slot.keyword ? [{ value: slot.keyword, description: "Name a PtahMigration instead" }] : [];
  const names = await clusterNames(slot.of, line, environment);
  return offline(filter([...names.map((value) => ({ value })), ...keyword], toComplete));
}

/**
 * Topic words of `explain`, from the explain command itself (its `-o json` listing); only those
 * that apply to one of `appliesTo` when given.
 */
async function topicCandidates(environment: Environment, toComplete: string, appliesTo?: readonly string[]): Promise<Candidate[]> {
  const explain = findCommand("explain");
  if (!explain) return [];
  const global: GlobalOptions = { ...completionGlobals(new Map()), output: "json" };
  const options: unknown = explain.toOptions({ positionals: [], flags: {}, global });
  // The shell's own context: with no words explain lists its topics and never connects.
  const result = await explain.run(options, shellContext(environment, global));
  if (result.kind !== "printed") return [];
  const stdout = result.stdout;
  const entries = JSON.parse(stdout) as unknown;
  if (!Array.isArray(entries)) return [];
  const seen = new Map<string, Candidate>();
  const lower = toComplete.toLowerCase();
  for (const e of entries as Array<{ id?: unknown; title?: unknown; summary?: unknown; appliesTo?: unknown }>) {
    if (appliesTo && !(Array.isArray(e.appliesTo) && e.appliesTo.some((k) => appliesTo.includes(String(k))))) continue;
    const title = typeof e.title === "string" && !/\s/u.test(e.title) ? e.title : typeof e.id === "string" ? e.id : undefined;
    if (!title || seen.has(title)) continue;
    // Topic words are matched in any case by explain, so offer them for any case typed.
    if (!title.toLowerCase().startsWith(lower)) continue;
    seen.set(title, { value: title, ...(typeof e.summary === "string" ? { description: e.summary } : {}) });
  }
  return [...seen.values()];
}

function completionGlobals(flags: ReadonlyMap<string, string>): GlobalOptions {
  return {
    kubeconfig: flags.get("kubeconfig") || undefined,
    context: flags.get("context") || undefined,
    namespace: flags.get("namespace") || undefined,
    allNamespaces: false,
    output: undefined,
    selector: undefined,
    noHeaders: false,
    color: false,
    requestTimeoutMs: COMPLETION_REQUEST_TIMEOUT_MS,
    overrides: {
      cluster: flags.get("cluster") || undefined,
      user: flags.get("user") || undefined,
      server: flags.get("server") || undefined,
      as: flags.get("as") || undefined,
    },
    verbosity: 0,
    warningsAsErrors: false,
  };
}

/** Names of `kind` in the namespace the line selects; [] on any failure or after the deadline. */
async function clusterNames(kind: KindName, line: Line, environment: Environment): Promise<string[]> {
  const global = completionGlobals(line.flags);
  const lookup = async (): Promise<string[]> => {
    // Never interactive: an exec credential plugin must not prompt in the middle of a <TAB>.
    const connection = await shellContext({ ...environment, stdinIsTTY: false }, global).connect();
    const list = await connection.reader.list(kind, { namespace: connection.namespace });
    return list.items.map((i) => (i.raw.metadata as { name?: unknown } | undefined)?.name).filter((n): n is string => typeof n === "string");
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), COMPLETION_DEADLINE_MS);
    timer.unref();
  });
  try {
    return await Promise.race([lookup().catch(() => []), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
