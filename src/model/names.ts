// The rule every Kubernetes object name follows. No zod here: `explain` checks words against it
// without loading any package (test/explain/boundaries.test.ts).

/** An object name: a lowercase RFC 1123 DNS subdomain of at most 253 characters. */
export function isDnsSubdomain(text: string): boolean {
  return text.length <= 253 && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/u.test(text);
}

/**
 * Why `segment` cannot be one segment of a request's path, in kubectl's words (client-go's
 * IsValidPathSegmentName); empty when it can. A name or namespace from the command line is checked
 * before anything is sent, as kubectl's client checks it.
 */
export function pathSegmentProblems(segment: string): string[] {
  for (const illegal of [".", ".."]) if (segment === illegal) return [`may not be '${illegal}'`];
  return ["/", "%"].filter((c) => segment.includes(c)).map((c) => `may not contain '${c}'`);
}

/** kubectl's error for a name or namespace that is no path segment (exit 1, as kubectl's); undefined when it is one. */
export function pathSegmentError(what: "resource name" | "namespace", segment: string): string | undefined {
  const problems = pathSegmentProblems(segment);
  return problems.length === 0 ? undefined : `invalid ${what} ${JSON.stringify(segment)}: [${problems.join(" ")}]`;
}
