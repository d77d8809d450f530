// What an object still owes after an Apply (the newest operator's status fields): the
// post-Apply proof (status.pendingObservation), a retired execution binding's leftovers
// (status.pendingBindingRetirement) and a realm Lease not yet released (status.pendingLockRelease),
// each as one line of fact and one of what happens next. A view model; commands render the lines.
import type { ManagerRecord, PtahMigration, PtahSchema } from "../../model/kinds.ts";

export interface PendingItem {
  /** The field, as `status SCHEMA` labels it. */
  readonly label: "Proof owed" | "Retirement" | "Lock release";
  readonly field: string;
  /** What the record says, in words. */
  readonly fact: string;
  /** What the operator does next, and whether a person has anything to do. */
  readonly next: string;
}

/** `v1.4.2 registry/ptah-operator@sha256:…, runner registry/ptah-runner@sha256:…`. */
export function managerWords(d: ManagerRecord | undefined): string | undefined {
  if (!d) return undefined;
  return `${d.controllerRevision || "?"} ${d.controllerImage || "?"}, runner ${d.runnerImage || "?"}`;
}

function observeAfterWords(at: string | undefined, now: Date): string {
  if (!at) return "proof may start now";
  const t = Date.parse(at);
  if (Number.isNaN(t)) return `proof starts after ${at}`;
  return t > now.getTime() ? `proof starts after ${at}, once the Apply's Pod can no longer be running` : `proof may start now (observe after ${at} has passed)`;
}

export function schemaPending(schema: PtahSchema, now: Date): PendingItem[] {
  const s = schema.status;
  const out: PendingItem[] = [];
  const po = s.pendingObservation;
  if (po) {
    const plan = po.plan?.name ? ` of ${po.plan.name}` : "";
    const by = managerWords(po.dispatchedBy);
    const outcome =
      po.outcome === "OutcomeUnknown"
        ? `the Apply${plan} may or may not have changed the database (OutcomeUnknown)`
        : `the Apply${plan} reported success (ApplySucceeded), not yet proven`;
    out.push({
      label: "Proof owed",
      field: "status.pendingObservation",
      fact: `${outcome}${by ? `; dispatched by ${by}` : ""}`,
      next: `${observeAfterWords(po.observeAfter, now)}; a read-only observation then decides: converged writes status.applied, otherwise a new plan. Nothing else may mutate the database meanwhile, and nothing is yours to do.`,
    });
  }
  const r = s.pendingBindingRetirement;
  if (r) {
    const owes = [
      ...(r.plan?.name ? [`mark the approvals of ${r.plan.name} stale`] : []),
      ...(r.job?.name ? [`clean up the ${r.job.operation ? `${r.job.operation} ` : ""}Job ${r.job.name} once it has stopped`] : []),
    ];
    out.push({
      label: "Retirement",
      field: "status.pendingBindingRetirement",
      fact: `the execution binding ${r.retiredEpoch ?? "(no epoch recorded)"} was retired (executor, Ptah version, runner protocol or state version changed)`,
      next: `the operator will ${owes.length > 0 ? owes.join(" and ") : "settle the record"}; no new rotation starts until then. A plan of the retired binding can never apply: approve the new plan when it is published.`,
    });
  }
  const l = s.pendingLockRelease;
  if (l) out.push(lockItem(l.operationID, l.leaseEpoch));
  return out;
}

export function migrationPending(m: PtahMigration): PendingItem[] {
  const l = m.status.pendingLockRelease;
  return l ? [lockItem(l.operationID, l.leaseEpoch)] : [];
}

function lockItem(operationID: string | undefined, leaseEpoch: string | undefined): PendingItem {
  return {
    label: "Lock release",
    field: "status.pendingLockRelease",
    fact: `the database realm's Lease is still held for operation ${operationID ?? "(unnamed)"}${leaseEpoch ? ` (epoch ${leaseEpoch})` : ""}`,
    next: "the operator releases it on its next pass (the release is idempotent); until then other objects on the same database wait their turn.",
  };
}
