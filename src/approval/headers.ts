// The comment headers printed above an approval or acknowledgment manifest: what it approves,
// how it was verified, what to read first and how to create it. Every cluster string is
// sanitised here; the caller serialises the manifest (YAML under the header, or bare JSON).
import { sanitize } from "../errors.ts";
import { fourEyesHeader, type FourEyes } from "./four-eyes.ts";
import type { Ref } from "./manifest.ts";

/** The suggested command keeps --allow-self when it was needed. */
function selfFlag(f: FourEyes): string {
  return f.kind === "self-allowed" ? " --allow-self" : "";
}

export interface SchemaApprovalFacts {
  readonly namespace: string;
  readonly schema: string;
  readonly plan: Ref;
  readonly fingerprint: string;
  readonly statements: number;
  readonly destructive: boolean;
  readonly privilegeChanges: readonly string[];
  /** The tables a declarative-data plan manages (its statements carry their row values); none for a schema-only plan. */
  readonly rowValueTables?: readonly string[];
  /** The last spec writer, as approve found it. */
  readonly fourEyes: FourEyes;
  /** " -n <ns>" when suggested commands need it, else "". */
  readonly nsFlag: string;
  /** The plan's lock impact in one line (the strongest lock, until when, what it blocks, lockTimeout) and its findings counted. */
  readonly locks?: { readonly line: string; readonly findings: number };
}

/** What the approval lets the operator lock, beside what it changes: an approver's question. */
function lockLines(f: SchemaApprovalFacts): string[] {
  if (!f.locks) return [];
  const read = `kubectl ptah plan ${sanitize(f.schema)}${f.nsFlag} --locks`;
  return [`Lock impact: ${sanitize(f.locks.line)}`, `Lock findings: ${f.locks.findings}; each statement's locks: ${read}`];
}

/** Only for a data plan: approving it lets the operator write these rows, and whoever reads the plan reads them. */
function rowValueLines(tables: readonly string[]): string[] {
  return tables.length === 0 ? [] : [`  row values:        YES: this plan carries row values (${tables.map(sanitize).join(", ")})`];
}

export function schemaApprovalHeader(f: SchemaApprovalFacts): string[] {
  return [
    `Approves the current plan of ${sanitize(f.namespace)}/${sanitize(f.schema)}, verified by kubectl ptah (chunks, content digest, fingerprint):`,
    `  plan:              ${sanitize(f.plan.name)} (uid ${sanitize(f.plan.uid)})`,
    `  fingerprint:       ${sanitize(f.fingerprint)}`,
    `  statements:        ${f.statements}`,
    `  destructive:       ${f.destructive ? "YES" : "no"}`,
    `  privilege changes: ${f.privilegeChanges.length > 0 ? f.privilegeChanges.map(sanitize).join(", ") : "none"}`,
    ...rowValueLines(f.rowValueTables ?? []),
    ...fourEyesHeader(f.fourEyes),
    ...lockLines(f),
    `Read the SQL first:  kubectl ptah plan ${sanitize(f.schema)}${f.nsFlag}`,
    `Then create it:      kubectl ptah approve ${sanitize(f.schema)}${f.nsFlag}${selfFlag(f.fourEyes)} | kubectl create -f -`,
    "Admission stamps you as the approver; the approval authorises this exact plan once.",
  ];
}

export interface MigrationApprovalFacts {
  readonly namespace: string;
  readonly migration: string;
  readonly plan: Ref;
  readonly fingerprint: string;
  readonly currentVersion: number;
  readonly versions: readonly string[];
  readonly fourEyes: FourEyes;
  readonly nsFlag: string;
}

export function migrationApprovalHeader(f: MigrationApprovalFacts): string[] {
  return [
    `Approves the current plan of migration ${sanitize(f.namespace)}/${sanitize(f.migration)}:`,
    `  plan:         ${sanitize(f.plan.name)} (uid ${sanitize(f.plan.uid)})`,
    `  fingerprint:  ${sanitize(f.fingerprint)}`,
    `  migrations:   ${f.versions.length} from version ${f.currentVersion}: ${f.versions.map(sanitize).join(", ")}`,
    ...fourEyesHeader(f.fourEyes),
    "The migration fingerprint is compared, not recomputed: its key set is not pinned by the contract.",
    `Read the plan first: kubectl ptah migration ${sanitize(f.migration)}${f.nsFlag}`,
    `Then create it:      kubectl ptah approve migration ${sanitize(f.migration)}${f.nsFlag}${selfFlag(f.fourEyes)} | kubectl create -f -`,
  ];
}

export interface AcknowledgmentFacts {
  readonly namespace: string;
  readonly migration: string;
  readonly outcome: string | undefined;
  readonly operationID: string;
  readonly jobName: string | undefined;
  /** RFC 3339, already formatted ("" when the run records no time). */
  readonly recorded: string;
  readonly nsFlag: string;
}

export function acknowledgmentHeader(f: AcknowledgmentFacts): string[] {
  return [
    `Acknowledges the ${sanitize(f.outcome ?? "unresolved")} run of migration ${sanitize(f.namespace)}/${sanitize(f.migration)}:`,
    `  operation:  ${sanitize(f.operationID)}`,
    `  job:        ${sanitize(f.jobName ?? "-")}`,
    `  recorded:   ${f.recorded || "-"}`,
    `A ${f.outcome ? `${sanitize(f.outcome)} ` : ""}run may have committed some statements. Acknowledging states that you have`,
    "established what it did; the operator then reads the database's history again before planning.",
    `Create it:   kubectl ptah acknowledge ${sanitize(f.migration)}${f.nsFlag} | kubectl create -f -`,
  ];
}

/** The header of `--dry-run=server`'s answer. */
export const DRY_RUN_HEADER: readonly string[] = ["Server dry run (nothing was stored): admission accepted this approval and would store:"];
