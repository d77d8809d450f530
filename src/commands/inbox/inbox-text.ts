// The inbox: everything waiting for a person — schemas and migrations awaiting an approval,
// migrations whose unresolved run needs an acknowledgment, and schemas a policy blocks (a
// destructive plan under allowDestructive: false) — oldest wait first, with what the caller
// may do about each and the exact command to do it.
import { findCondition, isTrue } from "../../approval/state.ts";
import type { KindName } from "../../model/parse.ts";
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import { rowChangeOf, ROW_DRIFT_CATEGORIES } from "../../model/drift-rows.ts";
import { lastSpecWriter, type SpecWriter } from "../../model/spec-writer.ts";
import { formatAge, formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";
import { approvalInUse } from "../shared/status-lag.ts";

export type InboxReason = "schema-approval" | "migration-approval" | "run-acknowledgment" | "destructive-blocked";

export interface InboxItem {
  readonly namespace: string;
  readonly kind: "PtahSchema" | "PtahMigration";
  readonly name: string;
  readonly reason: InboxReason;
  /** The lastTransitionTime of the condition that holds it (ApprovalRequired, Blocked, Ready). */
  readonly since: string | undefined;
  readonly statements: string;
  readonly destructive: string;
  readonly privileges: string;
  /** The kind a person creates to move it on (none when only a spec change can). */
  readonly approvalKind: KindName | undefined;
  /** The recorded last spec writer, for approval items. */
  readonly writer?: SpecWriter;
  /**
   * Whether the plan's statements carry row values: with --locks the verified document's tables
   * ("yes: public.countries", "no"); without it, only "yes (drift: rows to insert)" where the
   * schema's drift report lists a data_rows_* category (no plan read); absent: not known.
   */
  readonly rowValues?: string;
}

/** You may create the approval, but you last changed the spec (four-eyes). */
export const NOT_YOU = "approve (not you: you last changed its spec)";
export type Capability = "approve" | typeof NOT_YOU | "acknowledge" | "read only" | "nothing";

export interface InboxRow extends InboxItem {
  readonly youCan: Capability;
  readonly next: string;
  /** inbox --locks: the plan's strongest lock and what it blocks ("-" for a migration). */
  readonly locks?: string;
  /** The bound quorum policy's count ("1/2 (alice)", "-" when the plan needs none); absent: no quorum policy. */
  readonly endorsed?: string;
  /** The bound time policies' state ("closed — opens …"); absent: no window or freeze policy. */
  readonly window?: string;
}

function writerOf(o: PtahSchema | PtahMigration): { writer?: SpecWriter } {
  const writer = lastSpecWriter(o.metadata);
  return writer ? { writer } : {};
}

/**
 * Without reading the plan: the operator's drift report lists rows to insert, update or delete
 * (upstream's "Reference data" line), so the plan made from it carries their values.
 */
export function driftRowValues(s: PtahSchema): { rowValues?: string } {
  const found = new Set((s.status.target?.driftFindings ?? []).map((f) => rowChangeOf(f.category)));
  const words = Object.values(ROW_DRIFT_CATEGORIES).filter((change) => found.has(change));
  return words.length === 0 ? {} : { rowValues: `yes (drift: rows to ${words.join(", ")})` };
}

function schemaItem(s: PtahSchema): InboxItem | undefined {
  const conditions = s.status.conditions;
  const plan = s.status.plan;
  const base = {
    namespace: s.metadata.namespace ?? "",
    kind: "PtahSchema" as const,
    name: s.metadata.name,
    statements: plan?.statementCount === undefined ? "-" : String(plan.statementCount),
    destructive: plan?.destructive ? "yes" : "no",
    privileges: plan?.privilegeChanges?.length ? plan.privilegeChanges.join(",") : "-",
    ...driftRowValues(s),
  };
  // Awaiting: a plan needs an approval and none is recorded yet (a reserved one waits on the operator).
  if (s.status.phase === "AwaitingApproval" && isTrue(conditions, "ApprovalRequired") && !plan?.approval?.name) {
    return {
      ...base,
      reason: "schema-approval",
      since: findCondition(conditions, "ApprovalRequired")?.lastTransitionTime,
      approvalKind: "PtahSchemaApproval",
      ...writerOf(s),
    };
  }
  const blocking = [findCondition(conditions, "ApprovalRequired"), findCondition(conditions, "Ready")].find(
    (c) => c?.status === "False" && c.reason === "DestructiveChangesDisabled",
  );
  if (blocking) return { ...base, reason: "destructive-blocked", since: blocking.lastTransitionTime, approvalKind: undefined };
  return undefined;
}

function migrationItem(m: PtahMigration): InboxItem | undefined {
  const conditions = m.status.conditions;
  const base = { namespace: m.metadata.namespace ?? "", kind: "PtahMigration" as const, name: m.metadata.name, destructive: "-", privileges: "-" };
  const run = m.status.unresolvedRun;
  if (run?.operationID && m.status.resolvedRun?.operationID !== run.operationID) {
    const blocked = findCondition(conditions, "Blocked");
    return {
      ...base,
      reason: "run-acknowledgment",
      since: blocked?.status === "True" ? blocked.lastTransitionTime : run.recordedAt,
      statements: "-",
      approvalKind: "PtahMigrationRunAcknowledgment",
    };
  }
  // An approval already in use means the wait is over, whatever a lagging phase or condition says.
  if (m.status.phase === "AwaitingApproval" && isTrue(conditions, "ApprovalRequired") && !approvalInUse("PtahMigration", m)) {
    const pending = m.status.history?.pendingCount;
    return {
      ...base,
      reason: "migration-approval",
      since: findCondition(conditions, "ApprovalRequired")?.lastTransitionTime,
      statements: pending === undefined ? "-" : `${pending} migration${pending === 1 ? "" : "s"}`,
      approvalKind: "PtahMigrationApproval",
      ...writerOf(m),
    };
  }
  return undefined;
}

/** What waits, oldest first (an unknown time last), then by namespace and name. */
export function inboxItems(schemas: readonly PtahSchema[], migrations: readonly PtahMigration[]): InboxItem[] {
  const items = [...schemas.map(schemaItem), ...migrations.map(migrationItem)].filter((i): i is InboxItem => i !== undefined);
  const at = (i: InboxItem): number => {
    const t = Date.parse(i.since ?? "");
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
  };
  return items.sort((a, b) => at(a) - at(b) || a.namespace.localeCompare(b.namespace) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

/**
 * The caller's capability and the exact next command, given whether it may create the kind and
 * whether it is the item's last spec writer (then another approver must approve; the next command
 * reads the plan).
 */
export function inboxRow(item: InboxItem, allowed: boolean | undefined, youWrote = false): InboxRow {
  const ns = ` -n ${sanitize(item.namespace)}`;
  const name = sanitize(item.name);
  switch (item.reason) {
    case "schema-approval":
      return allowed && !youWrote
        ? { ...item, youCan: "approve", next: `kubectl ptah approve ${name}${ns} | kubectl create -f -` }
        : { ...item, youCan: allowed ? NOT_YOU : "read only", next: `kubectl ptah plan ${name}${ns}` };
    case "migration-approval":
      return allowed && !youWrote
        ? { ...item, youCan: "approve", next: `kubectl ptah approve migration ${name}${ns} | kubectl create -f -` }
        : { ...item, youCan: allowed ? NOT_YOU : "read only", next: `kubectl ptah migration ${name}${ns}` };
    case "run-acknowledgment":
      return allowed
        ? { ...item, youCan: "acknowledge", next: `kubectl ptah acknowledge ${name}${ns} | kubectl create -f -` }
        : { ...item, youCan: "read only", next: `kubectl ptah explain migration ${name}${ns}` };
    case "destructive-blocked":
      // Nobody can approve it: only a spec change (narrower schema, or allowDestructive) moves it.
      return { ...item, youCan: "nothing", next: `kubectl ptah explain ${name}${ns}` };
  }
}

export interface InboxRenderOptions {
  readonly now: Date;
  readonly absoluteTime: boolean;
  readonly noHeaders: boolean;
  /** A fleet's table (--contexts): each row's context, in a CONTEXT column first. */
  readonly contexts?: readonly string[];
  /** inbox --locks: a LOCKS column after PRIVILEGES. */
  readonly locks?: boolean;
}

/** A row speaks of row values when it says the plan carries them, or could not tell ("no" alone adds no column). */
const speaksOfRows = (r: InboxRow): boolean => r.rowValues !== undefined && r.rowValues !== "no";

export function renderInbox(rows: readonly InboxRow[], o: InboxRenderOptions): string {
  // The policy columns appear only where a bound policy speaks of a row.
  const endorsed = rows.some((r) => r.endorsed !== undefined);
  const window = rows.some((r) => r.window !== undefined);
  const rowValues = rows.some(speaksOfRows);
  const policy = (r: InboxRow) => [...(endorsed ? [sanitize(r.endorsed ?? "-")] : []), ...(window ? [sanitize(r.window ?? "-")] : [])];
  const headers = [
    "NAMESPACE",
    "OBJECT",
    "WAITING",
    "STATEMENTS",
    "DESTRUCTIVE",
    "PRIVILEGES",
    ...(o.locks ? ["LOCKS"] : []),
    ...(rowValues ? ["ROW VALUES"] : []),
    ...(endorsed ? ["ENDORSED"] : []),
    ...(window ? ["WINDOW"] : []),
    "YOU CAN",
    "NEXT",
  ];
  const body = rows.map((r) => [
    sanitize(r.namespace),
    `${r.kind === "PtahSchema" ? "ptahschema" : "ptahmigration"}/${sanitize(r.name)}`,
    r.since ? (o.absoluteTime ? formatTimestamp(r.since) : formatAge(r.since, o.now)) : "<unknown>",
    sanitize(r.statements),
    r.destructive,
    sanitize(r.privileges),
    ...(o.locks ? [sanitize(r.locks ?? "-")] : []),
    ...(rowValues ? [sanitize(r.rowValues ?? "-")] : []),
    ...policy(r),
    r.youCan,
    r.next,
  ]);
  if (o.contexts)
    return renderTable(
      ["CONTEXT", ...headers],
      body.map((row, i) => [sanitize(o.contexts![i] ?? ""), ...row]),
      { noHeaders: o.noHeaders },
    );
  return renderTable(headers, body, { noHeaders: o.noHeaders });
}
