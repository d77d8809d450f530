// The endorsement annotation's key and value (approval/endorsement.ts describes endorsements): here,
// below every layer that reads them, so a plan export's verification can name a plan's endorsers
// without the approval layer.

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
