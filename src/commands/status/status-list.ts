// `kubectl ptah status` (no name): one row per PtahSchema and per PtahMigration.
import { findCondition, formatApprovalSummary, summariseSchemaApproval } from "../../approval/state.ts";
import type { Condition } from "../../model/meta.ts";
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { formatAge } from "../../render/age.ts";
import { paint, paintWord } from "../../render/color.ts";
import { labelCells, labelHeaders } from "../../render/columns.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { readyLag } from "../shared/status-lag.ts";
import { migrationStuck, schemaStuck, stuckCell, stuckNext } from "../shared/stuck.ts";

export interface StatusListInput {
  readonly schemas: readonly PtahSchema[];
  readonly migrations: readonly PtahMigration[];
  readonly approvals: readonly PtahSchemaApproval[];
  readonly allNamespaces: boolean;
  readonly wide: boolean;
  readonly noHeaders: boolean;
  readonly color: boolean;
  readonly now: Date;
  /** The items are already in the order to print (--sort-by); otherwise by namespace and name. */
  readonly ordered?: boolean;
  /** -L/--label-columns keys and --show-labels: columns after every other one, as kubectl adds them. */
  readonly labelColumns?: readonly string[];
  readonly showLabels?: boolean;
  /** A fleet's table (--contexts): each object's context (by identity), in a CONTEXT column first, contexts in `order`. */
  readonly contexts?: { readonly order: readonly string[]; readonly of: ReadonlyMap<object, string> };
  /** --stuck: only what stopped converging, a STUCK column, and each one's next command below. */
  readonly stuck?: boolean;
}

/** The STUCK column is part of -o wide, and of every --stuck table (it is why the row is there). */
function stuckColumn(input: StatusListInput): boolean {
  return input.wide || input.stuck === true;
}

/**
 * READY column: status and reason of the Ready condition, e.g. `False (AwaitingApproval)`, and
 * `older than phase` / `newer than phase` when it lags the PHASE beside it (shared/status-lag.ts).
 */
export function formatReady(conditions: readonly Condition[], color: boolean, lag?: string): string {
  const ready = findCondition(conditions, "Ready");
  if (!ready) return "-";
  const painted = paintWord(ready.status, color);
  const notes = [...(ready.reason ? [sanitize(ready.reason)] : []), ...(lag ? [lag] : [])];
  return notes.length > 0 ? `${painted} (${notes.join(", ")})` : painted;
}

function phase(p: string | undefined, color: boolean): string {
  return p ? paintWord(p, color) : "-";
}

type Named = { metadata: { namespace?: string; name: string } };

/** The context an object was read from ("" outside a fleet). */
function contextOf(o: object, input: StatusListInput): string {
  return input.contexts?.of.get(o) ?? "";
}

function inOrder<T extends Named>(items: readonly T[], input: StatusListInput): readonly T[] {
  if (input.ordered) return items;
  // By context (in the order named), namespace and name; keys computed once per item, not twice per comparison.
  const rank = new Map((input.contexts?.order ?? []).map((c, i) => [c, String(i).padStart(6, "0")]));
  const keyed = items.map((item) => ({ item, key: `${rank.get(contextOf(item, input)) ?? ""}\u0000${item.metadata.namespace ?? ""}\u0000${item.metadata.name}` }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.item);
}

function labelHeadersOf(input: StatusListInput): string[] {
  return labelHeaders(input.labelColumns ?? [], input.showLabels === true);
}

function labelCellsOf(o: { metadata: { labels?: Record<string, string> } }, input: StatusListInput): string[] {
  return labelCells(o.metadata.labels, input.labelColumns ?? [], input.showLabels === true);
}

/** The leading columns: CONTEXT in a fleet, NAMESPACE with -A. */
function scopeHeaders(input: StatusListInput): string[] {
  return [...(input.contexts ? ["CONTEXT"] : []), ...(input.allNamespaces ? ["NAMESPACE"] : [])];
}

function scopeCells(o: Named, input: StatusListInput): string[] {
  return [...(input.contexts ? [sanitize(contextOf(o, input))] : []), ...(input.allNamespaces ? [sanitize(o.metadata.namespace ?? "")] : [])];
}

export function renderSchemaRows(input: StatusListInput, prefix: string): string {
  const headers = [
    ...scopeHeaders(input),
    "NAME",
    "PHASE",
    "READY",
    "PLAN",
    "STATEMENTS",
    "DESTRUCTIVE",
    "APPROVAL",
    "AGE",
    ...(input.wide ? ["DIGEST", "DRIFT", "LAST APPLIED"] : []),
    ...(stuckColumn(input) ? ["STUCK"] : []),
    ...labelHeadersOf(input),
  ];
  // Approvals grouped by namespace once: filtering the whole list per schema is quadratic
  // (5,000 schemas × 15,000 approvals in test/bench/'s scale cases).
  const approvalsByNamespace = new Map<string, PtahSchemaApproval[]>();
  const groupOf = (o: Named): string => `${contextOf(o, input)}\u0000${o.metadata.namespace ?? ""}`;
  for (const a of input.approvals) {
    const ns = groupOf(a);
    const group = approvalsByNamespace.get(ns);
    if (group) group.push(a);
    else approvalsByNamespace.set(ns, [a]);
  }
  const rows = inOrder(input.schemas, input).map((s) => {
    const plan = s.status.plan;
    const approvals = approvalsByNamespace.get(groupOf(s)) ?? [];
    const applied = s.status.applied?.completedAt;
    return [
      ...scopeCells(s, input),
      prefix + sanitize(s.metadata.name),
      phase(s.status.phase, input.color),
      formatReady(s.status.conditions, input.color, readyLag("PtahSchema", s)),
      plan?.name ? sanitize(plan.name) : "-",
      plan?.statementCount !== undefined ? String(plan.statementCount) : "-",
      plan?.destructive === undefined ? "-" : plan.destructive ? paint("red", "true", input.color) : "false",
      sanitize(formatApprovalSummary(summariseSchemaApproval(s, approvals))),
      formatAge(s.metadata.creationTimestamp, input.now),
      ...(input.wide
        ? [
            sanitize(s.status.source?.digest ?? "-"),
            sanitize(s.status.target?.highestDriftSeverity || (s.status.target?.lastObservedAt ? "none" : "-")),
            applied ? `${formatAge(applied, input.now)} ago` : "-",
          ]
        : []),
      ...(stuckColumn(input) ? [stuckCell(schemaStuck(s, input.now))] : []),
      ...labelCellsOf(s, input),
    ];
  });
  return renderTable(headers, rows, { noHeaders: input.noHeaders });
}

function migrationApproval(m: PtahMigration): string {
  const ref = m.status.activeOperation?.approvalRef;
  if (ref?.name) return `in use: ${sanitize(ref.name)}`;
  const required = findCondition(m.status.conditions, "ApprovalRequired");
  if (required?.status === "True") return "waiting";
  if (!m.status.plan?.name) return "-";
  return "not required";
}

export function renderMigrationRows(input: StatusListInput, prefix: string): string {
  const headers = [
    ...scopeHeaders(input),
    "NAME",
    "PHASE",
    "READY",
    "PLAN",
    "CURRENT",
    "PENDING",
    "LAST RUN",
    "APPROVAL",
    "AGE",
    ...(input.wide ? ["DIGEST", "UNRESOLVED RUN"] : []),
    ...(stuckColumn(input) ? ["STUCK"] : []),
    ...labelHeadersOf(input),
  ];
  const rows = inOrder(input.migrations, input).map((m) => {
    const h = m.status.history;
    const outcome = m.status.lastRun?.outcome;
    return [
      ...scopeCells(m, input),
      prefix + sanitize(m.metadata.name),
      phase(m.status.phase, input.color),
      formatReady(m.status.conditions, input.color, readyLag("PtahMigration", m)),
      m.status.plan?.name ? sanitize(m.status.plan.name) : "-",
      h?.currentVersion !== undefined ? String(h.currentVersion) : "-",
      h?.pendingCount !== undefined ? String(h.pendingCount) : "-",
      outcome ? phase(outcome, input.color) : "-",
      migrationApproval(m),
      formatAge(m.metadata.creationTimestamp, input.now),
      ...(input.wide ? [sanitize(m.status.artifact?.digest ?? "-"), sanitize(m.status.unresolvedRun?.outcome ?? "-")] : []),
      ...(stuckColumn(input) ? [stuckCell(migrationStuck(m, input.now))] : []),
      ...labelCellsOf(m, input),
    ];
  });
  return renderTable(headers, rows, { noHeaders: input.noHeaders });
}

/** --stuck: only the objects with a finding. */
export function onlyStuck<T extends Pick<StatusListInput, "schemas" | "migrations" | "now">>(input: T): T {
  return {
    ...input,
    schemas: input.schemas.filter((s) => schemaStuck(s, input.now).length > 0),
    migrations: input.migrations.filter((m) => migrationStuck(m, input.now).length > 0),
  };
}

/** --stuck's `Next:` block: one line per stuck object, in the tables' order. */
function nextLines(input: StatusListInput): string {
  const line = (o: Named, kind: "PtahSchema" | "PtahMigration", findings: Parameters<typeof stuckNext>[2]): string => {
    const where = [contextOf(o, input), o.metadata.namespace ?? ""].filter((x) => x !== "").map(sanitize);
    return `  ${[...where, `${kind.toLowerCase()}/${sanitize(o.metadata.name)}`].join("/")}: ${stuckNext(o as never, kind, findings)}\n`;
  };
  const schemas = inOrder(input.schemas, input).map((s) => line(s, "PtahSchema", schemaStuck(s, input.now)));
  const migrations = inOrder(input.migrations, input).map((m) => line(m, "PtahMigration", migrationStuck(m, input.now)));
  return `\nNext:\n${[...schemas, ...migrations].join("")}`;
}

/** Both tables; kind prefixes on names when both are shown, as `kubectl get a,b` does. */
export function renderStatusList(input: StatusListInput): string {
  const both = input.schemas.length > 0 && input.migrations.length > 0;
  const parts: string[] = [];
  if (input.schemas.length > 0) parts.push(renderSchemaRows(input, both ? "ptahschema/" : ""));
  if (input.migrations.length > 0) parts.push(renderMigrationRows(input, both ? "ptahmigration/" : ""));
  return parts.join("\n") + (input.stuck && !input.noHeaders ? nextLines(input) : "");
}
