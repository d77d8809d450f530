// The condition history: one timeline merging the condition transitions of a schema (or
// migration), its plans and the approvals that bind it, with the Events involving them,
// oldest first.
import type { Condition } from "../model/meta.ts";
import type { KubeEvent } from "../model/kinds.ts";
import { formatAge, formatTimestamp } from "../render/age.ts";
import { paint, paintWord } from "../render/color.ts";
import { sanitize } from "../render/sanitize.ts";
import { renderTable } from "../render/table.ts";

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

export function entryKey(e: TimelineEntry): string {
  return e.source === "condition" ? `c|${e.object}|${e.type}|${e.status}|${e.reason}|${e.time}` : `e|${e.object}|${e.reason}|${e.firstSeen}|${e.count}`;
}

function label(kind: string, name: string): string {
  return `${kind.toLowerCase()}/${name}`;
}

/** Events whose involvedObject is one of the objects (by UID when known, else kind+name). */
export function buildTimeline(objects: readonly TimelineObject[], events: readonly KubeEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
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
    (a, b) =>
      Date.parse(a.time) - Date.parse(b.time) ||
      (a.source === b.source ? 0 : a.source === "condition" ? -1 : 1) ||
      a.object.localeCompare(b.object) ||
      lifecycleRank(a) - lifecycleRank(b),
  );
}

const LIFECYCLE: Readonly<Record<string, number>> = { Consumed: 0, Accepted: 1, Stale: 2 };

function lifecycleRank(e: TimelineEntry): number {
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
    const type = e.eventType === "Warning" ? paint("yellow", "Warning", o.color) : sanitize(e.eventType);
    const times = e.count > 1 ? ` (x${e.count} over ${when(e.firstSeen, o)}..${when(e.lastSeen, o)})` : "";
    return [when(e.time, o), sanitize(e.object), "event", `${type} ${sanitize(e.reason)}`, sanitize(e.message) + times];
  });
}

export function renderTimeline(entries: readonly TimelineEntry[], o: TimelineRenderOptions): string {
  if (entries.length === 0) return "";
  return renderTable([o.absoluteTime ? "TIME" : "AGE", "OBJECT", "SOURCE", "WHAT", "MESSAGE"], timelineRows(entries, o), { noHeaders: o.noHeaders });
}
