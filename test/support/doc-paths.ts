// The repository paths a page of docs names in its code spans: plain paths (test/docs/links.test.ts
// checks each exists) and patterns (`test/e2e/*.e2e.test.ts`, `test/commands/<verb>/`), which must
// each match a file.

export const PATH = /`((?:test|src|lab|krew|docs|rbac|plugin-manifest|\.ci|bin)\/[A-Za-z0-9_./{},*<>-]+)`/gu;

/** The patterns a code span names: `*` within a name, `**` across folders, a `<placeholder>` as `*`. */
export function namedPatterns(text: string): string[] {
  const out = [...text.matchAll(PATH)].map((m) => m[1]!.replace(/[.,]$/u, "")).filter((p) => /[*<]/u.test(p) && !/\bdist\/|\.cache\//u.test(p));
  return [...new Set(out)];
}

/** A pattern as a regular expression over repository paths (a trailing `/` matches what is under it). */
export function patternRegex(pattern: string): RegExp {
  const body = pattern
    .replace(/<[^>]+>/gu, "*")
    .split(/(\*\*\/|\*)/u)
    .map((part) => (part === "**/" ? "(?:.*/)?" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/gu, "\\$&")))
    .join("");
  return new RegExp(`^${body}${pattern.endsWith("/") ? ".+" : ""}$`, "u");
}
