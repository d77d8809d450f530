// The `Next:` line: the exact command a person should run, from the schema's state.
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { findCondition, isTrue } from "../../model/conditions.ts";
import { sanitize } from "../../errors.ts";
import { pastApproval } from "./status-lag.ts";

/** ` -n <ns>` when the command must name the namespace, else "". */
export type NamespaceFlag = string;

/**
 * The command printing the line, when it is one the line could otherwise name: a `Next:` never
 * repeats the command the reader just ran.
 */
export type PrintedBy = "status" | "explain";

/**
 * `earlier`, the newest approval of this schema that was already used (consumed, or stale after
 * use; the caller derives it with approval/state.ts's newestUsedApproval from the approvals it
 * read), lets the line point at `diff`: what changed since is the first question.
 */
export function schemaNextStep(schema: PtahSchema, nsFlag: NamespaceFlag, earlier?: PtahSchemaApproval, from: PrintedBy = "status"): string {
  const name = sanitize(schema.metadata.name);
  const s = schema.status;
  const ready = findCondition(s.conditions, "Ready");
  if (schema.spec.suspend || s.phase === "Suspended") {
    return `reconciliation is suspended; resume it with: kubectl patch ptahschema ${name}${nsFlag} --type=merge -p '{"spec":{"suspend":false}}'`;
  }
  if (s.phase === "InSync") return `nothing to do; the story so far: kubectl ptah history ${name}${nsFlag}`;
  if (s.plan?.approval?.name) {
    if (s.phase === "Applying" || s.phase === "VerifyingConvergence" || s.phase === "ReadyToApply") {
      return `the approved plan is being applied; follow it with: kubectl ptah wait ${name}${nsFlag} --for=phase=InSync`;
    }
    return `an approval is reserved; follow it with: kubectl ptah wait ${name}${nsFlag} --for=approval=consumed`;
  }
  if (s.phase === "AwaitingApproval" && isTrue(s.conditions, "ApprovalRequired")) {
    const approve = `then approve it with: kubectl ptah approve ${name}${nsFlag} | kubectl create -f -`;
    if (earlier && earlier.spec.planRef?.name !== s.plan?.name) {
      return `see what changed since approval ${sanitize(earlier.metadata.name)} with: kubectl ptah diff ${name}${nsFlag}, ${approve}`;
    }
    return `read the plan with: kubectl ptah plan ${name}${nsFlag}, ${approve}`;
  }
  if (ready?.reason === "DestructiveChangesDisabled" || ready?.reason === "PolicyBlocked") {
    return `read the destructive plan with: kubectl ptah plan ${name}${nsFlag}; then narrow the desired schema or set spec.policy.allowDestructive (kubectl ptah explain ${sanitize(ready.reason)})`;
  }
  if (s.phase === "Applying" || s.phase === "VerifyingConvergence") return `follow it with: kubectl ptah wait ${name}${nsFlag} --for=phase=InSync`;
  if (ready?.reason && from !== "explain") return `find out what ${sanitize(ready.reason)} means and what to do: kubectl ptah explain ${name}${nsFlag}`;
  if (ready?.reason) return `the story so far: kubectl ptah history ${name}${nsFlag}; follow it with: kubectl ptah status ${name}${nsFlag} --watch`;
  return `the operator is working; follow it with: kubectl ptah status ${name}${nsFlag} --watch`;
}

export function migrationNextStep(migration: PtahMigration, nsFlag: NamespaceFlag, from: PrintedBy = "status"): string {
  const name = sanitize(migration.metadata.name);
  const s = migration.status;
  if (s.unresolvedRun?.operationID) {
    return `establish what the ${sanitize(s.unresolvedRun.outcome ?? "unresolved")} run did, then settle it with: kubectl ptah acknowledge ${name}${nsFlag} | kubectl create -f -`;
  }
  // Past the wait, whatever a lagging condition still says: never approve what is being used.
  if (pastApproval("PtahMigration", migration) && s.phase !== "InSync") {
    return `the approved run is in progress; follow it with: kubectl ptah wait migration ${name}${nsFlag} --for=phase=InSync`;
  }
  if (s.phase === "AwaitingApproval" && isTrue(s.conditions, "ApprovalRequired")) {
    return `read the plan with: kubectl ptah migration ${name}${nsFlag}, then approve it with: kubectl ptah approve migration ${name}${nsFlag} | kubectl create -f -`;
  }
  if (s.phase === "InSync") return `nothing to do; the story so far: kubectl ptah history migration ${name}${nsFlag}`;
  if (from === "explain") return `its history, planned sequence and last run: kubectl ptah migration ${name}${nsFlag}`;
  return `find out why it is ${sanitize(s.phase ?? "pending")}: kubectl ptah explain migration ${name}${nsFlag}`;
}
