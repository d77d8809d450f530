// Endorsements: the reviewers besides the approver, kept on the PtahSchema itself as one
// annotation per plan. The key is derived from the plan's fingerprint, so a re-plan (a new
// fingerprint) starts from none; the value is the endorsers' usernames, comma-separated, in the
// order they endorsed. The ValidatingAdmissionPolicies `policy render` prints compute the same key
// in CEL (policy-cel.ts) and make the value append-only, one's own username once; this module is
// the plugin's side of that contract, and the two are proven equal on a real API server.

import { APPROVAL_POLICY_LABEL } from "../model/api.ts";

export { ENDORSEMENT_PREFIX, endorsementKey, endorsersOf } from "../model/endorsement-key.ts";

/** The value after `username` endorses: appended to what is there. */
export function appendEndorser(value: string | undefined, username: string): string {
  return value === undefined ? username : `${value},${username}`;
}

/** The label every object `policy render` prints carries, valued by its part; the plugin finds them by it. */
export const POLICY_LABEL = APPROVAL_POLICY_LABEL;
export type PolicyPart = "quorum" | "endorsements" | "window" | "freeze";
