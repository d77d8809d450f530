// Endorsements: the reviewers besides the approver, kept on the PtahSchema itself as one
// annotation per plan. The key is derived from the plan's fingerprint, so a re-plan (a new
// fingerprint) starts from none; the value is the endorsers' usernames, comma-separated, in the
// order they endorsed. The ValidatingAdmissionPolicies `policy render` prints compute the same key
// in CEL (policy-cel.ts) and make the value append-only, one's own username once; this module is
// the plugin's side of that contract, and the two are proven equal on a real API server.

import { APPROVAL_POLICY_LABEL } from "../model/api.ts";

/** Every endorsement annotation starts with this (a domain of ours, never the operator's). */
export const ENDORSEMENT_PREFIX = "endorsements.ptah.run/";

/** The longest name part of an annotation key (its part after the `/`). */
const NAME_MAX = 63;

/**
 * The annotation key of a plan's endorsements: the prefix and the fingerprint with `:` as `-`,
 * cut to the 63 characters a key's name may have (`sha256-` and 56 hex digits, 224 bits).
 */
export function endorsementKey(fingerprint: string): string {
  const name = fingerprint.replaceAll(":", "-");
  return ENDORSEMENT_PREFIX + (name.length > NAME_MAX ? name.slice(0, NAME_MAX) : name);
}

/** The usernames an annotation value lists, in order ("" lists none). */
export function endorsersOf(value: string | undefined): string[] {
  return value === undefined || value === "" ? [] : value.split(",");
}

/** The value after `username` endorses: appended to what is there. */
export function appendEndorser(value: string | undefined, username: string): string {
  return value === undefined ? username : `${value},${username}`;
}

/** The label every object `policy render` prints carries, valued by its part; the plugin finds them by it. */
export const POLICY_LABEL = APPROVAL_POLICY_LABEL;
export type PolicyPart = "quorum" | "endorsements" | "window" | "freeze";
