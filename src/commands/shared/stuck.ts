// What is stuck: a schema or migration that stopped converging, in the operator's own terms —
// overdue (not suspended, past status.nextReconciliationTime; "late" when past it by more than
// one operation deadline, so nothing is working on it), a stalled operation (an activeOperation
// older than its deadline, outside a declared retry delay), a lock release owed
// (status.pendingLockRelease), an unresolved run, an Apply whose outcome is unknown. The operator
// publishes only totals of these; this names the objects. Pure: the caller reads the objects.
import type { PtahMigration, PtahSchema } from "../../model/kinds.ts";
import type { ActiveOperation } from "../../model/ptah-schema.ts";
import { findCondition } from "../../model/conditions.ts";
import { formatAge } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { migrationNextStep } from "./next-step.ts";

/** The CRD's default spec.execution.activeDeadlineSeconds. */
export const DEFAULT_DEADLINE_SECONDS = 900;

export type StuckKind = "overdue" | "late" | "stalled" | "lock-release-owed" | "unresolved-run" | "outcome-unknown";

export interface StuckFinding {
  readonly kind: StuckKind;
  /** One short phrase for the STUCK cell, e.g. `overdue 4m`, `stalled Apply 31m`. */
  readonly why: string;
}

type Ptah = PtahSchema | PtahMigration;

function at(timestamp: string | undefined): number | undefined {
  if (!timestamp) return undefined;
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? undefined : t;
}

function deadlineMs(o: Ptah): number {
  const s = o.spec.execution?.activeDeadlineSeconds;
  return (s !== undefined && s > 0 ? s : DEFAULT_DEADLINE_SECONDS) * 1000;
}

function overdue(o: Ptah, now: Date): StuckFinding | undefined {
  // A suspended object is not scheduled, so a past time means nothing.
  if (o.spec.suspend === true || o.status.phase === "Suspended") return undefined;
  const next = at(o.status.nextReconciliationTime);
  if (next === undefined || now.getTime() <= next) return undefined;
  const by = formatAge(o.status.nextReconciliationTime, now);
  return now.getTime() - next > deadlineMs(o) ? { kind: "late", why: `late ${by} (nothing is working on it)` } : { kind: "overdue", why: `overdue ${by}` };
}

function stalled(o: Ptah, op: ActiveOperation | undefined, now: Date): StuckFinding | undefined {
  const started = at(op?.startedAt);
  if (!op || started === undefined || now.getTime() - started <= deadlineMs(o)) return undefined;
  const retry = at(op.retryNotBefore);
  // Before a declared retry time the operation is waiting on purpose.
  if (retry !== undefined && now.getTime() < retry) return undefined;
  return { kind: "stalled", why: `stalled ${sanitize(op.type || "operation")} ${formatAge(op.startedAt, now)}` };
}

function lockOwed(o: Ptah): StuckFinding | undefined {
  return o.status.pendingLockRelease ? { kind: "lock-release-owed", why: "lock release owed" } : undefined;
}

function present<T>(list: readonly (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}

export function schemaStuck(s: PtahSchema, now: Date): StuckFinding[] {
  const c = s.status.conditions;
  // Either record says so: the proof in progress, or the conditions after it.
  const unknown =
    s.status.pendingObservation?.outcome === "OutcomeUnknown" || [findCondition(c, "Ready"), findCondition(c, "Applying")].some((x) => x?.reason === "ApplyOutcomeUnknown");
  return present([
    overdue(s, now),
    stalled(s, s.status.activeOperation, now),
    lockOwed(s),
    unknown ? { kind: "outcome-unknown" as const, why: "apply outcome unknown" } : undefined,
  ]);
}

/** A recorded run nobody settled yet (a resolvedRun naming the same operation has settled it). */
export function unsettledRun(m: PtahMigration): boolean {
  const run = m.status.unresolvedRun;
  return !!run?.operationID && m.status.resolvedRun?.operationID !== run.operationID;
}

export function migrationStuck(m: PtahMigration, now: Date): StuckFinding[] {
  const run = m.status.unresolvedRun;
  return present([
    overdue(m, now),
    stalled(m, m.status.activeOperation, now),
    lockOwed(m),
    unsettledRun(m) ? { kind: "unresolved-run" as const, why: `unresolved ${sanitize(run?.outcome || "Unknown")} run` } : undefined,
  ]);
}

/** The STUCK cell: every finding, `-` for none. */
export function stuckCell(findings: readonly StuckFinding[]): string {
  return findings.length === 0 ? "-" : findings.map((f) => f.why).join(", ");
}

/** The one command to run next for a stuck object (its namespace always named: the list may span several). */
export function stuckNext(o: Ptah, kind: "PtahSchema" | "PtahMigration", findings: readonly StuckFinding[]): string {
  const ns = ` -n ${sanitize(o.metadata.namespace ?? "default")}`;
  const name = sanitize(o.metadata.name);
  if (kind === "PtahMigration" && findings.some((f) => f.kind === "unresolved-run")) return migrationNextStep(o as PtahMigration, ns);
  if (kind === "PtahSchema" && findings.some((f) => f.kind === "outcome-unknown")) {
    return `only a read-only proof settles it; follow it with: kubectl ptah wait ${name}${ns} --for=phase=InSync`;
  }
  return `find out why with: kubectl ptah explain ${kind === "PtahMigration" ? "migration " : ""}${name}${ns}`;
}

/** How many of these are stuck. */
export function countStuck(schemas: readonly PtahSchema[], migrations: readonly PtahMigration[], now: Date): number {
  return schemas.filter((s) => schemaStuck(s, now).length > 0).length + migrations.filter((m) => migrationStuck(m, now).length > 0).length;
}

/** inbox's footer line, or "" when nothing is stuck; `scope` is ` -A` or ` -n NAMESPACE`. */
export function stuckFooter(count: number, scope: string): string {
  if (count === 0) return "";
  return `${count} ${count === 1 ? "object has" : "objects have"} stopped converging: kubectl ptah status${scope} --stuck\n`;
}
