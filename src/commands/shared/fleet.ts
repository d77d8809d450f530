// A fleet of clusters: `--contexts a,b,c` and `--all-contexts` read the same
// command from several kubeconfig contexts, in parallel and at most --max-concurrent-contexts at a time
// (FLEET_CONCURRENCY by default: 50 contexts in one round, each its own connection).
// Each context that fails is one stderr line naming it (`error: context "b": …`) while the others
// print; the exit status is 0 when at least one context answered, 1 when none did.
import { PtahError, UsageError, sanitize } from "../../errors.ts";
import type { FlagSpec, GlobalOptions, Printed, RunContext } from "../command-types.ts";

/**
 * Contexts read at once unless --max-concurrent-contexts says otherwise: enough that a fleet of 50
 * is one round (wall time ≈ its slowest context), bounded so a kubeconfig of hundreds never opens
 * hundreds of sockets at once. Each context in flight holds its own connection (one TLS context,
 * one kept-alive socket per request in parallel).
 */
export const FLEET_CONCURRENCY = 50;

export const FLEET_FLAGS: readonly FlagSpec[] = [
  { name: "contexts", type: "string", value: "A,B,…", describe: "Read these kubeconfig contexts (comma-separated) in parallel; the table gains a CONTEXT column" },
  { name: "all-contexts", type: "boolean", describe: "Read every context of the kubeconfig in parallel; the table gains a CONTEXT column" },
  {
    name: "max-concurrent-contexts",
    type: "string",
    value: "N",
    default: String(FLEET_CONCURRENCY),
    describe: "With --contexts or --all-contexts: how many contexts are read at once, each over its own connection; the rest wait for a free slot",
  },
];

/** The contexts asked for — a list, or every one ("all") — and how many are read at once; undefined: one cluster, as before. */
export type FleetChoice = { readonly contexts: readonly string[] | "all"; readonly concurrency: number } | undefined;

/**
 * An int flag as pflag reads it, strconv.ParseInt(text, 0, 64): a sign, then decimal, 0x hex, 0o or
 * leading-0 octal, 0b binary, `_` between digits; pflag's error lines.
 */
export function parseIntFlag(text: string, flag: string): number {
  const error = (why: string) => new UsageError(`invalid argument ${JSON.stringify(text)} for "--${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: ${why}`);
  const m = /^([+-]?)(0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/u.exec(text);
  if (!m) throw error("invalid syntax");
  const digits = m[2]!.replace(/_/gu, "");
  const magnitude = BigInt(/^0[0-7]/u.test(digits) ? `0o${digits.slice(1)}` : digits);
  const value = m[1] === "-" ? -magnitude : magnitude;
  if (value < -(2n ** 63n) || value >= 2n ** 63n) throw error("value out of range");
  return Number(value);
}

export function parseFleet(flags: Readonly<Record<string, unknown>>, global: GlobalOptions, command: string): FleetChoice {
  const list = typeof flags.contexts === "string" ? flags.contexts : undefined;
  const all = flags["all-contexts"] === true;
  const most = typeof flags["max-concurrent-contexts"] === "string" ? parseIntFlag(flags["max-concurrent-contexts"], "max-concurrent-contexts") : FLEET_CONCURRENCY;
  if (most < 1) throw new UsageError("--max-concurrent-contexts must be greater than 0", command);
  if (list === undefined && !all) return undefined;
  if (list !== undefined && all) throw new UsageError("--contexts and --all-contexts both name the contexts to read; give one", command);
  if (global.context !== undefined) throw new UsageError("--context names one context; with --contexts or --all-contexts, name them there", command);
  if (all) return { contexts: "all", concurrency: most };
  const names = [...new Set(list!.split(",").map((n) => n.trim()))];
  if (names.some((n) => n === "")) throw new UsageError(`--contexts is a comma-separated list of context names, not ${JSON.stringify(list)}`, command);
  return { contexts: names, concurrency: most };
}

/** A context name as a shell word in a command line a person copies. */
export function shellWord(text: string): string {
  const s = sanitize(text);
  return /^[A-Za-z0-9._:@/+=-]+$/u.test(s) ? s : `'${s.replace(/'/gu, `'\\''`)}'`;
}

/** A NEXT command aimed at one context: `kubectl ptah …` and `kubectl create …` both gain `--context`. */
export function aimAt(command: string, context: string): string {
  const flag = `--context ${shellWord(context)}`;
  return command.replace(/\bkubectl ptah /gu, `kubectl ptah ${flag} `).replace(/\bkubectl create /gu, `kubectl ${flag} create `);
}

export interface FleetAnswer<T> {
  readonly context: string;
  readonly value: T;
}

export interface FleetResult<T> {
  /** In the order the contexts were named (the kubeconfig's order for --all-contexts). */
  readonly answers: readonly FleetAnswer<T>[];
  /** One line per context that failed, in the same order. */
  readonly failures: readonly string[];
}

function failureLine(context: string, err: unknown): string {
  const message = err instanceof PtahError || err instanceof Error ? err.message : String(err);
  return `error: context "${sanitize(context)}": ${sanitize(message)}`;
}

/**
 * Reads every context with `read` (its own RunContext), at most `choice.concurrency` at once: each
 * slot takes the next context as soon as its last one answers or fails. The outcomes are kept by
 * index, so the output is in the contexts' order whatever order they finish in.
 */
export async function readFleet<T>(ctx: RunContext, choice: Exclude<FleetChoice, undefined>, read: (c: RunContext) => Promise<T>): Promise<FleetResult<T>> {
  if (!ctx.forContext || !ctx.kubeconfigContexts) throw new UsageError("this shell cannot read several contexts");
  const names = choice.contexts === "all" ? await ctx.kubeconfigContexts() : choice.contexts;
  if (names.length === 0) throw new UsageError("the kubeconfig has no contexts to read");
  const outcomes: ({ ok: true; value: T } | { ok: false; line: string })[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const i = next++;
      const name = names[i]!;
      try {
        outcomes[i] = { ok: true, value: await read(ctx.forContext!(name)) };
      } catch (err) {
        outcomes[i] = { ok: false, line: failureLine(name, err) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(choice.concurrency, names.length) }, worker));
  const answers: FleetAnswer<T>[] = [];
  const failures: string[] = [];
  outcomes.forEach((o, i) => (o.ok ? answers.push({ context: names[i]!, value: o.value }) : failures.push(o.line)));
  return { answers, failures };
}

/** Each answer's warning lines (`Warning: …`), naming its context: `Warning: context east: …`. */
export function contextWarnings<T>(answers: readonly FleetAnswer<T>[], warningsOf: (value: T) => string): string {
  return answers
    .flatMap((a) =>
      warningsOf(a.value)
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => `${l.replace(/^Warning: /u, `Warning: context ${sanitize(a.context)}: `)}\n`),
    )
    .join("");
}

/** The empty fleet's stderr line, as kubectl's "No resources found" names where it looked. */
export function noResourcesInFleet<T>(result: FleetResult<T>): string {
  return result.answers.length === 0 ? "" : `No resources found in the ${result.answers.length === 1 ? "context" : `${result.answers.length} contexts`} read.\n`;
}

/** What a fleet command printed: its text, the failures on stderr (after any note), exit 1 when no context answered. */
export function fleetPrinted<T>(result: FleetResult<T>, stdout: string, note = ""): Printed {
  const stderr = [...result.failures.map((l) => `${l}\n`), note].join("");
  return { kind: "printed", stdout: result.answers.length > 0 ? stdout : "", ...(stderr ? { stderr } : {}), ...(result.answers.length === 0 ? { exitStatus: 1 } : {}) };
}
