// The shape of one message the operator (or its chart's policies) writes: its text as a template
// with slots, the topic that explains it, and what a reader is told when a pasted line is placed
// on it. Slots: {user} a username; {detail} the error text after a colon; {count} a number;
// {op} an operation ID; {realm} and {namespace} Go-quoted names; {outcome} a run outcome word;
// {kind} schema or migration; the three identity words of approvals and acknowledgments. The
// approval policies' messages add {schema} and {migration} (object names), {group}, {have} (a
// count), {users} (a list), {key}/{current} (annotation keys), {risk}, {windows}, {at} (a
// timestamp), {from}/{to} (dates) and {zone}. Derived
// for the answer only: {target} (`<schema>` or `migration <migration>`, as approve takes it).
import type { NextCommand, TopicId } from "../knowledge-types.ts";

export const SLOTS = [
  "user",
  "detail",
  "count",
  "op",
  "realm",
  "namespace",
  "outcome",
  "kind",
  "object",
  "stamp",
  "identity",
  "schema",
  "migration",
  "group",
  "have",
  "users",
  "key",
  "current",
  "risk",
  "windows",
  "at",
  "from",
  "to",
  "zone",
] as const;
export type Slot = (typeof SLOTS)[number];

/** Who writes a message: an admission refusal, or a condition's message on an object. */
export type MessageSource =
  | "schema approval admission"
  | "migration approval admission"
  | "approval admission"
  | "acknowledgment admission"
  | "manager-state guard"
  | "apply-policy guard"
  | "approval policy"
  | "condition";

export interface MessageTemplate {
  /** The message with `{slot}`s, as the contract quotes it. */
  readonly text: string;
  readonly source: MessageSource;
  readonly topic: TopicId;
  /** One or two sentences: why this message was written; may use the template's slots. */
  readonly cause: string;
  /** What to check first; may use slots. */
  readonly check: string;
  /** Commands with `<placeholder>`s (filled from the pasted line's object) and `{slot}`s. */
  readonly next: readonly NextCommand[];
  /** For a condition message: the condition as `Type=Status` and the kind that carries it. */
  readonly condition?: { readonly kind: string; readonly typeStatus: string; readonly reason: string };
}
