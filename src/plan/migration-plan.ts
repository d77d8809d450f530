// Binding checks of a migration plan against the migration that names it: same
// object (UID), owned by this migration, a sha256 fingerprint, the current history
// reading, a non-empty sequence. Migration plans hold no SQL; their fingerprint is compared,
// not recomputed (its newest key set is an open question of the contract).
import { VerificationError } from "../errors.ts";
import type { PtahMigration, PtahMigrationPlan } from "../model/kinds.ts";

const SHA256 = /^sha256:[0-9a-f]{64}$/u;

export function verifyMigrationPlanBinding(m: PtahMigration, plan: PtahMigrationPlan): void {
  const ref = m.status.plan;
  const where = `migration plan ${plan.metadata.name}`;
  if (plan.metadata.uid !== ref?.uid) {
    throw new VerificationError(`${where} has UID ${plan.metadata.uid ?? "none"} and the migration names ${ref?.uid ?? "none"}, so it is a different object under the same name`);
  }
  const mref = plan.spec.migrationRef;
  if (mref?.name !== m.metadata.name || (mref.uid && m.metadata.uid && mref.uid !== m.metadata.uid)) {
    throw new VerificationError(`${where} belongs to ${m.metadata.namespace ?? ""}/${mref?.name ?? "?"}, not to this migration`);
  }
  if (!plan.spec.fingerprint || !SHA256.test(plan.spec.fingerprint)) throw new VerificationError(`${where} carries no sha256 fingerprint`);
  const history = m.status.history?.fingerprint;
  if (history && plan.spec.historyFingerprint && history !== plan.spec.historyFingerprint) {
    throw new VerificationError(`${where} was computed against another history reading than the migration's current one`);
  }
  if (!plan.spec.migrations || plan.spec.migrations.length === 0) throw new VerificationError(`${where} lists no migrations`);
}
