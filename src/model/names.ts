// The rule every Kubernetes object name follows. No zod here: `explain` checks words against it
// without loading any package (test/explain/boundaries.test.ts).

/** An object name: a lowercase RFC 1123 DNS subdomain of at most 253 characters. */
export function isDnsSubdomain(text: string): boolean {
  return text.length <= 253 && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/u.test(text);
}
