// A migration's history as the operator reads it: the artifact's versions against the rows of the
// revision table (database.ts), the pending sequence, modified and ahead versions, and the
// A history fingerprint in the operator's style.
import { sha256, type MigrationArtifact } from "./catalog.ts";
import { digestOf } from "./common.ts";
import type { RevisionRow } from "./database.ts";
import type { MigrationStep } from "./plans.ts";

export interface History {
  currentVersion: number;
  appliedCount: number;
  pending: MigrationStep[];
  fingerprint: string;
  modified: number[];
  ahead: number[];
}

export function stepsOf(art: MigrationArtifact): MigrationStep[] {
  return art.files.map((f) => ({ version: f.version, versionKey: String(f.version), description: f.description, checksum: sha256(f.sql), checkpoint: false, transactionMode: "" }));
}

export function readHistory(art: MigrationArtifact, revisions: readonly RevisionRow[]): History {
  const steps = stepsOf(art);
  const applied = new Map(revisions.map((r) => [r.version, r]));
  const currentVersion = revisions.reduce((m, r) => Math.max(m, r.version), 0);
  const known = new Set(steps.map((s) => s.version));
  const modified = steps.filter((s) => applied.has(s.version) && applied.get(s.version)!.checksum !== s.checksum).map((s) => s.version);
  const ahead = revisions.filter((r) => !known.has(r.version)).map((r) => r.version);
  const pending = steps.filter((s) => !applied.has(s.version));
  const fingerprint = digestOf({
    contract_version: 1,
    current_version: currentVersion,
    checkpoint_version: 0,
    total_migrations: steps.length,
    migrations: steps.map((s) => ({
      version: s.version,
      version_key: s.versionKey,
      checksum: s.checksum,
      applied_checksum: applied.get(s.version)?.checksum ?? "",
      checkpoint: false,
      state: applied.has(s.version) ? "applied" : "pending",
    })),
    dirty: false,
  });
  return { currentVersion, appliedCount: revisions.length, pending, fingerprint, modified, ahead };
}
