// What `diff` shows: two verified plans of one schema (or a verified plan and what a record of
// a gone plan kept), the fingerprint inputs that moved with their meaning from the knowledge
// base, and a statement-level diff as unified hunks. Pure: built only from plans that verified.
import { bindingInputTopic } from "../../explain/knowledge.ts";
import type { PlanBindingInput, PlanBindingValue } from "../../model/binding-inputs.ts";
import { bindingValuesOfPlan, compareBindings, type BindingComparison, type RecordedBindingValues } from "../../plan/binding-diff.ts";
import type { PlanStatement } from "../../plan/document.ts";
import type { VerifiedPlan } from "../../plan/load.ts";
import { statementText } from "../../plan/sql-text.ts";
import { alignStatements, buildHunks, countEdits, type Alignment, type EditCounts, type EditRun, type Hunk } from "../../plan/statement-diff.ts";
import { formatTimestamp } from "../../render/age.ts";
import { paint } from "../../render/color.ts";
import { sanitize } from "../../errors.ts";
import { formatPrivileges, labelLines } from "./plan-view.ts";

export type DiffSource =
  { readonly kind: "applied" } | { readonly kind: "current" } | { readonly kind: "approval"; readonly name: string } | { readonly kind: "plan"; readonly name: string };

export interface StoredSide {
  readonly kind: "stored";
  readonly source: DiffSource;
  readonly plan: VerifiedPlan;
}

/** The `from` plan is no longer stored: only what a record of it kept can be compared. */
export interface GoneSide {
  readonly kind: "gone";
  readonly source: DiffSource;
  readonly planName: string;
  readonly fingerprint: string;
  readonly recorded: RecordedBindingValues;
  /** Who kept the record, for the reader: "approval storefront-v1", "the applied record". */
  readonly recordedBy: string;
}

export type FromSide = StoredSide | GoneSide;

export interface DiffInput {
  readonly namespace: string;
  readonly schemaName: string;
  readonly from: FromSide;
  readonly to: StoredSide;
  /** How `--from` was chosen when it was not given. */
  readonly chosen: string | undefined;
}

export interface DiffView extends DiffInput {
  readonly bindings: BindingComparison;
  /** The two fingerprints differ: some input moved. */
  readonly differs: boolean;
  /** Undefined when the `from` plan is gone. */
  readonly statements: { readonly runs: readonly EditRun[]; readonly counts: EditCounts; readonly alignment: Alignment } | undefined;
}

export const DIFF_CONTEXT = 3;

export function buildDiffView(input: DiffInput): DiffView {
  const to = input.to.plan;
  const toValues = bindingValuesOfPlan(to.plan.object);
  if (input.from.kind === "gone") {
    return {
      ...input,
      bindings: compareBindings(input.from.recorded, toValues),
      differs: input.from.fingerprint !== to.fingerprint,
      statements: undefined,
    };
  }
  const from = input.from.plan;
  const { runs, alignment } = alignStatements(from.document.statements, to.document.statements);
  return {
    ...input,
    bindings: compareBindings(bindingValuesOfPlan(from.plan.object), toValues),
    differs: from.fingerprint !== to.fingerprint,
    statements: { runs, counts: countEdits(runs), alignment },
  };
}

/**
 * The stderr line when the statement diff is not known to be minimal: still a correct edit
 * script (replaying it on the from plan gives the to plan), with fewer statements kept than the
 * fewest-changes diff might keep.
 */
export function alignmentWarning(v: DiffView): string {
  const a = v.statements?.alignment;
  if (!a || a.minimal) return "";
  if (a.unaligned > 0) {
    return `Warning: statements: ${a.unaligned} statements were past the diff's work budget and are shown as removed and added, unmatched; the diff is correct but not minimal\n`;
  }
  return "Warning: statements: aligned on the statements that occur once in each plan; the diff is correct but may keep fewer statements than the fewest-changes diff\n";
}

export function describeSource(s: DiffSource): string {
  switch (s.kind) {
    case "applied":
      return "the applied plan";
    case "current":
      return "the current plan";
    case "approval":
      return `the plan approval ${sanitize(s.name)} approved`;
    case "plan":
      return `plan ${sanitize(s.name)}`;
  }
}

export function formatBindingValue(v: PlanBindingValue): string {
  if (Array.isArray(v)) return v.length === 0 ? "none" : sanitize((v as readonly string[]).join(", "));
  return sanitize(String(v));
}

export function formatCounts(c: EditCounts): string {
  return `${c.added} added, ${c.removed} removed, ${c.unchanged} unchanged`;
}

export function bindingsSummary(v: DiffView): string {
  const b = v.bindings;
  const compared = b.changed.length + b.unchanged.length;
  const notRecorded = b.notCompared.length > 0 ? `; ${b.notCompared.length} not recorded` : "";
  return `${b.changed.length} of ${compared} fingerprint inputs differ, ${b.unchanged.length} unchanged${notRecorded}`;
}

function sideLines(side: FromSide, label: string): string {
  if (side.kind === "gone") {
    return (
      labelLines([[label, `${describeSource(side.source)} (gone)`]]) +
      labelLines(
        [
          ["  Plan", `${sanitize(side.planName)} (no longer stored: deleted, or garbage-collected with an older schema generation)`],
          ["  Fingerprint", `${sanitize(side.fingerprint)} (as ${side.recordedBy} recorded it)`],
        ],
        16,
      )
    );
  }
  const v = side.plan;
  const spec = v.plan.object.spec;
  return (
    labelLines([[label, describeSource(side.source)]]) +
    labelLines([
      ["  Plan", sanitize(v.plan.object.metadata.name)],
      ["  Fingerprint", sanitize(v.fingerprint)],
      ["  Statements", String(v.document.statements.length)],
      ["  Destructive", String(spec.destructive ?? false)],
      ["  Privileges", sanitize(formatPrivileges(spec.privilegeChanges ?? [], v.document.privilegeKindsRead))],
      ["  Created", formatTimestamp(v.plan.object.metadata.creationTimestamp)],
    ])
  );
}

export function renderDiffHeader(v: DiffView): string {
  return (
    labelLines([["Schema", sanitize(`${v.namespace}/${v.schemaName}`)]]) +
    sideLines(v.from, "From") +
    (v.chosen ? labelLines([["  Chosen", v.chosen]]) : "") +
    sideLines(v.to, "To")
  );
}

function inputLabel(input: PlanBindingInput): string {
  return bindingInputTopic(input).label;
}

export function renderBindings(v: DiffView): string {
  const b = v.bindings;
  const from = v.from;
  let out = "";
  if (from.kind === "gone" && b.changed.length + b.unchanged.length === 0) {
    out += `Bindings: not compared: ${from.recordedBy} records only the plan's fingerprint (newer operators copy no bindings into approvals)\n`;
    out += v.differs ? "  the fingerprints differ, so at least one input moved; which one cannot be told without the plan\n" : "  the fingerprints are equal: the same plan\n";
    return out;
  }
  out += from.kind === "gone" ? `Bindings, as ${from.recordedBy} recorded them: ${bindingsSummary(v)}\n` : `Bindings: ${bindingsSummary(v)}\n`;
  const width = Math.max(0, ...b.changed.map((c) => inputLabel(c.input).length)) + 2;
  for (const c of b.changed) {
    out += `  ${inputLabel(c.input).padEnd(width)}${bindingInputTopic(c.input).moved}\n`;
    out += `    from  ${formatBindingValue(c.from)}\n`;
    out += `    to    ${formatBindingValue(c.to)}\n`;
  }
  if (b.notCompared.length > 0) out += `  Not compared (not recorded): ${b.notCompared.map(inputLabel).join(", ")}\n`;
  return out;
}

export interface StatementRenderOptions {
  readonly color: boolean;
  /** Terminal width when on a terminal (long single-line statements are cut to it), else undefined. */
  readonly width: number | undefined;
}

const MARK = { keep: " ", remove: "-", add: "+" } as const;
const HUE = { keep: undefined, remove: "red", add: "green" } as const;

function annotation(s: PlanStatement): string {
  const reason = sanitize(s.reason);
  return `(${sanitize(s.severity)}${reason ? `: ${reason}` : ""})`;
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

function statementLines(kind: "keep" | "remove" | "add", s: PlanStatement, o: StatementRenderOptions): string {
  const lines = `${statementText(s.sql)};`.split(/\r\n|\r|\n/u).map(sanitize);
  const note = kind === "keep" ? "" : `  ${annotation(s)}`;
  if (o.width !== undefined && lines.length === 1 && 1 + lines[0]!.length + note.length > o.width) {
    lines[0] = truncate(lines[0]!, Math.max(8, o.width - 1 - note.length));
  }
  const hue = HUE[kind];
  return lines
    .map((line, i) => {
      const text = `${MARK[kind]}${line}`;
      const painted = hue ? paint(hue, text, o.color) : text;
      return i === 0 && note ? painted + paint("gray", note, o.color) : painted;
    })
    .join("\n");
}

export function hunkHeader(h: Hunk): string {
  const range = (start: number, count: number): string => `${count === 0 ? start : start + 1},${count}`;
  return `@@ -${range(h.fromStart, h.fromCount)} +${range(h.toStart, h.toCount)} @@`;
}

export function renderStatements(v: DiffView, o: StatementRenderOptions): string {
  if (!v.statements || v.from.kind === "gone") {
    return "Statements: not compared: the from plan is gone, and its SQL is stored nowhere else\n";
  }
  const fromDoc = v.from.plan.document.statements;
  const toDoc = v.to.plan.document.statements;
  let out = `Statements: ${formatCounts(v.statements.counts)}\n`;
  for (const h of buildHunks(v.statements.runs, DIFF_CONTEXT)) {
    out += paint("cyan", hunkHeader(h), o.color) + "\n";
    for (const l of h.lines) {
      const s = l.kind === "add" ? toDoc[l.to!]! : fromDoc[l.from!]!;
      out += statementLines(l.kind, s, o) + "\n";
    }
  }
  return out;
}

/** The human view: header, bindings, statements. */
export function renderDiffText(v: DiffView, o: StatementRenderOptions): string {
  return `${renderDiffHeader(v)}\n${renderBindings(v)}\n${renderStatements(v, o)}`;
}

/** `--stat`: the counts only. */
export function renderDiffStat(v: DiffView): string {
  const statements = v.statements ? formatCounts(v.statements.counts) : "not compared (the from plan is gone)";
  return `bindings:    ${bindingsSummary(v)}\nstatements:  ${statements}\n`;
}
