// The shape of a knowledge-base entry and of its topic ids. Ids are derived from the wire
// words at the type level (`PlanNoLongerCurrent` → `reason/plan-no-longer-current`), so a
// `related` link to a topic that does not exist fails to compile.
import type { ApprovalState, CONDITION_KINDS, Concept, ConditionKindSlug, EventReason, MigrationPhase, PtahKind, Reason, RunOutcome, SchemaPhase } from "./vocabulary.ts";

type KebabTail<S extends string> = S extends `${infer C}${infer R}` ? `${C extends Lowercase<C> ? C : `-${Lowercase<C>}`}${KebabTail<R>}` : "";
/** CamelCase → kebab-case, at the type level (mirrors `kebab()` in knowledge.ts). */
export type Kebab<S extends string> = S extends `${infer C}${infer R}` ? `${Lowercase<C>}${KebabTail<R>}` : S;

type ConditionTopicId = {
  [K in ConditionKindSlug]: `condition/${K}/${Kebab<(typeof CONDITION_KINDS)[K]["types"][number]>}`;
}[ConditionKindSlug];

/** Every topic id; stable, so a diagnosis can cite entries by id. */
export type TopicId =
  | `concept/${Concept}`
  | `approval-state/${Kebab<ApprovalState>}`
  | ConditionTopicId
  | `reason/${Kebab<Reason>}`
  | `phase/schema/${Kebab<SchemaPhase>}`
  | `phase/migration/${Kebab<MigrationPhase>}`
  | `outcome/${Kebab<RunOutcome>}`
  | `event/${Kebab<EventReason>}`;

export type TopicKind = "concept" | "approval-state" | "condition-type" | "reason" | "phase" | "outcome" | "event";

/** The order topic kinds are listed in: what a newcomer needs first comes first. */
export const TOPIC_KINDS: readonly TopicKind[] = ["concept", "approval-state", "condition-type", "reason", "phase", "outcome", "event"];

/**
 * Placeholders a next command may contain. A diagnosis fills them with the names it read
 * (`fillPlaceholders` in knowledge.ts); the coverage test refuses any other `<word>`.
 */
export const PLACEHOLDERS = ["schema", "migration", "approval", "acknowledgment", "realm", "namespace", "job"] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export interface NextCommand {
  /** Exact command line, starting with `kubectl`; may contain `<placeholder>`s. */
  readonly command: string;
  /** Why run it, one short line. */
  readonly purpose: string;
}

/** What an author writes for one topic; id, kind and title are derived from its key. */
export interface TopicText {
  /** One line (at most 72 characters) for topic lists and candidate lists. */
  readonly summary: string;
  /** Plain words that should find this topic; unique across the knowledge base. */
  readonly aliases?: readonly string[];
  /**
   * Words that also name another topic first (`exclusive` is PostgreSQL's lock mode before it is a
   * realm's sharing): such a word finds that topic and lists this one beside it.
   */
  readonly alsoNamed?: readonly string[];
  readonly meaning: string;
  readonly why: string;
  readonly operatorNext: string;
  readonly userAction: string;
  readonly next: readonly NextCommand[];
  readonly related: readonly TopicId[];
}

/** A topic whose kinds are not implied by its key (reasons, concepts, events, states). */
export interface KindedTopicText extends TopicText {
  readonly appliesTo: readonly PtahKind[];
}

/** A topic as the knowledge base holds it: the author's text with its id, kind, title and kinds. */
export interface KnowledgeEntry extends Omit<TopicText, "aliases" | "alsoNamed"> {
  readonly id: TopicId;
  readonly kind: TopicKind;
  /** The exact wire word (`PlanNoLongerCurrent`); for concepts, the concept's name. */
  readonly title: string;
  readonly appliesTo: readonly PtahKind[];
  readonly aliases: readonly string[];
  /** Present only where the author wrote some (see TopicText.alsoNamed). */
  readonly alsoNamed?: readonly string[];
}
