// Places a pasted line on the message it came from. kubectl's wrappers are taken off first
// (`error:`, `Error from server (…)`, `error when creating "…"`, `… is forbidden:`/`is invalid:`,
// `admission webhook "…" denied the request:`, `ValidatingAdmissionPolicy '…' with binding '…'
// denied request:`), then the bare message must match one template of the table whole, ignoring
// case, runs of spaces, a dropped comma or final period and curly quotes; names, numbers and error
// text sit in slots. Nothing else places a line: a line with an edited word is not placed, never
// placed on a neighbour. Loaded only when a query has more than one word (explain-command.ts).
import { CONDITION_MESSAGES } from "./topics/condition-messages.ts";
import { POLICY_MESSAGES } from "./topics/policy-messages.ts";
import { REFUSAL_MESSAGES } from "./topics/refusal-messages.ts";
import type { MessageTemplate, Slot } from "./topics/message-types.ts";

/** Every message the operator, its chart's policies and `policy render`'s policies write that explain places: the one table. */
export const MESSAGE_TABLE: readonly MessageTemplate[] = [...REFUSAL_MESSAGES, ...CONDITION_MESSAGES, ...POLICY_MESSAGES];

/** What kubectl's wrapper said around the message. */
export interface PastedContext {
  /** `Forbidden`, `NotFound`, … from `Error from server (…)`. */
  readonly status?: string;
  /** `creating`, `patching`, … and the file, from `error when creating "FILE"`. */
  readonly verb?: string;
  readonly file?: string;
  /** The resource and the object's name, from `RESOURCE "NAME" is forbidden|invalid`. */
  readonly resource?: string;
  readonly name?: string;
  readonly webhook?: string;
  readonly policy?: string;
  readonly binding?: string;
}

export interface Placed {
  /** The bare message, wrappers taken off. */
  readonly message: string;
  readonly template: MessageTemplate;
  readonly slots: Readonly<Partial<Record<Slot, string>>>;
  readonly context: PastedContext;
}

const SLOT_PATTERNS: Readonly<Record<Slot, string>> = {
  // Any character, line separators (U+2028, U+2029) included: `.` would stop at them.
  user: "([\\s\\S]+?)",
  detail: "([\\s\\S]+?)",
  count: "(\\d+)",
  op: "(\\S+?)",
  realm: '("(?:[^"\\\\]|\\\\.)*"|\\S+)',
  namespace: '("(?:[^"\\\\]|\\\\.)*"|\\S+)',
  outcome: "([A-Za-z]+)",
  // The contract writes the kind word in lower case; an older note has `<Kind>` (PtahSchema): both read as schema.
  kind: "((?:ptah)?(?:schema|migration))",
  object: "(approval|acknowledgment)",
  stamp: "(approvedAt|acknowledgedAt)",
  identity: "(approver|acknowledgedBy)",
  schema: "([a-z0-9][a-z0-9.-]*)",
  migration: "([a-z0-9][a-z0-9.-]*)",
  // A group as `policy render` admits it (no space, comma or semicolon).
  group: "([^\\s,;]+?)",
  have: "(\\d+)",
  users: "([\\s\\S]+?)",
  key: "([^\\s()]+?)",
  current: "([^\\s()]+?)",
  risk: "(is destructive and changes privileges|is destructive|changes privileges)",
  windows: "([\\s\\S]+?)",
  at: "(\\S+?)",
  from: "(\\d{4}-\\d{2}-\\d{2})",
  to: "(\\d{4}-\\d{2}-\\d{2})",
  zone: "([^\\s()]+?)",
};

/** A literal part: spaces match any run, a comma/colon/semicolon/period before a space may be dropped, quotes may curl. */
function literal(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/u.test(c)) {
      if (!out.endsWith("\\s+")) out += "\\s+";
    } else if (/[,;:.]/u.test(c) && /\s/u.test(text[i + 1] ?? "")) out += `${escape(c)}?`;
    else if (c === "'") out += "['\u2018\u2019]";
    else if (c === '"') out += '["\u201c\u201d]';
    else out += escape(c);
  }
  return out;
}

function escape(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|]/gu, "\\$&");
}

interface Compiled {
  readonly template: MessageTemplate;
  readonly regex: RegExp;
  readonly slots: readonly Slot[];
  /** Characters of fixed text: the more, the more specific (a tie between two templates places nothing). */
  readonly weight: number;
}

function compile(template: MessageTemplate): Compiled {
  const slots: Slot[] = [];
  let source = "";
  let weight = 0;
  const text = template.text.replace(/\.$/u, "");
  let last = 0;
  for (const m of text.matchAll(/\{([a-z]+)\}/gu)) {
    const fixed = text.slice(last, m.index);
    source += literal(fixed);
    weight += fixed.length;
    slots.push(m[1] as Slot);
    source += SLOT_PATTERNS[m[1] as Slot];
    last = m.index + m[0].length;
  }
  source += literal(text.slice(last));
  weight += text.length - last;
  return { template, regex: new RegExp(`^${source}\\.?$`, "iu"), slots, weight };
}

const COMPILED: readonly Compiled[] = MESSAGE_TABLE.map(compile);

// ---------------------------------------------------------------- kubectl's wrappers

const DENIED = [
  { re: /admission webhook ["\u201c]?([^"\u201d\s]+)["\u201d]? denied the request:\s*/giu, set: (m: RegExpExecArray) => ({ webhook: m[1] }) },
  {
    re: /ValidatingAdmissionPolicy ['\u2018]?([^'\u2019\s]+)['\u2019]? with binding ['\u2018]?([^'\u2019\s]+)['\u2019]? denied request:\s*/giu,
    set: (m: RegExpExecArray) => ({ policy: m[1], binding: m[2] }),
  },
];
const LEADING: readonly { re: RegExp; set: (m: RegExpExecArray) => { readonly [key: string]: string | undefined } }[] = [
  { re: /^(?:error|Error|ERROR):\s*/u, set: () => ({}) },
  { re: /^Error from server(?:\s*\(([A-Za-z]+)\))?:\s*/u, set: (m) => (m[1] ? { status: m[1] } : {}) },
  { re: /^error when ([a-z]+(?: [a-z]+)*?)\s+["\u201c]?([^"\u201d]*?)["\u201d]?:\s*/u, set: (m) => ({ verb: m[1], file: m[2] }) },
  { re: /^(?:The\s+)?([A-Za-z][A-Za-z0-9.-]*)\s+["\u201c]?([^"\u201d\s]+)["\u201d]?\s+is\s+(?:forbidden|invalid):\s*(?::\s*)?/u, set: (m) => ({ resource: m[1], name: m[2] }) },
  { re: /^-?\s*(?:message|Message):\s*/u, set: () => ({}) },
];

/** Takes kubectl's wrappers off a line: the bare message and what the wrappers said. */
export function unwrap(line: string): { message: string; context: PastedContext } {
  let text = line.trim();
  let context: PastedContext = {};
  for (const { re, set } of DENIED) {
    let last: RegExpExecArray | undefined;
    for (const m of text.matchAll(re)) last = m as RegExpExecArray;
    if (last) {
      // What came before the denial is kubectl's wording: read it for names, then keep what follows.
      context = { ...unwrapLeading(text.slice(0, last.index)).context, ...defined(set(last)) };
      text = text.slice(last.index + last[0].length);
      break;
    }
  }
  const rest = unwrapLeading(text);
  return { message: unquote(rest.message), context: { ...rest.context, ...context } };
}

function unwrapLeading(line: string): { message: string; context: PastedContext } {
  let text = line.trim();
  let context: PastedContext = {};
  for (let changed = true; changed;) {
    changed = false;
    for (const { re, set } of LEADING) {
      const m = re.exec(text);
      if (!m) continue;
      context = { ...context, ...defined(set(m)) };
      text = text.slice(m[0].length).trim();
      changed = true;
    }
  }
  return { message: text, context };
}

function defined(o: { readonly [key: string]: string | undefined }): PastedContext {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ""));
}

/** A message printed as a JSON or YAML string ("…" or '…') is read without its quotes. */
function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    const inner = t.slice(1, -1);
    if (!/["]/u.test(inner.replace(/\\"/gu, ""))) return inner.replace(/\\"/gu, '"');
  }
  return t;
}

/** A Go-quoted (%q) name as it was, or the bare word kubectl's reader was given. */
function slotValue(slot: Slot, raw: string): string {
  if (slot === "kind") return raw.toLowerCase().replace(/^ptah/u, "");
  if ((slot === "realm" || slot === "namespace") && raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }
  return raw;
}

/** The message one line came from, or undefined when no template matches it whole (or two match equally). */
export function placeLine(line: string): Placed | undefined {
  const { message, context } = unwrap(line);
  if (message === "") return undefined;
  let best: { c: Compiled; m: RegExpExecArray } | undefined;
  let tie = false;
  for (const c of COMPILED) {
    const m = c.regex.exec(message);
    if (!m) continue;
    if (!best || c.weight > best.c.weight) [best, tie] = [{ c, m }, false];
    else if (c.weight === best.c.weight && c.template.topic !== best.c.template.topic) tie = true;
  }
  if (!best || tie) return undefined;
  const slots: Partial<Record<Slot, string>> = {};
  best.c.slots.forEach((slot, i) => {
    // A slot used twice (the realm's counts) keeps its first value; the answer names one.
    slots[slot] ??= slotValue(slot, best.m[i + 1] ?? "");
  });
  return { message, template: best.c.template, slots, context };
}

/**
 * Every line of a paste placed on its message; lines that place nothing are left out. When no
 * line places, the whole paste as one line is tried (a terminal may have wrapped a long one).
 */
export function placeText(text: string): Placed[] {
  const lines = text.split(/\r?\n/u).filter((l) => l.trim() !== "");
  const placed = lines.map(placeLine).filter((p) => p !== undefined);
  if (placed.length > 0 || lines.length < 2) return placed;
  const joined = placeLine(lines.join(" "));
  return joined ? [joined] : [];
}

/** Topics near an unplaced line: the templates most of whose fixed words it has (suggestions only). */
export function nearestTopics(text: string, limit = 3): string[] {
  const words = new Set(
    unwrap(text)
      .message.toLowerCase()
      .match(/[a-z]{3,}/gu) ?? [],
  );
  if (words.size === 0) return [];
  const scored = COMPILED.map((c) => {
    const fixed =
      c.template.text
        .replace(/\{[a-z]+\}/gu, " ")
        .toLowerCase()
        .match(/[a-z]{3,}/gu) ?? [];
    const hit = fixed.filter((w) => words.has(w)).length;
    return { topic: c.template.topic as string, score: fixed.length === 0 ? 0 : hit / fixed.length };
  }).filter((s) => s.score >= 0.6);
  scored.sort((a, b) => b.score - a.score);
  return [...new Set(scored.map((s) => s.topic))].slice(0, limit);
}
