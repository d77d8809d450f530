// What `migration` prints (go-client §3): history, the pending sequence, the last run and
// conditions, never SQL or rows; plus the unresolved run and the acknowledgment to run next.
import type { PtahMigration, PtahMigrationPlan } from "../../model/kinds.ts";
import { formatTimestamp } from "../../render/age.ts";
import { formatJson } from "../../render/formats.ts";
import { sanitize } from "../../errors.ts";
import { labelLines } from "../../views/plan.ts";

export interface MigrationView {
  readonly namespace: string;
  readonly migration: string;
  readonly phase: string;
  readonly suspended: boolean;
  readonly artifact?: { readonly reference: string; readonly digest: string };
  readonly history?: {
    readonly observedAt: string;
    readonly currentVersion: number;
    readonly checkpointVersion: number;
    readonly appliedCount: number;
    readonly pendingCount: number;
    readonly dirty: boolean;
    readonly modifiedVersions: readonly number[];
    readonly outOfOrderVersions: readonly number[];
    readonly fingerprint: string;
  };
  readonly plan?: {
    readonly name: string;
    readonly fingerprint: string;
    readonly currentVersion: number;
    readonly createdAt: string;
    readonly migrations: readonly {
      readonly version: number;
      readonly versionKey: string;
      readonly description: string;
      readonly checksum: string;
      readonly checkpoint: boolean;
      readonly transactionMode: string;
    }[];
  };
  readonly lastRun?: {
    readonly outcome: string;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly appliedVersions: readonly number[];
    readonly message: string;
  };
  /** Ours: a Partial/Unknown run that blocks everything until it is settled. */
  readonly unresolvedRun?: {
    readonly outcome: string;
    readonly operationID: string;
    readonly jobName: string;
    readonly recordedAt: string;
    /** The command that settles it once a person knows what the run did. */
    readonly nextCommand: string;
  };
  readonly conditions: readonly { readonly type: string; readonly status: string; readonly reason: string; readonly message: string }[];
}

/**
 * `plan` is the migration's current plan only when it is still the object the migration names
 * (same UID, and owned by this migration); otherwise it is omitted, as upstream does.
 */
export function buildMigrationView(migration: PtahMigration, namespace: string, plan: PtahMigrationPlan | undefined): MigrationView {
  const s = migration.status;
  const name = migration.metadata.name;
  const ref = s.plan;
  const planMatches =
    plan !== undefined &&
    !!ref?.name &&
    plan.metadata.name === ref.name &&
    !!ref.uid &&
    plan.metadata.uid === ref.uid &&
    (plan.spec.migrationRef?.uid === undefined || plan.spec.migrationRef.uid === migration.metadata.uid);
  const h = s.history;
  const run = s.lastRun;
  const unresolved = s.unresolvedRun;
  const artifactRef = s.artifact?.resolvedReference ?? "";
  const artifactDigest = s.artifact?.digest ?? "";
  return {
    namespace,
    migration: name,
    phase: s.phase ?? "",
    suspended: migration.spec.suspend === true,
    ...(artifactRef || artifactDigest ? { artifact: { reference: artifactRef, digest: artifactDigest } } : {}),
    ...(h
      ? {
          history: {
            observedAt: h.observedAt ?? "",
            currentVersion: h.currentVersion ?? 0,
            checkpointVersion: h.checkpointVersion ?? 0,
            appliedCount: h.appliedCount ?? 0,
            pendingCount: h.pendingCount ?? 0,
            dirty: h.dirty === true,
            modifiedVersions: h.modifiedVersions ?? [],
            outOfOrderVersions: h.outOfOrderVersions ?? [],
            fingerprint: h.fingerprint ?? "",
          },
        }
      : {}),
    ...(planMatches
      ? {
          plan: {
            name: plan.metadata.name,
            fingerprint: plan.spec.fingerprint ?? "",
            currentVersion: plan.spec.currentVersion ?? 0,
            createdAt: plan.spec.createdAt ?? plan.metadata.creationTimestamp ?? "",
            migrations: (plan.spec.migrations ?? []).map((m) => ({
              version: m.version ?? 0,
              versionKey: m.versionKey ?? "",
              description: m.description ?? "",
              checksum: m.checksum ?? "",
              checkpoint: m.checkpoint === true,
              transactionMode: m.transactionMode ?? "",
            })),
          },
        }
      : {}),
    ...(run
      ? {
          lastRun: {
            outcome: run.outcome ?? "",
            startedAt: run.startedAt ?? "",
            finishedAt: run.finishedAt ?? "",
            appliedVersions: run.appliedVersions ?? [],
            message: run.message ?? "",
          },
        }
      : {}),
    ...(unresolved
      ? {
          unresolvedRun: {
            outcome: unresolved.outcome ?? "",
            operationID: unresolved.operationID ?? "",
            jobName: unresolved.jobName ?? "",
            recordedAt: unresolved.recordedAt ?? "",
            nextCommand: `kubectl ptah acknowledge ${name} -n ${namespace}`,
          },
        }
      : {}),
    conditions: s.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? "", message: c.message ?? "" })),
  };
}

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
  // Conditions are label lines of the same block (go-client §10.3): `<Type>:` padded to 16, then
  // `<Status> (<Reason>)`, the parentheses written even for an empty reason.
  for (const cond of v.conditions) {
    if (cond.status === "True" || cond.type === "Ready") fields.push([c(cond.type), `${c(cond.status)} (${c(cond.reason)})`]);
  }
  // Ours, after upstream's lines: the Partial/Unknown run that blocks everything.
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
