// What the approval policies add to the ledger: who endorsed each approved plan (the schema's
// endorsement annotation for that plan's fingerprint, as `endorse` wrote it), and whether an
// approval was consumed while the bound change windows or freezes were closed (an approval
// admitted inside a window can be dispatched after it closes: the ledger is where that shows).
// When endorsements are recorded but no quorum policy is bound any more, one warning says so.
import { endorsementKey, endorsersOf } from "../../approval/endorsement.ts";
import type { LedgerEntry } from "../../approval/ledger.ts";
import { judge } from "../../approval/policy-judge.ts";
import type { PolicySet } from "../../approval/policy-set.ts";
import { probeRequest } from "../../approval/policy-state.ts";
import { sanitize } from "../../errors.ts";
import type { PtahSchema } from "../../model/kinds.ts";
import { KINDS } from "../../model/parse.ts";
import type { PolicyRead } from "../shared/policy-readback.ts";

export interface PolicyLedger {
  readonly entries: LedgerEntry[];
  /** Warning lines for stderr. */
  readonly warnings: string;
}

export function withPolicies(entries: readonly LedgerEntry[], schemas: readonly PtahSchema[], read: PolicyRead): PolicyLedger {
  const bySchema = new Map(schemas.map((s) => [`${s.metadata.namespace ?? ""}/${s.metadata.name}`, s]));
  const out = entries.map((e): LedgerEntry => {
    if (e.kind !== "PtahSchemaApproval" || !e.fingerprint) return e;
    const annotations = bySchema.get(`${e.namespace}/${e.owner}`)?.metadata.annotations ?? {};
    const endorsers = endorsersOf(annotations[endorsementKey(e.fingerprint)]);
    return endorsers.length > 0 ? { ...e, endorsers } : e;
  });
  const flagged = read.kind === "policies" ? out.map((e) => outside(e, bySchema, read.set, read.cel)) : out;
  const quorum = read.kind === "policies" && read.set.policies.some((p) => p.part === "quorum");
  const endorsed = flagged.some((e) => (e.endorsers?.length ?? 0) > 0);
  const warnings =
    endorsed && read.kind !== "unreadable" && !quorum
      ? "Warning: endorsements are recorded, but no quorum policy is bound now: approvals are not required to have them (kubectl ptah doctor lists the policies)\n"
      : read.kind === "unreadable" && endorsed
        ? `Warning: approval policies not read: ${sanitize(read.why)}\n`
        : "";
  return { entries: flagged, warnings };
}

/** The entry flagged when the time policies bound now would have refused it at the moment it was consumed. */
function outside(e: LedgerEntry, bySchema: ReadonlyMap<string, PtahSchema>, set: PolicySet, cel: Parameters<typeof judge>[0]): LedgerEntry {
  if (e.consumedAt === undefined || e.kind === "PtahMigrationRunAcknowledgment") return e;
  const timed = { ...set, policies: set.policies.filter((p) => p.part === "window" || p.part === "freeze") };
  if (timed.policies.length === 0) return e;
  const schema = bySchema.get(`${e.namespace}/${e.owner}`);
  const base = probeRequest({
    namespace: e.namespace,
    schema: (schema ?? { metadata: { name: e.owner } }) as unknown as Record<string, unknown>,
    schemas: [],
    at: new Date(e.consumedAt),
  });
  const migration = e.kind === "PtahMigrationApproval";
  const req = {
    ...base,
    ...(migration
      ? { resource: KINDS.PtahMigrationApproval.plural, kind: "PtahMigrationApproval", object: { metadata: { name: e.name }, spec: { migrationRef: { name: e.owner } } } }
      : { object: { ...base.object, metadata: { name: e.name } } }),
    user: { username: e.approver, groups: [...e.groups] },
  };
  return judge(cel, timed, req).kind === "refused" ? { ...e, consumedOutsideWindow: true } : e;
}
