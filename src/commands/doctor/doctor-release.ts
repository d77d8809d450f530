// doctor's "operator release" row: which operator is running, as upstream's FAQ asks a bug report
// to say. The chart stamps its release name and sequence on ptah-operator-admission; every CRD
// carries its schema version and digest; the manager's image is in the newest dispatch record a
// schema or migration keeps (status.applied.dispatchedBy, lastRun.dispatchedBy). Each part is
// said where it was read and named as unknown where it was not; the row is information, never a
// problem.
import type { AdmissionConfiguration, CrdAnnotations } from "../../kube/types.ts";
import type { ManagerRecord } from "../../model/kinds.ts";
import { sanitize } from "../../render/sanitize.ts";
import { managerWords } from "../shared/pending.ts";
import { crdSchemaGroups, crdSchemaLines, RELEASE_NAME_ANNOTATION, RELEASE_SEQUENCE_ANNOTATION, releaseWords as wordsOf } from "../shared/release-identity.ts";
import type { Outcome } from "./doctor-connection.ts";
import { ok, skipped, type Check } from "./doctor-report.ts";
import type { StuckFacts } from "./doctor-stuck.ts";

const NAME = "operator release";

/** The chart's release, from the admission configuration's annotations; undefined when it names none. */
function releaseWords(admission: Outcome<AdmissionConfiguration>): string | undefined {
  return admission.kind === "value" && admission.value.found ? wordsOf(admission.value.annotations) : undefined;
}

/** The CRDs' schema versions and digests, one line per distinct pair (one line when all agree). */
function crdLines(crds: Outcome<readonly CrdAnnotations[]> | undefined): string[] {
  if (crds?.kind !== "value") return [];
  const groups = crdSchemaGroups(crds.value);
  return groups.length === 0 ? [] : crdSchemaLines(groups).map((l) => `CRDs: ${l}`);
}

/** The newest dispatch record of what was read: the manager image that last dispatched an Apply. */
function newestDispatch(stuck: StuckFacts): { by: ManagerRecord; what: string; at: string } | undefined {
  if (stuck.kind !== "read") return undefined;
  const records = [
    ...stuck.schemas.map((s) => ({ by: s.status.applied?.dispatchedBy, what: `ptahschema ${s.metadata.namespace ?? ""}/${s.metadata.name}`, at: s.status.applied?.completedAt })),
    ...stuck.migrations.map((m) => ({
      by: m.status.lastRun?.dispatchedBy,
      what: `ptahmigration ${m.metadata.namespace ?? ""}/${m.metadata.name}`,
      at: m.status.lastRun?.finishedAt ?? m.status.lastRun?.startedAt,
    })),
  ].filter((r): r is { by: ManagerRecord; what: string; at: string } => r.by !== undefined && r.at !== undefined && !Number.isNaN(Date.parse(r.at)));
  return records.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.what.localeCompare(b.what))[0];
}

export function releaseCheck(admission: Outcome<AdmissionConfiguration>, crds: Outcome<readonly CrdAnnotations[]> | undefined, stuck: StuckFacts): Check {
  const release = releaseWords(admission);
  const schema = crdLines(crds);
  const dispatch = newestDispatch(stuck);
  const manager = dispatch ? `manager: ${sanitize(managerWords(dispatch.by) ?? "")} (the newest dispatch read: ${sanitize(dispatch.what)} at ${sanitize(dispatch.at)})` : undefined;
  if (release === undefined && schema.length === 0 && manager === undefined) {
    const unread = (o: Outcome<unknown> | undefined): boolean => o === undefined || o.kind !== "value";
    const why = [
      unread(admission) ? "ptah-operator-admission was not read" : `ptah-operator-admission carries no ${RELEASE_NAME_ANNOTATION} or ${RELEASE_SEQUENCE_ANNOTATION}`,
      unread(crds) ? "the CRDs were not read" : "no CRD carries a schema version",
      stuck.kind === "read" ? "no dispatch record was read" : "no schema or migration was read",
    ];
    return skipped("Operator", NAME, `not known: ${why.join("; ")}`);
  }
  const details = [...schema, ...(manager ? [manager] : ["manager: no dispatch record was read (nothing applied yet, or not readable)"])];
  return ok("Operator", NAME, release === undefined ? "release not named on ptah-operator-admission (an older chart, or not read)" : `release ${sanitize(release)}`, details);
}
