// `migration`'s text and -o json from the view model of commands/migration/migration-view.ts.
import { formatTimestamp } from "../../render/age.ts";
import { formatJson } from "../../render/formats.ts";
import { sanitize } from "../../errors.ts";
import { labelLines } from "../shared/plan-view.ts";
import type { MigrationView } from "./migration-view.ts";
import { settlementLine } from "../shared/run-audit.ts";

function versions(list: readonly number[]): string {
  return list.join(", ");
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The text view; every cluster string is sanitised, and no SQL or row is ever part of it. */
export function renderMigrationText(v: MigrationView): string {
  const c = sanitize;
  const fields: [string, string][] = [
    ["Migration", c(`${v.namespace}/${v.migration}`)],
    ["Phase", c(v.phase)],
    ["Suspended", v.suspended ? "true" : ""],
    ["Artifact", c(v.artifact?.reference ?? "")],
  ];
  const h = v.history;
  if (h) {
    fields.push(
      ["History read", c(formatTimestamp(h.observedAt))],
      ["Current version", String(h.currentVersion)],
      ["Checkpoint", h.checkpointVersion > 0 ? String(h.checkpointVersion) : ""],
      ["Applied", String(h.appliedCount)],
      ["Pending", String(h.pendingCount)],
      ["Dirty", h.dirty ? "true" : ""],
      ["Modified", versions(h.modifiedVersions)],
      ["Out of order", versions(h.outOfOrderVersions)],
    );
  }
  const run = v.lastRun;
  if (run) {
    const at = run.finishedAt ? ` at ${formatTimestamp(run.finishedAt)}` : "";
    fields.push(["Last run", c(run.outcome + at)], ["Run applied", versions(run.appliedVersions)], ["Run message", c(run.message)]);
  }
  // Conditions are label lines of the same block: `<Type>:` padded to 16, then
  // `<Status> (<Reason>)`, the parentheses written even for an empty reason.
  for (const cond of v.conditions) {
    if (cond.status === "True" || cond.type === "Ready") fields.push([c(cond.type), `${c(cond.status)} (${c(cond.reason)})`]);
  }
  // Ours, after upstream's lines: the last run's audit trail, how a recorded run was settled,
  // and the Partial/Unknown run that blocks everything.
  if (run) fields.push(["Run job", c(run.jobName + (run.jobUID ? ` (uid ${run.jobUID})` : ""))], ["Dispatched by", run.dispatchedBy]);
  if (v.resolvedRun) fields.push(["Settled", settlementLine(v.resolvedRun)]);
  const u = v.unresolvedRun;
  if (u) {
    fields.push(["Unresolved run", c(u.outcome || "Unknown")], ["Operation ID", c(u.operationID)], ["Recorded", c(formatTimestamp(u.recordedAt))]);
  }
  let out = labelLines(fields) + "\n";
  const plan = v.plan;
  if (!plan) {
    out += "No plan is published.\n";
  } else {
    out += `Plan ${c(plan.name)}, ${count(plan.migrations.length, "migration")} from version ${plan.currentVersion}:\n`;
    for (const m of plan.migrations) {
      let line = `  ${String(m.version).padEnd(20)} ${c(m.description) || "(no description)"}`;
      if (m.checkpoint) line += " [checkpoint]";
      if (m.transactionMode) line += ` [tx ${c(m.transactionMode)}]`;
      out += line + "\n";
    }
  }
  if (u) {
    out +=
      `\nNothing is planned or run until the ${c(u.outcome || "Unknown")} run is settled. ` +
      "Once you have established what it did to the database, record that with:\n" +
      `  ${c(u.nextCommand)}\n`;
  }
  return out;
}

/**
 * The JSON view (2-space indent). Empty strings and empty version lists are omitted, as Go's
 * omitempty would; counts, booleans, the plan's migration list and conditions are always present.
 */
export function renderMigrationJson(v: MigrationView): string {
  return formatJson(pruneEmpty(v), 2);
}

function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => pruneEmpty(item));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) {
      if (item === "" || item === undefined) continue;
      if (Array.isArray(item) && item.length === 0 && k !== "migrations" && k !== "conditions") continue;
      out[k] = pruneEmpty(item);
    }
    return out;
  }
  return value;
}
