// The condition history: one timeline merging the condition transitions of a schema (or
// migration), its plans and the approvals that bind it, the durable ledger of those approvals
// (approved, consumed, applied, stale), and the Events involving them, oldest first.
import type { LedgerEntry } from "../../approval/ledger.ts";
import type { Condition } from "../../model/meta.ts";
import type { KubeEvent } from "../../model/kinds.ts";
import { formatAge, formatTimestamp } from "../../render/age.ts";
import { paint, paintWord } from "../../render/color.ts";
import { sanitize } from "../../errors.ts";
import { renderTable } from "../../render/table.ts";

export interface TimelineObject {
  readonly kind: string;
  readonly name: string;
  readonly uid: string | undefined;
  readonly conditions: readonly Condition[];
}

export type TimelineEntry =
  | {
      readonly source: "condition";
      readonly time: string;
      readonly object: string;
      readonly type: string;
      readonly status: string;
      readonly reason: string;
      readonly message: string;
    }
  | {
      readonly source: "ledger";
      readonly time: string;
      readonly object: string;
      readonly what: LedgerStep;
      readonly message: string;
    }
  | {
      readonly source: "event";
      readonly time: string;
      readonly object: string;
      readonly eventType: string;
      readonly reason: string;
      readonly message: string;
      readonly count: number;
      readonly firstSeen: string;
      readonly lastSeen: string;
    };

export type LedgerStep = "approved" | "consumed" | "applied" | "stale" | "superseded" | "acknowledged" | "settled";

export function entryKey(e: TimelineEntry): string {
  if (e.source === "condition") return `c|${e.object}|${e.type}|${e.status}|${e.reason}|${e.time}`;
  if (e.source === "ledger") return `l|${e.object}|${e.what}|${e.time}`;
  return `e|${e.object}|${e.reason}|${e.firstSeen}|${e.count}`;
}

/** The durable steps of each approval's story, as timeline entries (they outlive Events). */
export function ledgerTimeline(entries: readonly LedgerEntry[]): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const e of entries) {
    const object = label(e.kind, e.name);
    const ack = e.kind === "PtahMigrationRunAcknowledgment";
    const push = (time: string | undefined, what: LedgerStep, message: string): void => {
      if (time) out.push({ source: "ledger", time, object, what, message });
    };
    const who = `${e.approver || "an unstamped identity"}${e.groups.length ? ` (${e.groups.join(", ")})` : ""}`;
    const subject = ack ? `run ${e.fingerprint}` : `plan ${e.plan} ${e.fingerprint}`;
    push(e.approvedAt, ack ? "acknowledged" : "approved", `${ack ? "acknowledged" : "approved"} by ${who}: ${subject}`);
    push(e.consumedAt, "consumed", ack ? "the acknowledgment settled the run it names" : "the approved plan was committed to one Apply dispatch");
    push(
      e.appliedAt,
      ack ? "settled" : "applied",
      ack ? "the migration records the run as resolved by this acknowledgment" : "the schema's status.applied records this fingerprint as applied",
    );
    push(e.staleAt, e.state === "Superseded" ? "superseded" : "stale", e.staleReason || "Stale");
  }
  return out;
}

function label(kind: string, name: string): string {
  return `${kind.toLowerCase()}/${name}`;
}

/** Events whose involvedObject is one of the objects (by UID when known, else kind+name). */
export function buildTimeline(objects: readonly TimelineObject[], events: readonly KubeEvent[], ledger: readonly LedgerEntry[] = []): TimelineEntry[] {
  const entries: TimelineEntry[] = ledgerTimeline(ledger);
  for (const o of objects) {
    for (const c of o.conditions) {
      if (!c.lastTransitionTime) continue;
      entries.push({
        source: "condition",
        time: c.lastTransitionTime,
        object: label(o.kind, o.name),
        type: c.type,
        status: c.status,
        reason: c.reason ?? "",
        message: c.message ?? "",
      });
    }
  }
  for (const e of events) {
    const io = e.involvedObject;
    const owner = objects.find((o) => (io?.uid && o.uid ? io.uid === o.uid : io?.kind === o.kind && io?.name === o.name));
    if (!owner) continue;
    const first = e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? "";
    const last = e.lastTimestamp ?? e.eventTime ?? first;
    entries.push({
      source: "event",
      time: first,
      object: label(owner.kind, owner.name),
      eventType: e.type ?? "Normal",
      reason: e.reason ?? "",
      message: e.message ?? "",
      count: e.count ?? 1,
      firstSeen: first,
      lastSeen: last,
    });
  }
  // Oldest first; at the same instant (timestamps have whole seconds), conditions before the
  // events that report them, and an approval's Consumed before its Stale (the operator never
  // consumes an approval after marking it stale).
  return entries.sort(
    (a, b) => Date.parse(a.time) - Date.parse(b.time) || SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || a.object.localeCompare(b.object) || lifecycleRank(a) - lifecycleRank(b),
  );
}

const SOURCE_RANK: Readonly<Record<TimelineEntry["source"], number>> = { condition: 0, ledger: 1, event: 2 };
const LIFECYCLE: Readonly<Record<string, number>> = { Consumed: 0, Accepted: 1, Stale: 2 };
const LEDGER_ORDER: Readonly<Record<LedgerStep, number>> = { approved: 0, acknowledged: 0, consumed: 1, applied: 2, settled: 2, stale: 3, superseded: 3 };

function lifecycleRank(e: TimelineEntry): number {
  if (e.source === "ledger") return LEDGER_ORDER[e.what];
  return e.source === "condition" ? (LIFECYCLE[e.type] ?? 1) : 1;
}

export interface TimelineRenderOptions {
  readonly now: Date;
  readonly absoluteTime: boolean;
  readonly color: boolean;
  readonly noHeaders: boolean;
}

function when(t: string, o: TimelineRenderOptions): string {
  return o.absoluteTime ? formatTimestamp(t) : formatAge(t, o.now);
}

export function timelineRows(entries: readonly TimelineEntry[], o: TimelineRenderOptions): string[][] {
  return entries.map((e) => {
    if (e.source === "condition") {
      const status = paintWord(e.status, o.color);
      return [when(e.time, o), sanitize(e.object), "condition", `${sanitize(e.type)}=${status}${e.reason ? ` ${sanitize(e.reason)}` : ""}`, sanitize(e.message)];
    }
    if (e.source === "ledger") return [when(e.time, o), sanitize(e.object), "ledger", e.what, sanitize(e.message)];
    const type = e.eventType === "Warning" ? paint("yellow", "Warning", o.color) : sanitize(e.eventType);
    const times = e.count > 1 ? ` (x${e.count} over ${when(e.firstSeen, o)}..${when(e.lastSeen, o)})` : "";
    return [when(e.time, o), sanitize(e.object), "event", `${type} ${sanitize(e.reason)}`, sanitize(e.message) + times];
  });
}

/**
 * What the timeline can and cannot know: the oldest Event the API server still holds in the
 * namespace (Events expire, after an hour by default), and that Kubernetes keeps only the latest
 * transition of each condition. Ledger lines come from durable fields and outlive both.
 */
export function historyNote(namespace: string, oldestEvent: string | undefined, o: TimelineRenderOptions): string {
  const ns = sanitize(namespace);
  const events = oldestEvent
    ? `The API server holds Events in namespace ${ns} back to ${formatTimestamp(oldestEvent)} (${formatAge(oldestEvent, o.now)} ago); older ones have expired.`
    : `The API server holds no Events in namespace ${ns}: they expire (after 1h by default).`;
  return `${events}\nKubernetes keeps only the latest transition of each condition; earlier transitions are not kept. Ledger lines come from durable approval fields.\n`;
}

export function renderTimeline(entries: readonly TimelineEntry[], o: TimelineRenderOptions): string {
  if (entries.length === 0) return "";
  return renderTable([o.absoluteTime ? "TIME" : "AGE", "OBJECT", "SOURCE", "WHAT", "MESSAGE"], timelineRows(entries, o), { noHeaders: o.noHeaders });
}
