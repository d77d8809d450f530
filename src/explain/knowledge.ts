// The knowledge base: one entry per concept, approval state, condition type (per kind),
// reason, phase (per kind), run outcome and event of the operator's vocabulary (vocabulary.ts). The text
// lives in ./topics/; this module derives ids and titles from the wire words and checks, by
// type, that no word of the vocabulary lacks an entry. Pure data: no I/O.
import type { PlanBindingInput } from "../model/binding-inputs.ts";
import { BINDING_INPUT_TOPICS, type BindingInputText } from "./topics/binding-input-topics.ts";
import { CONCEPT_TOPICS } from "./topics/concepts.ts";
import { OTHER_CONDITION_TOPICS } from "./topics/conditions-other.ts";
import { SCHEMA_CONDITION_TOPICS } from "./topics/conditions-schema.ts";
import { EVENT_TOPICS } from "./topics/events.ts";
import { MIGRATION_PHASE_TOPICS, SCHEMA_PHASE_TOPICS } from "./topics/phases.ts";
import { INPUT_REASON_TOPICS } from "./topics/reasons-inputs.ts";
import { MIGRATION_REASON_TOPICS } from "./topics/reasons-migration.ts";
import { PLAN_REASON_TOPICS } from "./topics/reasons-plan.ts";
import { APPROVAL_STATE_TOPICS, OUTCOME_TOPICS } from "./topics/states.ts";
import type { KindedTopicText, KnowledgeEntry, Placeholder, TopicId, TopicKind, TopicText } from "./knowledge-types.ts";
import {
  APPROVAL_STATES,
  CONCEPTS,
  CONDITION_KINDS,
  EVENT_REASONS,
  MIGRATION_PHASES,
  REASONS,
  RUN_OUTCOMES,
  SCHEMA_PHASES,
  type ConditionKey,
  type ConditionKindSlug,
  type PtahKind,
  type Reason,
} from "./vocabulary.ts";

export type { KnowledgeEntry, NextCommand, Placeholder, TopicId, TopicKind } from "./knowledge-types.ts";
export type { BindingInputText } from "./topics/binding-input-topics.ts";
export { PLACEHOLDERS, TOPIC_KINDS } from "./knowledge-types.ts";

/** Every reason has an entry: a reason missing from all three parts does not compile. */
export const REASON_TOPICS = {
  ...INPUT_REASON_TOPICS,
  ...PLAN_REASON_TOPICS,
  ...MIGRATION_REASON_TOPICS,
} satisfies Record<Reason, KindedTopicText>;

/** Every condition type of every kind has an entry, keyed "schema/Ready", "acknowledgment/Stale", … */
export const CONDITION_TOPICS: Record<ConditionKey, TopicText> = {
  ...prefixKeys("schema", SCHEMA_CONDITION_TOPICS),
  ...OTHER_CONDITION_TOPICS,
} satisfies Record<ConditionKey, TopicText>;

function prefixKeys<P extends string, T extends Record<string, TopicText>>(prefix: P, record: T): { [K in keyof T & string as `${P}/${K}`]: T[K] } {
  const out: Record<string, TopicText> = {};
  for (const [key, value] of Object.entries(record)) out[`${prefix}/${key}`] = value;
  return out as { [K in keyof T & string as `${P}/${K}`]: T[K] };
}

/** CamelCase → kebab-case, the runtime twin of the `Kebab` type ("InSync" → "in-sync"). */
export function kebab(word: string): string {
  return word.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `-${c.toLowerCase()}`));
}

function build(kind: TopicKind, id: string, title: string, appliesTo: readonly PtahKind[], text: TopicText): KnowledgeEntry {
  return {
    id: id as TopicId,
    kind,
    title,
    appliesTo,
    aliases: text.aliases ?? [],
    ...(text.alsoNamed ? { alsoNamed: text.alsoNamed } : {}),
    summary: text.summary,
    meaning: text.meaning,
    why: text.why,
    operatorNext: text.operatorNext,
    userAction: text.userAction,
    next: text.next,
    related: text.related,
  };
}

function buildAll(): readonly KnowledgeEntry[] {
  const out: KnowledgeEntry[] = [];
  for (const c of CONCEPTS) {
    const t = CONCEPT_TOPICS[c];
    out.push(build("concept", `concept/${c}`, c, t.appliesTo, t));
  }
  for (const s of APPROVAL_STATES) {
    const t = APPROVAL_STATE_TOPICS[s];
    out.push(build("approval-state", `approval-state/${kebab(s)}`, s, t.appliesTo, t));
  }
  for (const slug of Object.keys(CONDITION_KINDS) as ConditionKindSlug[]) {
    const { kind, types } = CONDITION_KINDS[slug];
    for (const type of types) {
      const t = CONDITION_TOPICS[`${slug}/${type}` as ConditionKey];
      out.push(build("condition-type", `condition/${slug}/${kebab(type)}`, type, [kind], t));
    }
  }
  for (const r of REASONS) {
    const t = REASON_TOPICS[r];
    out.push(build("reason", `reason/${kebab(r)}`, r, t.appliesTo, t));
  }
  for (const p of SCHEMA_PHASES) {
    out.push(build("phase", `phase/schema/${kebab(p)}`, p, ["PtahSchema"], SCHEMA_PHASE_TOPICS[p]));
  }
  for (const p of MIGRATION_PHASES) {
    out.push(build("phase", `phase/migration/${kebab(p)}`, p, ["PtahMigration"], MIGRATION_PHASE_TOPICS[p]));
  }
  for (const o of RUN_OUTCOMES) {
    const t = OUTCOME_TOPICS[o];
    out.push(build("outcome", `outcome/${kebab(o)}`, o, t.appliesTo, t));
  }
  for (const e of EVENT_REASONS) {
    const t = EVENT_TOPICS[e];
    out.push(build("event", `event/${kebab(e)}`, e, t.appliesTo, t));
  }
  return out;
}

/** Every entry, in listing order: concepts, approval states, condition types, reasons, phases, outcomes, events. */
export const KNOWLEDGE: readonly KnowledgeEntry[] = buildAll();

const BY_ID: ReadonlyMap<string, KnowledgeEntry> = new Map(KNOWLEDGE.map((e) => [e.id, e]));

/** The entry for a known id; ids are closed, so this never misses for a `TopicId`. */
export function getTopic(id: TopicId): KnowledgeEntry {
  const entry = BY_ID.get(id);
  if (!entry) throw new Error(`knowledge base has no entry ${id}`);
  return entry;
}

/** The entry for an id typed by a person or read from elsewhere (case-insensitive), if any. */
export function findTopic(id: string): KnowledgeEntry | undefined {
  return BY_ID.get(id.toLowerCase());
}

// ---------------------------------------------------------------- citing entries from live objects
// A diagnosis reads wire words from objects (a condition's type and reason, a phase, an
// event's reason) and cites the entry that explains them. Unknown words (the operator adds
// reasons over time) give undefined, never an error.

const CONDITION_SLUG_OF_KIND: Partial<Record<PtahKind, ConditionKindSlug>> = Object.fromEntries(
  (Object.keys(CONDITION_KINDS) as ConditionKindSlug[]).map((slug) => [CONDITION_KINDS[slug].kind, slug]),
);

export function topicForCondition(kind: PtahKind, type: string): KnowledgeEntry | undefined {
  const slug = CONDITION_SLUG_OF_KIND[kind];
  return slug ? exactWord(`condition/${slug}/`, type) : undefined;
}

export function topicForReason(reason: string): KnowledgeEntry | undefined {
  return exactWord("reason/", reason);
}

export function topicForPhase(kind: "PtahSchema" | "PtahMigration", phase: string): KnowledgeEntry | undefined {
  return exactWord(kind === "PtahSchema" ? "phase/schema/" : "phase/migration/", phase);
}

/**
 * A phase word written as a condition's reason (a live run recorded `Ready=False` with reason
 * `Observing` while an operation ran): the phase it names, for "an operation is running". No
 * reasons table lists such a word, so it is read as the phase, never as an unknown reason.
 */
export function phaseWordAsReason(kind: "PtahSchema" | "PtahMigration", reason: string): KnowledgeEntry | undefined {
  return topicForReason(reason) ? undefined : topicForPhase(kind, reason);
}

export function topicForEvent(reason: string): KnowledgeEntry | undefined {
  return exactWord("event/", reason);
}

export function topicForOutcome(outcome: string): KnowledgeEntry | undefined {
  return exactWord("outcome/", outcome);
}

export function topicForApprovalState(state: string): KnowledgeEntry | undefined {
  return exactWord("approval-state/", state);
}

/** Wire words are case-sensitive: only the exact spelling cites an entry. */
function exactWord(prefix: string, word: string): KnowledgeEntry | undefined {
  const entry = BY_ID.get(prefix + kebab(word));
  return entry && entry.title === word ? entry : undefined;
}

/**
 * Fills `<schema>`, `<migration>`, … in a next command with names a diagnosis read; a
 * placeholder without a value stays as it is. Values are inserted verbatim: callers pass
 * Kubernetes object names, which cannot contain spaces or shell metacharacters.
 */
export function fillPlaceholders(command: string, values: Partial<Record<Placeholder, string>>): string {
  return command.replace(/<([a-z]+)>/g, (whole, name: string) => values[name as Placeholder] ?? whole);
}

/** What one input of a plan's fingerprint is, and what a difference in it means (`diff`). */
export function bindingInputTopic(input: PlanBindingInput): BindingInputText {
  return BINDING_INPUT_TOPICS[input];
}
