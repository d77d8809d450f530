// `kubectl ptah explain [TOPIC]`: what a condition type, reason, phase, approval state, run
// outcome, event or concept means and what to do next, from the knowledge base alone —
// no cluster, no kubeconfig, no Kubernetes client. Words that name no topic may be handed to
// an optional live diagnosis of objects (`explain <schema>`, `explain approval <name>`).
import { NotFoundError, ReadError, RefusalError, UsageError } from "../../errors.ts";
import { KNOWLEDGE, findTopic, type KnowledgeEntry } from "../../explain/knowledge.ts";
import type { Placed } from "../../explain/message-match.ts";
import { lookupTopic } from "../../explain/lookup.ts";
import { isDnsSubdomain } from "../../model/names.ts";
import { formatUnknownTopic, renderCandidates, renderTopic, renderTopicList } from "./explain-view.ts";
// Eager on purpose: imported lazily, the view split the command's chunk in two, and `explain stale`
// measured 4–6 ms slower (a 101-round A/B) for the 3 KB it would have saved.
import { placedAnswer, renderPlaced } from "./explain-message-view.ts";
import { namesOf } from "../shared/candidates.ts";
import type { Candidate, CommandBody, CompletionSource, Printed, ParsedArgs, RunContext } from "../command-types.ts";
import { OFFLINE, REALM_READS, events, ptah } from "../shared/permissions.ts";
import { declaredOutput } from "../shared/output-flag.ts";

export type ExplainOutput = "text" | "json" | "name";

export interface ExplainOptions {
  /** The topic as typed, one word per argument; empty lists every topic. */
  readonly words: readonly string[];
  readonly output: ExplainOutput;
}

/**
 * Live diagnosis hook. Called with the typed words only when they match no topic and could
 * be Kubernetes object names (see `couldNameObjects`). It returns the explanation of the
 * objects, or undefined when the words name no object — including when no cluster is
 * configured — so that the user gets the topic suggestions instead. It may throw a
 * PtahError (for example ReadError when the cluster cannot be read).
 */
export type Diagnose = (words: readonly string[], ctx: RunContext) => Promise<Printed | undefined>;

const NAME = "explain";

/*
 * Decisions (what a user would expect):
 * - A topic that matches exactly is printed, exit 0. When the name is shared (Stale names an
 *   approval state, a condition type and a reason), aliases choose the entry a newcomer most
 *   likely means and the others are listed at the end.
 * - Several equally good matches (Ready, InSync, history): the candidates with their ids go to
 *   stdout, exit 0 — the lookup succeeded; the user picks one.
 * - No match: the diagnosis hook, if any and if the words could be object names; otherwise
 *   `error: no topic "x"; did you mean …?` on stderr with exit 3 (nothing there), like every
 *   other command that finds nothing to show.
 * - Topics always win over object names: a schema named like a topic word is explained as the
 *   topic. Wire words are CamelCase and object names are lowercase, so this rarely collides.
 */

/** The -o formats (the shell refuses any other). */
const OUTPUTS = ["json", "name"] as const;
export function makeExplainCommand(diagnose?: Diagnose): CommandBody<ExplainOptions> {
  return {
    positionals: [{ name: "TOPIC", variadic: true, optional: true, complete: topicWords }],
    outputs: OUTPUTS,
    examples: [
      { comment: "List every topic, grouped by kind", command: "kubectl ptah explain" },
      { comment: "What a stale approval is and what to do about it", command: "kubectl ptah explain stale" },
      { comment: "Explain a condition reason exactly as the operator writes it", command: "kubectl ptah explain PlanNoLongerCurrent" },
      { comment: "Narrow a name shared by several topics", command: "kubectl ptah explain migration phase Blocked" },
      { comment: "Print one topic as JSON", command: "kubectl ptah explain destructive -o json" },
      { comment: "Explain a refusal as kubectl printed it, names and all", command: "kubectl ptah explain 'schema requires a distinct approver, and alice last changed its spec'" },
      { comment: "Explain what kubectl printed (saved with 2>kubectl-error.txt), read from standard input", command: "kubectl ptah explain - < kubectl-error.txt" },
      { comment: "What an alert that paged you means, and the objects behind it", command: "kubectl ptah explain PtahOperatorUnresolvedApply" },
    ],
    flags: [],
    hiddenGlobals: ["all-namespaces", "selector", "no-headers"],
    permissions: [
      { form: "explain TOPIC", argv: ["explain", "stale"], rules: [], note: OFFLINE },
      {
        form: "explain SCHEMA",
        argv: ["explain", "storefront"],
        rules: [...ptah("get", "ptahschemas"), ...ptah("list", "ptahschemaapprovals")],
        note: REALM_READS,
      },
      { form: "explain approval NAME", argv: ["explain", "approval", "storefront-old"], rules: [...ptah("get", "ptahschemaapprovals", "ptahschemas"), ...events("list")] },
      {
        form: "explain migration MIGRATION",
        argv: ["explain", "migration", "billing"],
        rules: [...ptah("get", "ptahmigrations"), ...ptah("list", "ptahmigrationapprovals")],
        note: REALM_READS,
      },
    ],
    toOptions: parseExplainArgs,
    run: (options, ctx) => runExplain(options, ctx, diagnose),
  };
}

/**
 * Topic words in any case (explain matches them so), each once, with its summary. After
 * `approval` or `migration`, which also name an object to diagnose, that kind's names come
 * first, then the topics that apply to it.
 */
const topicWords: CompletionSource = async (q) => {
  const first = q.before[0];
  if (q.before.length !== 1 || (first !== "approval" && first !== "migration")) return topicCandidates(q.toComplete);
  const names = await namesOf(first === "approval" ? "PtahSchemaApproval" : "PtahMigration")(q);
  return [...names, ...topicCandidates(q.toComplete, first === "approval" ? ["PtahSchemaApproval", "PtahMigrationApproval"] : ["PtahMigration"])];
};

function topicCandidates(toComplete: string, appliesTo?: readonly string[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  const lower = toComplete.toLowerCase();
  for (const e of KNOWLEDGE) {
    if (appliesTo && !e.appliesTo.some((k) => appliesTo.includes(k))) continue;
    const word = /\s/u.test(e.title) ? e.id : e.title;
    if (seen.has(word) || !word.toLowerCase().startsWith(lower)) continue;
    seen.set(word, { value: word, description: e.summary });
  }
  return [...seen.values()];
}

export function parseExplainArgs(args: ParsedArgs): ExplainOptions {
  const words = args.positionals.map((w) => w.trim()).filter((w) => w !== "");
  return { words, output: declaredOutput(args, OUTPUTS, NAME) ?? "text" };
}

/** What `explain -` reads at most: a paste of kubectl's output, not a log file. */
const MAX_INPUT_BYTES = 1024 * 1024;

async function readInput(ctx: RunContext): Promise<string> {
  const input = ctx.input?.();
  if (!input) throw new UsageError("explain -: no standard input to read", NAME);
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of input) {
    total += chunk.length;
    if (total > MAX_INPUT_BYTES) throw new RefusalError(`standard input is larger than ${MAX_INPUT_BYTES} bytes; explain reads a pasted error, not a log`);
    parts.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return new TextDecoder().decode(bytes);
}

async function runExplain(options: ExplainOptions, ctx: RunContext, diagnose: Diagnose | undefined): Promise<Printed> {
  if (options.words.length === 0) return print(KNOWLEDGE, options.output, renderTopicList);

  const pasted = options.words.length === 1 && options.words[0] === "-" ? await readInput(ctx) : undefined;
  let nearest: readonly KnowledgeEntry[] = [];
  // A line of several words may be a message the operator wrote: the table of messages loads only
  // then, so a one-word topic (`explain stale`) never reads it.
  if (pasted !== undefined || options.words.some((w) => /\s/u.test(w)) || options.words.length > 2) {
    const messages = await import("../../explain/message-match.ts");
    const text = pasted ?? options.words.join(" ");
    const placed = messages.placeText(text);
    if (placed.length > 0) return printPlaced(placed, options.output);
    nearest = messages
      .nearestTopics(text)
      .map((id) => findTopic(id))
      .filter((e) => e !== undefined);
  }

  const query = pasted !== undefined ? pasted.replace(/\s+/gu, " ").trim() : options.words.join(" ");
  if (query === "") throw new UsageError("explain -: standard input was empty", NAME);
  const result = lookupTopic(query);
  switch (result.kind) {
    case "found":
      return print(result.entry, options.output, (entry) => renderTopic(entry, result.others));
    case "ambiguous":
      return print(result.candidates, options.output, (candidates) => renderCandidates(query, candidates));
    case "unknown": {
      if (diagnose && couldNameObjects(options.words)) {
        let diagnosis: Printed | undefined;
        try {
          diagnosis = await diagnose(options.words, ctx);
        } catch (err) {
          // The cluster failed (unreachable, timeout, forbidden): that is the answer, not "no
          // topic"; the topic lookup's result follows in the same line.
          // (`approval NAME` and the like name an object explicitly: the error alone.)
          if (err instanceof ReadError && options.words.length === 1) {
            throw new ReadError(`${err.message}; and ${formatUnknownTopic(query, result.suggestions)}`, err.httpStatus);
          }
          throw err;
        }
        if (diagnosis) return diagnosis;
      }
      throw new NotFoundError(formatUnknownTopic(query, [...new Set([...nearest, ...result.suggestions])].slice(0, 3)));
    }
  }
}

function printPlaced(placed: readonly Placed[], output: ExplainOutput): Printed {
  switch (output) {
    case "json":
      return { kind: "printed", stdout: `${JSON.stringify(placed.map(placedAnswer), null, 2)}\n` };
    case "name":
      return { kind: "printed", stdout: placed.map((p) => `${p.template.topic}\n`).join("") };
    case "text":
      return { kind: "printed", stdout: renderPlaced(placed) };
  }
}

function print<T extends KnowledgeEntry | readonly KnowledgeEntry[]>(value: T, output: ExplainOutput, renderText: (value: T) => string): Printed {
  switch (output) {
    case "json":
      return { kind: "printed", stdout: `${JSON.stringify(value, null, 2)}\n` };
    case "name": {
      const entries: readonly KnowledgeEntry[] = Array.isArray(value) ? value : [value as KnowledgeEntry];
      return { kind: "printed", stdout: entries.map((e) => `${e.id}\n`).join("") };
    }
    case "text":
      return { kind: "printed", stdout: renderText(value) };
  }
}

/**
 * Object names are lowercase DNS subdomains, so CamelCase wire words with a typo
 * (`PlanNoLongerCurent`) never reach the cluster: they get their suggestion offline.
 */
export function couldNameObjects(words: readonly string[]): boolean {
  return words.every(isDnsSubdomain);
}
