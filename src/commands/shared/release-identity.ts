// Which operator release is running, from what the chart and the CRDs say of themselves
// (upstream-2026-12-05.md §4): the release name and sequence the chart stamps on
// ptah-operator-admission, and each CRD's schema version and digest. Read by `version` and
// `doctor`; every value is already sanitised by the reads (kube/inspect.ts, kube/admission-reads.ts).
import type { CrdAnnotations } from "../../kube/types.ts";
import { PTAH_GROUP } from "../../model/api.ts";

export const RELEASE_NAME_ANNOTATION = `${PTAH_GROUP}/release-name`;
export const RELEASE_SEQUENCE_ANNOTATION = `${PTAH_GROUP}/release-sequence`;
const SCHEMA_VERSION = `${PTAH_GROUP}/crd-schema-version`;
const SCHEMA_DIGEST = `${PTAH_GROUP}/crd-schema-digest`;

/** `NAME, sequence N` from the admission configuration's annotations; undefined when it names neither. */
export function releaseWords(annotations: Readonly<Record<string, string>>): string | undefined {
  const name = annotations[RELEASE_NAME_ANNOTATION];
  const sequence = annotations[RELEASE_SEQUENCE_ANNOTATION];
  if (name === undefined && sequence === undefined) return undefined;
  return `${name ?? "(unnamed)"}${sequence === undefined ? "" : `, sequence ${sequence}`}`;
}

export interface CrdSchemaGroup {
  readonly version: string | undefined;
  readonly digest: string | undefined;
  readonly crds: readonly string[];
}

/** The found CRDs that carry a schema version or digest, grouped by the pair (one group when all agree). */
export function crdSchemaGroups(crds: readonly CrdAnnotations[]): CrdSchemaGroup[] {
  const groups = new Map<string, { version: string | undefined; digest: string | undefined; crds: string[] }>();
  for (const c of crds) {
    if (!c.found) continue;
    const version = c.annotations[SCHEMA_VERSION];
    const digest = c.annotations[SCHEMA_DIGEST];
    if (version === undefined && digest === undefined) continue;
    const key = `${version ?? ""}\u0000${digest ?? ""}`;
    const g = groups.get(key) ?? { version, digest, crds: [] };
    g.crds.push(c.name);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** One line per group: `crd-schema-version 1, crd-schema-digest sha256:… on all 8` (or on the CRDs named). */
export function crdSchemaLines(groups: readonly CrdSchemaGroup[]): string[] {
  const words = (g: CrdSchemaGroup): string => `crd-schema-version ${g.version ?? "(none)"}, crd-schema-digest ${g.digest ?? "(none)"}`;
  if (groups.length === 1) return [`${words(groups[0]!)} on all ${groups[0]!.crds.length}`];
  return groups.map((g) => `${words(g)} on ${g.crds.join(", ")}`);
}
