// The API group and the Ptah kinds' names, without their schemas: what code that never parses
// an object needs (manifests, `version`), so offline commands do not load zod.

export const PTAH_GROUP = "operator.ptah.run";
export const PTAH_VERSION = "v1alpha1";
export const PTAH_API_VERSION = `${PTAH_GROUP}/${PTAH_VERSION}`;
/** The label every approval policy and binding `policy render` prints carries, valued by its part. */
export const APPROVAL_POLICY_LABEL = "ptah.run/approval-policy";

/** Every operator.ptah.run kind the plugin reads (PtahResultRecord and PtahRealm excluded). */
export const PTAH_KIND_NAMES = [
  "PtahSchema",
  "PtahSchemaPlan",
  "PtahSchemaPlanChunk",
  "PtahSchemaApproval",
  "PtahMigration",
  "PtahMigrationPlan",
  "PtahMigrationApproval",
  "PtahMigrationRunAcknowledgment",
] as const;
