// Text and JSON of `explain` for a pasted line placed on the operator's message: where it came
// from, the cause, what to check and the next commands, with the line's names filled back in.
// Every name from the line is sanitised; a name goes into a command only when it is a
// Kubernetes object name (no space or shell character can reach a command line).
import { sanitize } from "../../errors.ts";
import { findTopic } from "../../explain/knowledge.ts";
import type { Placed } from "../../explain/message-match.ts";
import type { Slot } from "../../explain/topics/message-types.ts";
import { isDnsSubdomain } from "../../model/names.ts";
import { finish, section, wrap } from "./explain-view.ts";

type Placeholder = "schema" | "migration" | "approval" | "acknowledgment" | "realm" | "namespace";

const RESOURCE_PLACEHOLDER: Readonly<Record<string, Placeholder>> = {
  ptahschema: "schema",
  ptahmigration: "migration",
  ptahschemaapproval: "approval",
  ptahmigrationapproval: "approval",
  ptahmigrationrunacknowledgment: "acknowledgment",
};

/** The object names the line gave: the wrapper's object, the message's realm and namespace. */
function names(p: Placed): Partial<Record<Placeholder, string>> {
  const out: Partial<Record<Placeholder, string>> = {};
  const resource = p.context.resource
    ?.toLowerCase()
    .replace(/\.operator\.ptah\.run$/u, "")
    .replace(/s$/u, "");
  const kind = resource ? RESOURCE_PLACEHOLDER[resource] : undefined;
  if (kind && p.context.name) out[kind] = p.context.name;
  if (p.slots.schema) out.schema = p.slots.schema;
  if (p.slots.migration) out.migration = p.slots.migration;
  if (p.slots.realm) out.realm = p.slots.realm;
  if (p.slots.namespace) out.namespace = p.slots.namespace;
  return out;
}

/** `{slot}`s of the template's prose, with the line's values (sanitised). */
function fillProse(text: string, p: Placed): string {
  return text.replace(/\{([a-z]+)\}/gu, (whole, slot: string) => {
    const value = p.slots[slot as Slot];
    return value === undefined ? whole : sanitize(value);
  });
}

/** A next command: `{kind}`/`{target}` from the kind slot, then `<placeholder>`s with names that are object names. */
function fillCommand(command: string, p: Placed): string {
  const kind = p.slots.kind;
  const withKind = kind
    ? command.replace(/\{kind\}/gu, kind).replace(/\{target\}/gu, kind === "schema" ? "<schema>" : "migration <migration>")
    : command.replace(/\{target\}/gu, "<schema>");
  const values = names(p);
  return withKind.replace(/<([a-z]+)>/gu, (whole, name: string) => {
    const value = values[name as Placeholder];
    return value !== undefined && isDnsSubdomain(value) ? value : whole;
  });
}

function sourceLabel(p: Placed): string {
  const c = p.template.condition;
  if (c) return `condition message: ${c.typeStatus} ${c.reason} on a ${c.kind}`;
  if (p.context.webhook) return `refused by admission webhook ${sanitize(p.context.webhook)}`;
  if (p.context.policy) return `refused by ValidatingAdmissionPolicy ${sanitize(p.context.policy)}`;
  return `refused by the operator's ${p.template.source}`;
}

export interface PlacedAnswer {
  readonly message: string;
  readonly source: string;
  readonly topic: string;
  readonly slots: Readonly<Partial<Record<Slot, string>>>;
  readonly object?: { readonly resource: string; readonly name: string };
  readonly cause: string;
  readonly check: string;
  readonly next: readonly { readonly command: string; readonly purpose: string }[];
}

/** One placed line as data: what -o json prints, and what the text is made of. */
export function placedAnswer(p: Placed): PlacedAnswer {
  const slots = Object.fromEntries(Object.entries(p.slots).map(([k, v]) => [k, sanitize(v)]));
  return {
    message: sanitize(p.message),
    source: sourceLabel(p),
    topic: p.template.topic,
    slots,
    ...(p.context.resource && p.context.name ? { object: { resource: sanitize(p.context.resource), name: sanitize(p.context.name) } } : {}),
    cause: fillProse(p.template.cause, p),
    check: fillProse(p.template.check, p),
    next: p.template.next.map((n) => ({ command: fillCommand(n.command, p), purpose: fillProse(n.purpose, p) })),
  };
}

const SLOT_LABELS: Partial<Record<Slot, string>> = {
  user: "user",
  realm: "realm",
  namespace: "namespace",
  schema: "schema",
  migration: "migration",
  group: "group",
  count: "count",
  have: "has",
  users: "endorsers",
  current: "current key",
  key: "key",
  at: "at",
  op: "operation",
  outcome: "outcome",
  detail: "detail",
};

export function renderPlaced(placed: readonly Placed[]): string {
  const lines: string[] = [];
  placed.forEach((p, i) => {
    const a = placedAnswer(p);
    const topic = findTopic(a.topic);
    if (i > 0) lines.push("", "---", "");
    lines.push(`${topic?.title ?? a.topic} (${a.source})`);
    if (topic) lines.push(`${topic.summary}.`);
    lines.push("", `Message:     ${a.message}`, `Topic:       ${a.topic}`);
    if (a.object) lines.push(`Object:      ${a.object.resource} ${a.object.name}`);
    if (p.context.file) {
      const what = [p.context.verb, p.context.file, p.context.status ? `(${p.context.status})` : undefined].filter((w) => w !== undefined && w !== "");
      lines.push(`Request:     ${sanitize(what.join(" "))}`);
    }
    const named = (Object.keys(SLOT_LABELS) as Slot[]).filter((s) => a.slots[s] !== undefined).map((s) => `${SLOT_LABELS[s]} ${a.slots[s]}`);
    if (named.length > 0) lines.push(`Names:       ${named.join(", ")}`);
    section(lines, "Cause", wrap(a.cause));
    section(lines, "What to check", wrap(a.check));
    section(
      lines,
      "Next",
      a.next.flatMap((n) => [`# ${n.purpose}`, n.command]),
    );
    section(lines, "More", [`kubectl ptah explain ${a.topic}`]);
  });
  return finish(lines);
}
