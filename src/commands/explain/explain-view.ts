// Text of `kubectl ptah explain`: one topic, the topic list and a list of candidates. Plain
// text, the same at every terminal width (prose wraps at a fixed column, commands never
// wrap), no trailing spaces, no colour. Pure.
import { KNOWLEDGE, findTopic, type KnowledgeEntry, type TopicKind } from "../../explain/knowledge.ts";
import { normalizeWord } from "../../explain/lookup.ts";

/** Prose wraps here (indent included); a command or a longer word keeps its own line. */
const WRAP_COLUMN = 80;
const INDENT = "  ";
/** How much of an unplaced query the refusal repeats. */
const ECHO_LIMIT = 100;

export function renderTopic(entry: KnowledgeEntry, others: readonly KnowledgeEntry[] = []): string {
  const lines: string[] = [`${entry.title} (${kindLabel(entry)})`, `${entry.summary}.`];
  // A word that is this topic's name and another's second reading (exclusive: the lock mode, and a
  // realm's sharing) says so before anything else.
  const homonyms = others.filter((o) => o.alsoNamed !== undefined);
  if (homonyms.length > 0) lines.push(...wrap(`Not this? The same word also names ${homonyms.map((o) => `${o.id}: ${o.summary}`).join("; ")}.`));
  lines.push("", `Topic:       ${entry.id}`, `Applies to:  ${entry.appliesTo.join(", ")}`);
  const aliases = entry.aliases.filter((a) => normalizeWord(a) !== normalizeWord(entry.title));
  if (aliases.length > 0) lines.push(`Also called: ${aliases.join(", ")}`);
  section(lines, "What it means", wrap(entry.meaning));
  section(lines, entry.kind === "concept" || entry.kind === "condition-type" ? "Why it matters" : "Why it happens", wrap(entry.why));
  section(lines, "What the operator does next", wrap(entry.operatorNext));
  section(lines, "What to do", wrap(entry.userAction));
  section(
    lines,
    "Next",
    entry.next.flatMap((n) => [`# ${n.purpose}`, n.command]),
  );
  const related = entry.related.map((id) => findTopic(id)).filter((e) => e !== undefined);
  if (related.length > 0) section(lines, "Related topics", topicRows(related));
  const unlisted = others.filter((o) => o !== entry && !related.includes(o));
  if (unlisted.length > 0) section(lines, "Other topics with this name", topicRows(unlisted));
  return finish(lines);
}

/** Every topic, grouped by kind (and by object kind where names repeat across kinds). */
export function renderTopicList(entries: readonly KnowledgeEntry[] = KNOWLEDGE): string {
  const lines: string[] = [
    "Topics for 'kubectl ptah explain TOPIC'. Matching ignores case, spaces and hyphens,",
    "and also accepts plain words such as stale, consumed or destructive. A line kubectl",
    "printed (a refusal, a condition message) can be given whole, or read with '-'.",
  ];
  const groups = new Map<string, KnowledgeEntry[]>();
  for (const entry of entries) {
    const heading = groupHeading(entry);
    const group = groups.get(heading);
    if (group) group.push(entry);
    else groups.set(heading, [entry]);
  }
  for (const [heading, group] of groups) {
    const width = Math.max(...group.map((e) => e.title.length));
    section(
      lines,
      heading,
      group.map((e) => `${e.title.padEnd(width)}  ${e.summary}`),
    );
  }
  lines.push(
    "",
    "Some names belong to several topics (Ready, InSync, Blocked, Pending ...). Narrow",
    "them with a kind or an object, e.g. 'kubectl ptah explain reason Stale' or",
    "'kubectl ptah explain migration phase Blocked', or give a topic id such as",
    "'kubectl ptah explain condition/schema/ready'.",
  );
  return finish(lines);
}

/** The answer to an ambiguous query: every candidate with its id, to run again with one. */
export function renderCandidates(query: string, candidates: readonly KnowledgeEntry[]): string {
  const lines = [`${quote(query)} matches ${candidates.length} topics:`, ...topicRows(candidates).map((r) => INDENT + r)];
  lines.push("", "Run 'kubectl ptah explain <topic>' with one of the topics above.");
  return finish(lines);
}

/** The one-line refusal for a query that matches nothing (no `error: ` prefix, no period). */
/**
 * Suggestions in the vocabulary the user types: the wire word or concept name (`explain
 * PlanNoLongerCurent` → `PlanNoLongerCurrent`), each once, never an internal slug.
 */
export function formatUnknownTopic(query: string, suggestions: readonly KnowledgeEntry[]): string {
  const ids = [...new Set(suggestions.map((s) => s.title))];
  // A pasted paragraph is echoed by its start: the error stays one readable line.
  const echo = query.length > ECHO_LIMIT ? `${query.slice(0, ECHO_LIMIT)}…` : query;
  if (ids.length === 0) return `no topic ${quote(echo)}; run 'kubectl ptah explain' to list topics`;
  const last = ids.pop();
  const choices = ids.length === 0 ? `${last}` : `${ids.join(", ")} or ${last}`;
  return `no topic ${quote(echo)}; did you mean ${choices}?`;
}

// ---------------------------------------------------------------- helpers

const KIND_LABELS: Readonly<Record<TopicKind, string>> = {
  concept: "concept",
  "approval-state": "approval state",
  "condition-type": "condition type",
  reason: "condition reason",
  phase: "phase",
  outcome: "migration run outcome",
  event: "event",
};

function kindLabel(entry: KnowledgeEntry): string {
  const label = KIND_LABELS[entry.kind];
  return entry.kind === "condition-type" || entry.kind === "phase" ? `${label} of ${entry.appliesTo.join(", ")}` : label;
}

function groupHeading(entry: KnowledgeEntry): string {
  switch (entry.kind) {
    case "concept":
      return "Concepts";
    case "approval-state":
      return "Approval states (as 'kubectl ptah approvals' derives them)";
    case "condition-type":
      return `Condition types of ${entry.appliesTo.join(", ")}`;
    case "reason":
      return "Condition reasons";
    case "phase":
      return `Phases of ${entry.appliesTo.join(", ")}`;
    case "outcome":
      return "Run outcomes of PtahMigration (status.lastRun.outcome)";
    case "event":
      return "Events";
  }
}

function topicRows(entries: readonly KnowledgeEntry[]): string[] {
  const width = Math.max(...entries.map((e) => e.id.length));
  return entries.map((e) => `${e.id.padEnd(width)}  ${e.summary}`);
}

export function section(lines: string[], heading: string, body: readonly string[]): void {
  lines.push("", `${heading}:`, ...body.map((line) => INDENT + line));
}

/** Greedy word wrap of one paragraph to WRAP_COLUMN minus the indent. */
export function wrap(text: string): string[] {
  const width = WRAP_COLUMN - INDENT.length;
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line !== "") out.push(line);
  return out;
}

/**
 * Typed text echoed back, in double quotes. JSON quoting escapes C0 controls and quotes; DEL,
 * C1 controls and bidirectional or invisible format characters are escaped as well, so an
 * argument can never move the cursor or reorder the terminal's text.
 */
export function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function finish(lines: readonly string[]): string {
  return `${lines.map((l) => l.trimEnd()).join("\n")}\n`;
}
