// The findings' codes alone: `explain` names a topic per code and loads this, not the sentences
// the analyser writes (findings.ts), on every start.
export const FINDING_CODES = [
  "index-not-concurrent",
  "drop-index-not-concurrent",
  "concurrently-in-transaction",
  "type-change-rewrite",
  "volatile-default-rewrite",
  "table-rewrite",
  "set-not-null-scan",
  "not-null-without-default",
  "foreign-key-validates",
  "check-validates",
  "constraint-builds-index",
  "held-through-later-step",
  "protected-table",
  "related-relation",
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
