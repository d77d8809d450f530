// Can this object be approved now? The same preconditions admission checks, decided from status alone, as data: { ok } or a refusal with its exit status
// (3 = nothing to approve, 1 = not approvable now) and what to do instead.
import { findCondition, isTrue } from "./state.ts";
import type { PtahMigration, PtahSchema } from "../model/kinds.ts";
import { CURRENT_PLAN_CONTRACT_VERSION } from "../plan/fingerprint.ts";

export type Precondition = { readonly ok: true } | { readonly ok: false; readonly exitStatus: 1 | 3; readonly why: string; readonly todo: string };

function readyWords(conditions: PtahSchema["status"]["conditions"]): string {
  const ready = findCondition(conditions, "Ready");
  return ready ? `, Ready=${ready.status}${ready.reason ? ` ${ready.reason}` : ""}` : "";
}

export function schemaApprovable(schema: PtahSchema, nsFlag: string): Precondition {
  const s = schema.status;
  const name = schema.metadata.name;
  const phase = s.phase ?? "unknown";
  const required = findCondition(s.conditions, "ApprovalRequired");
  if (!s.plan?.name) {
    return { ok: false, exitStatus: 3, why: `schema has no current plan (phase ${phase}): there is nothing to approve`, todo: `kubectl ptah status ${name}${nsFlag}` };
  }
  if (s.plan.approval?.name) {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced plan already has a recorded approval (${s.plan.approval.name} by ${s.plan.approval.approver?.username ?? "unknown"})`,
      todo: `kubectl ptah wait ${name}${nsFlag} --for=approval=consumed`,
    };
  }
  if (required?.status === "False" && (required.reason === "NotRequired" || required.reason === "Satisfied")) {
    return {
      ok: false,
      exitStatus: 3,
      why: `referenced schema does not currently require approval (ApprovalRequired=False ${required.reason})`,
      todo: `kubectl ptah status ${name}${nsFlag}`,
    };
  }
  if (s.activeOperation?.type) {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced schema has an active operation (${s.activeOperation.type})`,
      todo: `kubectl ptah wait ${name}${nsFlag} --for=phase=AwaitingApproval`,
    };
  }
  if (phase !== "AwaitingApproval") {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced schema is not awaiting approval (phase ${phase}${readyWords(s.conditions)})`,
      todo: `kubectl ptah explain ${name}${nsFlag}`,
    };
  }
  if (!isTrue(s.conditions, "ApprovalRequired")) {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced schema does not currently require approval (ApprovalRequired=${required?.status ?? "unset"}${required?.reason ? ` ${required.reason}` : ""})`,
      todo: `kubectl ptah explain ${name}${nsFlag}`,
    };
  }
  if (!s.plan.uid || !s.plan.fingerprint) {
    return {
      ok: false,
      exitStatus: 1,
      why: `the schema's plan record names no UID or fingerprint, so nothing binds an approval to it`,
      todo: `kubectl ptah status ${name}${nsFlag}`,
    };
  }
  return { ok: true };
}

export function migrationApprovable(m: PtahMigration, nsFlag: string): Precondition {
  const s = m.status;
  const name = m.metadata.name;
  const phase = s.phase ?? "unknown";
  if (s.unresolvedRun?.operationID) {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced migration records an unresolved ${s.unresolvedRun.outcome ? `${s.unresolvedRun.outcome} ` : ""}run; nothing is planned until it is settled`,
      todo: `kubectl ptah acknowledge ${name}${nsFlag} | kubectl create -f -`,
    };
  }
  if (!s.plan?.name) {
    return { ok: false, exitStatus: 3, why: `migration has no current plan (phase ${phase}): there is nothing to approve`, todo: `kubectl ptah migration ${name}${nsFlag}` };
  }
  if (s.activeOperation?.type) {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced migration has an active operation (${s.activeOperation.type})`,
      todo: `kubectl ptah wait migration ${name}${nsFlag} --for=phase=AwaitingApproval`,
    };
  }
  const required = findCondition(s.conditions, "ApprovalRequired");
  if (required?.status === "False" && required.reason === "NotRequired") {
    return {
      ok: false,
      exitStatus: 3,
      why: `referenced migration does not currently require approval (ApprovalRequired=False NotRequired)`,
      todo: `kubectl ptah migration ${name}${nsFlag}`,
    };
  }
  if (phase !== "AwaitingApproval") {
    return {
      ok: false,
      exitStatus: 1,
      why: `referenced migration is not awaiting approval (phase ${phase}${readyWords(s.conditions)})`,
      todo: `kubectl ptah explain migration ${name}${nsFlag}`,
    };
  }
  if (!isTrue(s.conditions, "ApprovalRequired")) {
    return { ok: false, exitStatus: 1, why: `referenced migration does not currently require approval`, todo: `kubectl ptah explain migration ${name}${nsFlag}` };
  }
  if (!s.plan.uid) {
    return { ok: false, exitStatus: 1, why: `the migration's plan reference names no UID, so nothing binds an approval to it`, todo: `kubectl ptah migration ${name}${nsFlag}` };
  }
  return { ok: true };
}

/**
 * The current operator admits an approval only for a plan of its own contract version (its
 * admission says "contract version must equal the current one"). `plan` still
 * reads and verifies a plan of an earlier generation (contract 3); `approve` refuses it, because
 * admission would. A plan without a version is refused too.
 */
export function planContractApprovable(target: "schema" | "migration", name: string, contractVersion: number | undefined, nsFlag: string): Precondition {
  const current = CURRENT_PLAN_CONTRACT_VERSION;
  if (contractVersion === current) return { ok: true };
  const shown = contractVersion === undefined ? "(none)" : String(contractVersion);
  const why =
    target === "migration"
      ? `referenced plan contract version ${shown} is not the one this manager publishes (${current})`
      : `referenced plan contract is not supported: contract version ${shown} is not the current one (${current})`;
  const read = target === "migration" ? `kubectl ptah migration ${name}${nsFlag}` : `kubectl ptah plan ${name}${nsFlag}`;
  return { ok: false, exitStatus: 1, why, todo: `${read} still reads it; the operator publishes a new plan under contract version ${current}` };
}
