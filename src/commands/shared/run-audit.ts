// A migration run's audit words, the same in `migration`, `ledger` and `explain migration`: who
// dispatched the last run (status.lastRun.dispatchedBy, jobUID) and how a recorded run was
// settled (status.resolvedRun.resolution). A resolution this plugin does not know is printed as
// it is, never dropped: the operator may add one.
import type { PtahMigration } from "../../model/kinds.ts";
import type { ManagerRecord } from "../../model/ptah-schema.ts";
import { formatTimestamp } from "../../render/age.ts";
import { sanitize } from "../../errors.ts";
import { shortImage } from "./ledger-text.ts";

/** `<revision> <controller image>, runner <runner image>`; "" when nothing is recorded. */
export function dispatcherWords(d: ManagerRecord | undefined): string {
  if (!d || (!d.controllerImage && !d.controllerRevision && !d.runnerImage)) return "";
  return sanitize(`${d.controllerRevision || "?"} ${shortImage(d.controllerImage) || "?"}, runner ${shortImage(d.runnerImage) || "?"}`);
}

/** How the run was settled: the words for the two known resolutions, any other value as it is. */
export function resolutionWords(resolution: string | undefined, acknowledgedBy: string | undefined): string {
  if (resolution === "HistoryRead") return "settled by a history read (nobody acknowledged it)";
  if (resolution === "Acknowledged") return `acknowledged by ${sanitize(acknowledgedBy || "<unknown>")}`;
  return resolution ? `settled: ${sanitize(resolution)}` : "settled (no resolution recorded)";
}

export interface Settlement {
  readonly outcome: string;
  readonly operationID: string;
  readonly resolution: string;
  readonly acknowledgedBy: string;
  readonly resolvedAt: string;
  /** resolutionWords of the above. */
  readonly words: string;
}

export function settlementOf(m: PtahMigration): Settlement | undefined {
  const r = m.status.resolvedRun;
  if (!r) return undefined;
  const by = r.acknowledgedBy?.username ?? "";
  return {
    outcome: r.outcome ?? "",
    operationID: r.operationID ?? "",
    resolution: r.resolution ?? "",
    acknowledgedBy: by,
    resolvedAt: r.resolvedAt ?? "",
    words: resolutionWords(r.resolution, by),
  };
}

/** One line: `the Partial run of operation sha256:0123456789ab… settled by a history read (…) at T`. */
export function settlementLine(s: Settlement): string {
  const op = s.operationID ? ` of operation ${sanitize(s.operationID.slice(0, 19))}${s.operationID.length > 19 ? "…" : ""}` : "";
  const at = s.resolvedAt ? ` at ${formatTimestamp(s.resolvedAt)}` : "";
  return `the ${sanitize(s.outcome || "recorded")} run${op} ${s.words}${at}`;
}

/** `explain migration`'s lines: the last run's Job and dispatcher, and how a recorded run was settled. */
export function runAuditLines(m: PtahMigration): string[] {
  const out: string[] = [];
  const last = m.status.lastRun;
  const by = dispatcherWords(last?.dispatchedBy);
  if (last && (last.jobName || last.jobUID || by)) {
    const job = last.jobName ? ` Job ${sanitize(last.jobName)}${last.jobUID ? ` (uid ${sanitize(last.jobUID)})` : ""}` : last.jobUID ? ` Job uid ${sanitize(last.jobUID)}` : "";
    out.push(`Last run:   ${sanitize(last.outcome || "unknown outcome")}${job}${by ? `, dispatched by ${by}` : ""}.`);
  }
  const settled = settlementOf(m);
  if (settled) out.push(`Settled:    ${settlementLine(settled)}.`);
  return out;
}
