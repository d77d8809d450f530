// Finds knowledge-base topics for what a person typed: ids, wire words in any case or
// spelling (`PlanNoLongerCurrent`, `plan-no-longer-current`, `plan no longer current`),
// aliases and whole plain words, optionally narrowed by qualifiers (`reason stale`,
// `migration phase blocked`). Typos get the nearest topics as suggestions. Pure.
import { KNOWLEDGE, type KnowledgeEntry, type TopicKind } from "./knowledge.ts";
import type { PtahKind } from "./vocabulary.ts";

/** How the found entry matched, strongest first. */
export type MatchVia = "id" | "alias" | "title" | "words";

export type LookupResult =
  /** One entry answers the query; `others` share its name and are worth a mention. */
  | { readonly kind: "found"; readonly entry: KnowledgeEntry; readonly via: MatchVia; readonly others: readonly KnowledgeEntry[] }
  /** Several entries answer it equally well, in listing order. */
  | { readonly kind: "ambiguous"; readonly candidates: readonly KnowledgeEntry[] }
  /** Nothing answers it; `suggestions` are the nearest topics (possibly none). */
  | { readonly kind: "unknown"; readonly suggestions: readonly KnowledgeEntry[] };

/** Lowercase letters and digits only: `Awaiting-Approval`, `awaiting approval` → `awaitingapproval`. */
export function normalizeWord(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Levenshtein distance (insert, delete, substitute; each costs 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitute));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

// ---------------------------------------------------------------- qualifiers

const KIND_QUALIFIERS: Readonly<Record<string, TopicKind>> = {
  concept: "concept",
  reason: "reason",
  condition: "condition-type",
  conditiontype: "condition-type",
  type: "condition-type",
  phase: "phase",
  state: "approval-state",
  approvalstate: "approval-state",
  outcome: "outcome",
  event: "event",
};

const APPROVALS: readonly PtahKind[] = ["PtahSchemaApproval", "PtahMigrationApproval"];
const PLANS: readonly PtahKind[] = ["PtahSchemaPlan", "PtahMigrationPlan"];
const ACK: readonly PtahKind[] = ["PtahMigrationRunAcknowledgment"];

const OBJECT_QUALIFIERS: Readonly<Record<string, readonly PtahKind[]>> = {
  schema: ["PtahSchema"],
  ptahschema: ["PtahSchema"],
  ptahs: ["PtahSchema"],
  migration: ["PtahMigration"],
  ptahmigration: ["PtahMigration"],
  ptahm: ["PtahMigration"],
  approval: APPROVALS,
  schemaapproval: ["PtahSchemaApproval"],
  ptahschemaapproval: ["PtahSchemaApproval"],
  migrationapproval: ["PtahMigrationApproval"],
  ptahmigrationapproval: ["PtahMigrationApproval"],
  plan: PLANS,
  schemaplan: ["PtahSchemaPlan"],
  ptahschemaplan: ["PtahSchemaPlan"],
  migrationplan: ["PtahMigrationPlan"],
  ptahmigrationplan: ["PtahMigrationPlan"],
  acknowledgment: ACK,
  acknowledgement: ACK,
  ack: ACK,
  runacknowledgment: ACK,
  ptahmigrationrunacknowledgment: ACK,
};

interface Filter {
  readonly kinds: readonly TopicKind[];
  readonly objects: readonly (readonly PtahKind[])[];
}

/** Leading qualifier tokens (one or two words each) and the words after them. */
function splitQualifiers(tokens: readonly string[]): { filter: Filter; rest: readonly string[] } {
  const kinds: TopicKind[] = [];
  const objects: (readonly PtahKind[])[] = [];
  let i = 0;
  while (tokens.length - i > 1) {
    const pair = i + 2 < tokens.length ? normalizeWord(`${tokens[i]}${tokens[i + 1]}`) : "";
    const single = normalizeWord(tokens[i] ?? "");
    const [key, width] = isQualifier(pair) ? [pair, 2] : [single, 1];
    if (!isQualifier(key)) break;
    const kind = Object.hasOwn(KIND_QUALIFIERS, key) ? KIND_QUALIFIERS[key] : undefined;
    const object = Object.hasOwn(OBJECT_QUALIFIERS, key) ? OBJECT_QUALIFIERS[key] : undefined;
    if (kind) kinds.push(kind);
    if (object) objects.push(object);
    i += width;
  }
  return { filter: { kinds, objects }, rest: tokens.slice(i) };
}

function isQualifier(key: string): boolean {
  // Own keys only: "constructor" is a word a person typed, not a qualifier every object inherits.
  return key !== "" && (Object.hasOwn(KIND_QUALIFIERS, key) || Object.hasOwn(OBJECT_QUALIFIERS, key));
}

function passes(entry: KnowledgeEntry, filter: Filter): boolean {
  if (filter.kinds.some((k) => k !== entry.kind)) return false;
  return filter.objects.every((set) => set.some((kind) => entry.appliesTo.includes(kind)));
}

// ---------------------------------------------------------------- per-entry keys

interface Keys {
  readonly entry: KnowledgeEntry;
  readonly order: number;
  readonly title: string;
  readonly aliases: readonly string[];
  readonly alsoNamed: readonly string[];
  /**
   * Whole words of the title and aliases, for plain-word matching; split on first use: an id, title
   * or alias (most queries) is answered without them, and splitting every entry's words at load cost
   * each `explain` ~0.5 ms of CPU (the bundle's explain chunk 1.4 → 0.95 ms; profiles at 50 µs samples).
   */
  readonly words: ReadonlySet<string>;
}

function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

function keysOf(entries: readonly KnowledgeEntry[]): readonly Keys[] {
  return entries.map((entry, order) => {
    let words: ReadonlySet<string> | undefined;
    return {
      entry,
      order,
      title: normalizeWord(entry.title),
      aliases: entry.aliases.map(normalizeWord),
      alsoNamed: (entry.alsoNamed ?? []).map(normalizeWord),
      get words() {
        return (words ??= new Set([entry.title, ...entry.aliases].flatMap(splitWords)));
      },
    };
  });
}

const DEFAULT_KEYS = keysOf(KNOWLEDGE);

// ---------------------------------------------------------------- matching

type Match = Exclude<LookupResult, { kind: "unknown" }>;

/** An alias names one preferred entry; a title may be shared by several (Ready, Stale, InSync…). */
function matchExact(key: string, pool: readonly Keys[]): Match | undefined {
  if (key === "") return undefined;
  const second = pool.filter((k) => k.alsoNamed.includes(key));
  const first = matchNamed(key, pool);
  if (second.length === 0) return first;
  const [only, ...more] = second;
  if (!first) return only && more.length === 0 ? { kind: "found", entry: only.entry, via: "alias", others: [] } : { kind: "ambiguous", candidates: entriesOf(second) };
  return combine(first, { kind: "ambiguous", candidates: entriesOf(second) });
}

function matchNamed(key: string, pool: readonly Keys[]): Match | undefined {
  const byAlias = pool.filter((k) => k.aliases.includes(key));
  const byTitle = pool.filter((k) => k.title === key);
  const [first, ...more] = byAlias;
  if (first && more.length === 0) {
    return { kind: "found", entry: first.entry, via: "alias", others: entriesOf(byTitle.filter((k) => k !== first)) };
  }
  const all = unique([...byAlias, ...byTitle]);
  if (all.length === 1 && all[0]) return { kind: "found", entry: all[0].entry, via: "title", others: [] };
  if (all.length > 1) return { kind: "ambiguous", candidates: entriesOf(all) };
  return undefined;
}

/** Every typed word (three letters or more) is a whole word of the entry's title or aliases. */
function matchWords(tokens: readonly string[], pool: readonly Keys[]): Match | undefined {
  const words = tokens.flatMap(splitWords).filter((w) => w.length >= 3);
  if (words.length === 0) return undefined;
  const hits = pool.filter((k) => words.every((w) => k.words.has(w)));
  const [first, ...more] = hits;
  if (!first) return undefined;
  if (more.length === 0) return { kind: "found", entry: first.entry, via: "words", others: [] };
  return { kind: "ambiguous", candidates: entriesOf(hits) };
}

/** Nearest topics by edit distance on titles and aliases, plus topics the key is a prefix of. */
function suggest(key: string, pool: readonly Keys[]): KnowledgeEntry[] {
  if (key.length < 3) return [];
  const limit = key.length <= 4 ? 1 : key.length <= 8 ? 2 : 3;
  const scored: { keys: Keys; score: number }[] = [];
  // Lengths further apart than the limit cannot be within it: a pasted line is not measured against every name.
  const measure = (name: string): number => (key.length >= 4 && name.startsWith(key) ? 0 : Math.abs(key.length - name.length) > limit ? Infinity : editDistance(key, name));
  for (const k of pool) {
    const byTitle = measure(k.title);
    const byAlias = Math.min(Infinity, ...k.aliases.map(measure));
    const distance = Math.min(byTitle, byAlias);
    // At equal distance, the topic whose alias is near wins: aliases mark the preferred reading.
    if (distance <= limit) scored.push({ keys: k, score: distance * 2 - (byAlias <= byTitle ? 1 : 0) });
  }
  scored.sort((a, b) => a.score - b.score || a.keys.order - b.keys.order);
  return scored.slice(0, 5).map((s) => s.keys.entry);
}

function unique(keys: readonly Keys[]): Keys[] {
  return [...new Set(keys)].sort((a, b) => a.order - b.order);
}

function entriesOf(keys: readonly Keys[]): KnowledgeEntry[] {
  return unique(keys).map((k) => k.entry);
}

/** Adds the other reading's matches to a found entry's `others`, or merges two candidate lists. */
function combine(primary: Match, secondary: Match | undefined): Match {
  if (!secondary) return primary;
  const extra = secondary.kind === "found" ? [secondary.entry, ...secondary.others] : secondary.candidates;
  if (primary.kind === "found") {
    const others = [...primary.others, ...extra].filter((e, i, all) => e !== primary.entry && all.indexOf(e) === i);
    return { ...primary, others: sortByListing(others) };
  }
  return { kind: "ambiguous", candidates: sortByListing([...new Set([...primary.candidates, ...extra])]) };
}

const LISTING_ORDER: ReadonlyMap<KnowledgeEntry, number> = new Map(KNOWLEDGE.map((e, i) => [e, i]));

function sortByListing(entries: readonly KnowledgeEntry[]): KnowledgeEntry[] {
  return [...entries].sort((a, b) => (LISTING_ORDER.get(a) ?? 0) - (LISTING_ORDER.get(b) ?? 0));
}

/**
 * Looks a query up in the knowledge base, in this order: exact id; the words after leading
 * qualifiers (`reason stale`, `approval stale`) within the qualified entries; the whole query
 * as one word; whole plain words (`history`, `no longer`); else suggestions for a typo.
 * Matching ignores case, spaces, hyphens and underscores.
 */
export function lookupTopic(query: string, knowledge: readonly KnowledgeEntry[] = KNOWLEDGE): LookupResult {
  const keys = knowledge === KNOWLEDGE ? DEFAULT_KEYS : keysOf(knowledge);
  const trimmed = query.trim();
  const byId = keys.find((k) => k.entry.id === trimmed.toLowerCase());
  if (byId) return { kind: "found", entry: byId.entry, via: "id", others: [] };

  const tokens = trimmed.split(/[\s/]+/).filter((t) => t !== "");
  const whole = normalizeWord(trimmed);
  const { filter, rest } = splitQualifiers(tokens);
  const qualified = rest.length < tokens.length ? keys.filter((k) => passes(k.entry, filter)) : undefined;
  const restKey = normalizeWord(rest.join(""));

  const exactQualified = qualified ? matchExact(restKey, qualified) : undefined;
  const exactWhole = matchExact(whole, keys);
  if (exactQualified) return combine(exactQualified, exactWhole);
  if (exactWhole) return exactWhole;
  // A word under the wrong qualifier is still that word: `reason Observing` is the phase a live run
  // wrote as Ready's reason, not "no topic".
  const exactRest = qualified ? matchExact(restKey, keys) : undefined;
  if (exactRest) return exactRest;

  const byWords = (qualified ? matchWords(rest, qualified) : undefined) ?? matchWords(tokens, keys);
  if (byWords) return byWords;

  const suggestions = [...(qualified ? suggest(restKey, qualified) : []), ...suggest(whole, keys)];
  return { kind: "unknown", suggestions: [...new Set(suggestions)].slice(0, 3) };
}
